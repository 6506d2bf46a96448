import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { applyForApi } from "~/server/recommendations-api.server";
import type { Route } from "./+types/recommendation-apply";

export const loader = postOnly;

/** POST → 201 { changeSet, validationProblem }: proposed and validated by Google, not applied (the person applies it on its review page). Another user's → 404. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await applyForApi(user.id, params.recommendationId), { status: 201, headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
