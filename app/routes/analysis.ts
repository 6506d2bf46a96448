import { data } from "react-router";
import { currentSession } from "~/server/request-context.server";
import { activeAccountOf } from "~/server/account-access.server";
import { analysisStatus } from "~/server/optimizer/pages.server";
import type { Route } from "./+types/analysis";

// The recommendations engine's side of data freshness, on the cookie session:
// the small status document the AI Optimizer's panel and the score page poll
// while an analysis is in flight, like /sync for a sync.

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await currentSession(request, context);
  const headers = { "Cache-Control": "no-store" };
  if (!session) return data({ detail: "Not signed in" }, { status: 401, headers });
  const account = await activeAccountOf(session.user);
  if (!account) return data({ detail: "No Google Ads account connected" }, { status: 404, headers });
  return data(await analysisStatus(account.customerId), { headers });
}
