import { data } from "react-router";
import { changeApiError, discardForApi, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set-discard";

export const loader = postOnly;

/** POST → { changeSet }: the proposal is kept as "discarded" and never applied; 409 once applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await discardForApi(user.id, params.changeSetId), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
