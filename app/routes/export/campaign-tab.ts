import { requireUser } from "~/server/auth/session.server";
import { campaignTabCsv } from "~/server/csv-exports.server";
import type { Route } from "./+types/campaign-tab";

/** GET /export/campaigns/:campaignId?tab=…&…the tab's query… → CSV of the tab's matching rows. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return campaignTabCsv(user, new URL(request.url), params.campaignId);
}
