import { accountsCsv } from "~/server/agency/pages.server";
import { requireUserMiddleware, userContext } from "~/server/request-context.server";
import type { Route } from "./+types/accounts";

// Outside the app layout: its own guard (anonymous → /login).
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/** GET /export/accounts?…the overview's filters and sort… → CSV of every matching account. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return accountsCsv(user, url);
}
