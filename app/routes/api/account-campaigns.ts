import { data } from "react-router";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError } from "~/server/http/errors.server";
import { campaignsForApi } from "~/server/report-api.server";
import type { Route } from "./+types/account-campaigns";

/** GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → { campaigns: [...] }, every campaign with its metrics. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data(await campaignsForApi(user.id, params.customerId, new URL(request.url)), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return apiError(error);
  }
}
