import { apiRoute } from "~/server/http/api-route.server";
import { campaignsForApi } from "~/server/report-api.server";
import type { Route } from "./+types/account-campaigns";

/** GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → { campaigns: [...] }, every campaign with its metrics. */
export const loader = apiRoute({}, ({ params, url }: Route.LoaderArgs, { user }) => campaignsForApi(user.id, params.customerId, url));
