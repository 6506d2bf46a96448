import { requireUser } from "~/server/auth/session.server";
import { campaignsCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/campaigns";

/** GET /export/campaigns?…the campaigns page's query… → CSV of every matching campaign. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return campaignsCsv(user, new URL(request.url));
}
