import { emptyMetrics } from "~/lib/metrics";
import { getAccountSummary, listCampaigns, MAX_PAGE_SIZE, type CampaignRow } from "./ads/reports.server";
import { ensureFresh, syncAccount } from "./ads/sync.server";
import { apiRange, requireAccountOf, type ReportAccount } from "./reporting.server";

// The JSON API's report reads. Same data and rules as the pages; the
// differences are the API's: a bad range is a 400 (a page falls back
// instead), and an account never synced is synced before answering, since an
// API client cannot watch a progress bar.

async function ensureData(userId: string, account: ReportAccount) {
  if (account.manager) return;
  const state = await ensureFresh(userId, account.customerId);
  if (!state.lastSuccessAt) await syncAccount(userId, account.customerId);
}

export async function campaignsForApi(userId: string, customerId: string, url: URL): Promise<{ campaigns: CampaignRow[] }> {
  const account = await requireAccountOf(userId, customerId);
  const range = apiRange(url, account);
  await ensureData(userId, account);
  // Every campaign, in pages of the report's maximum: one query for most accounts.
  const campaigns: CampaignRow[] = [];
  for (let page = 1; ; page++) {
    const list = await listCampaigns(account.customerId, range, { sort: "name", dir: "asc", page, pageSize: MAX_PAGE_SIZE });
    if (list.page !== page) break;
    campaigns.push(...list.rows);
    if (campaigns.length >= list.total || list.rows.length === 0) break;
  }
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
