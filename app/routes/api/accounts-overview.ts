import { overviewForApi } from "~/server/agency/api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/accounts-overview";

/** GET ?sort&dir&status&q&manager&page&pageSize → one page of the caller's client accounts with their figures. */
export const loader = apiRoute({}, ({ url }: Route.LoaderArgs, { user }) => overviewForApi(user.id, url));
