import { data } from "react-router";
import { changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { dismissForApi } from "~/server/recommendations-api.server";
import type { Route } from "./+types/recommendation-dismiss";

export const loader = postOnly;

/** POST { reason? } → { recommendation } with status "dismissed"; it stays dismissed across runs. Another user's → 404. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await dismissForApi(user.id, params.recommendationId, request), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
