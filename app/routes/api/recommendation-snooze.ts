import { snoozeForApi } from "~/server/recommendations-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/recommendation-snooze";

export const loader = postOnly;

/** POST { days: 7 | 30 } → { recommendation } with status "snoozed" until then. Another user's → 404. */
export const action = apiRoute({ method: "POST" }, ({ params, request }: Route.ActionArgs, { user }) =>
  snoozeForApi(user.id, params.recommendationId, request),
);
