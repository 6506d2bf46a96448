import { data } from "react-router";
import { changeApiError, NO_STORE } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { recommendationsForApi } from "~/server/recommendations-api.server";
import type { Route } from "./+types/account-recommendations";

/** GET ?status=open|dismissed|snoozed|applied (&type=) → { recommendations, score: { value, breakdown } }. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data(await recommendationsForApi(user.id, params.customerId, new URL(request.url)), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
