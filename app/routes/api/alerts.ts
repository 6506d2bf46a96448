import { alertsForApi } from "~/server/agency/api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/alerts";

/** GET ?status=open|resolved|all&customerId&muted=hide|show&page → a page of the caller's alerts and the unread count. */
export const loader = apiRoute({}, ({ url }: Route.LoaderArgs, { user }) => alertsForApi(user.id, url));
