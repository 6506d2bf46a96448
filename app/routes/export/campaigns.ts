import { requireUserMiddleware, userContext } from "~/server/request-context.server";
import { campaignsCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/campaigns";

// Outside the app layout: its own guard (anonymous → /login).
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/** GET /export/campaigns?…the campaigns page's query… → CSV of every matching campaign. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return campaignsCsv(user, url);
}
