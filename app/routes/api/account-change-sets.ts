import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, proposeForApi, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/account-change-sets";

export const loader = postOnly;

/** POST { actions, title?, atomic? } → 201 { changeSet, validationProblem }: proposed and checked by Google, nothing applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await proposeForApi(user.id, params.customerId, request), { status: 201, headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
