import { emptyMetrics } from "~/lib/metrics";
import { getAccountSummary, listAllCampaigns, type CampaignRow } from "./ads/reports.server";
import { getSyncState, syncAccount } from "./ads/sync.server";
import { apiRange } from "./report-range.server";
import { requireAccountOf, type ReportAccount } from "./account-access.server";

// The JSON API's report reads. Same data and rules as the pages; the
// differences are the API's: a bad range is a 400 (a page falls back
// instead), and an account whose first import is not in yet is imported (or
// the running import awaited) before answering, since an API client cannot
// watch a progress bar. Later refreshes are scheduled: reads never start one.

/** Fresh enough data for a client that cannot watch a progress bar (the API, an MCP agent): a never-synced account is synced first. */
export async function ensureData(userId: string, account: ReportAccount) {
  if (account.manager) return;
  const state = await getSyncState(account.customerId);
  if (!state.lastSuccessAt) await syncAccount(userId, account.customerId);
}

export async function campaignsForApi(userId: string, customerId: string, url: URL): Promise<{ campaigns: CampaignRow[] }> {
  const account = await requireAccountOf(userId, customerId);
  const range = apiRange(url, account);
  await ensureData(userId, account);
  const campaigns = await listAllCampaigns(account.customerId, range);
  return {
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      channelType: c.channelType,
      biddingStrategyType: c.biddingStrategyType,
      budgetMicros: c.budgetMicros,
      metrics: { ...c.metrics },
    })),
  };
}

export async function summaryForApi(userId: string, customerId: string, url: URL) {
  const account = await requireAccountOf(userId, customerId);
  const range = apiRange(url, account);
  await ensureData(userId, account);
  if (account.manager) return { activeCampaigns: 0, metrics: emptyMetrics() };
  const summary = await getAccountSummary(account.customerId, range);
  return { activeCampaigns: summary.activeCampaigns, metrics: { ...summary.metrics } };
}
