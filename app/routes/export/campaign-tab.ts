import { requireUserMiddleware, userContext } from "~/server/request-context.server";
import { campaignTabCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/campaign-tab";

// Outside the app layout: its own guard (anonymous → /login).
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/** GET /export/campaigns/:campaignId?tab=…&…the tab's query… → CSV of the tab's matching rows. */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return campaignTabCsv(user, url, params.campaignId);
}
