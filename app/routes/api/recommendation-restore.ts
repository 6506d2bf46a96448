import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { restoreForApi } from "~/server/recommendations-api.server";
import type { Route } from "./+types/recommendation-restore";

export const loader = postOnly;

/** POST → { recommendation } back to "open" (from dismissed or snoozed). Another user's → 404. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await restoreForApi(user.id, params.recommendationId), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
