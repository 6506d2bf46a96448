import { activeAccountStatus } from "~/server/account-access.server";
import { analysisStatus } from "~/server/optimizer/pages.server";
import type { Route } from "./+types/analysis";

// The recommendations engine's side of data freshness, on the cookie session:
// the small status document the AI Optimizer's panel and the score page poll
// while an analysis is in flight, like /sync for a sync.

export function loader({ request, context }: Route.LoaderArgs) {
  return activeAccountStatus(request, context, analysisStatus);
}
