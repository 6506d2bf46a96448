import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, requirePost, revertForApi } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set-revert";

export const loader = postOnly;

/** POST → 201 { changeSet, validationProblem }: a NEW change set undoing this one, validated but not applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await revertForApi(user.id, params.changeSetId), { status: 201, headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
