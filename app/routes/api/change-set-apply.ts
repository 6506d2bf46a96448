import { data } from "react-router";
import { applyForApi, changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set-apply";

export const loader = postOnly;

/** POST { confirmLargeMoves? } (body optional) → { changeSet } with the outcome in its status; 409 when it cannot be applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await applyForApi(user.id, params.changeSetId, request), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
