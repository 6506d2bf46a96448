import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, requirePost, validateForApi } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set-validate";

export const loader = postOnly;

/** POST → { changeSet, validationProblem }: Google checks the changes again (validateOnly); nothing is applied. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await validateForApi(user.id, params.changeSetId), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
