import { applyForApi } from "~/server/change-api.server";
import { approvalFromApiRequest } from "~/server/changes/approval.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set-apply";

export const loader = postOnly;

/** POST { confirmLargeMoves? } (body optional) → { changeSet } with the outcome in its status; 409 when it cannot be applied. */
export const action = apiRoute({ method: "POST" }, async ({ request, params }: Route.ActionArgs, { user }) => {
  // The caller's approval, minted from this very request (never from a tool or a transcript).
  const approval = await approvalFromApiRequest(request, params.changeSetId);
  return applyForApi(user.id, params.changeSetId, request, approval);
});
