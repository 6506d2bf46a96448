import { dismissForApi } from "~/server/recommendations-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/recommendation-dismiss";

export const loader = postOnly;

/** POST { reason? } → { recommendation } with status "dismissed"; it stays dismissed across runs. Another user's → 404. */
export const action = apiRoute({ method: "POST" }, ({ params, request }: Route.ActionArgs, { user }) =>
  dismissForApi(user.id, params.recommendationId, request),
);
