import { data } from "react-router";
import { changeApiError, changeSetForApi, NO_STORE } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/change-set";

/** GET → { changeSet }: its status, Google's verdict and the before/after of every change. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data(await changeSetForApi(user.id, params.changeSetId), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
