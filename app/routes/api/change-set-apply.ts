import { data } from "react-router";
import { applyForApi, changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { approvalFromApiRequest } from "~/server/changes/approval.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set-apply";

export const loader = postOnly;

/** POST { confirmLargeMoves? } (body optional) → { changeSet } with the outcome in its status; 409 when it cannot be applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    // The caller's approval, minted from this very request (never from a tool or a transcript).
    const approval = await approvalFromApiRequest(request, params.changeSetId);
    return data(await applyForApi(user.id, params.changeSetId, request, approval), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
