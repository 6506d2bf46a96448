import { apiRoute } from "~/server/http/api-route.server";
import { summaryForApi } from "~/server/report-api.server";
import type { Route } from "./+types/account-summary";

/** GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → { activeCampaigns, metrics }. */
export const loader = apiRoute({}, ({ params, url }: Route.LoaderArgs, { user }) => summaryForApi(user.id, params.customerId, url));
