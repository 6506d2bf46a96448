import { draftsForApi } from "~/server/change-api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/drafts";

/** GET ?customerId&origin&status&q&page → { drafts, total }: change sets proposed but not applied, newest first, 50 per page. */
export const loader = apiRoute({}, ({ url }: Route.LoaderArgs, { user }) => draftsForApi(user.id, url));
