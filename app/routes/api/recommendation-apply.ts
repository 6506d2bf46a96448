import { applyForApi } from "~/server/recommendations-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/recommendation-apply";

export const loader = postOnly;

/** POST → 201 { changeSet, validationProblem }: proposed and validated by Google, not applied (the person applies it on its review page). Another user's → 404. */
export const action = apiRoute({ method: "POST", status: 201, tokenScope: "propose" }, ({ params }: Route.ActionArgs, { user }) =>
  applyForApi(user.id, params.recommendationId),
);
