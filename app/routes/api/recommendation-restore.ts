import { restoreForApi } from "~/server/recommendations-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/recommendation-restore";

export const loader = postOnly;

/** POST → { recommendation } back to "open" (from dismissed or snoozed). Another user's → 404. */
export const action = apiRoute({ method: "POST" }, ({ params }: Route.ActionArgs, { user }) => restoreForApi(user.id, params.recommendationId));
