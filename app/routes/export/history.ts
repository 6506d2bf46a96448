import { requireUserMiddleware, userContext } from "~/server/request-context.server";
import { historyCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/history";

// Outside the app layout: its own guard (anonymous → /login).
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/** GET /export/history?…the history filters… → CSV of every matching change. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return historyCsv(user, url);
}
