import { requireUser } from "~/server/auth/session.server";
import { historyCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/history";

/** GET /export/history?…the history filters… → CSV of every matching change. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return historyCsv(user, new URL(request.url));
}
