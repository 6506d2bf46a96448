import { campaignRecommendations } from "./optimizer/pages.server";
import { emptyMetrics } from "~/lib/metrics";
import { parseCampaignListQuery, parseDetailTab, type CampaignSortKeyParam } from "~/lib/report-query";
import { previousPeriod, wantsComparison } from "~/lib/compare-period";
import { parseAdView, parseDetailListQuery } from "~/lib/detail-query";
import { getCampaignOverview, listDetailTab } from "./ads/detail-lists.server";
import { getAccountSummary, getDailySeries, listCampaigns, type CampaignSortKey, type CampaignStatusFilter } from "./ads/reports.server";
import { hiddenCampaignColumns } from "./campaign-columns.server";
import type { User } from "./db/schema";
import { activeAccountOf, notFound, type ReportAccount } from "./account-access.server";
import { awaitingFirstSync, freshness } from "./sync-status.server";
import { pageRange } from "./report-range.server";
import { renderClock } from "./render-clock.server";
import { cachedRead } from "./ads/report-cache.server";
import type { DateRange } from "~/lib/dates";

// The loaders of the report pages: which account, which range, how fresh,
// and the numbers. Unconnected users get { connected: false } and the seed's
// screens.

// The address's sort keys (app/lib, usable in the browser) and the report's must be the same set.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SORT_KEYS_MATCH: Same<CampaignSortKeyParam, CampaignSortKey> = true;

/** What every report page shows about its account and range, and the scope its reports are cached in. */
async function pageContext(user: User, url: URL, account: ReportAccount) {
  const { sync, scope } = await freshness(user.id, account);
  const range = pageRange(url, account);
  const ctx = {
    connected: true as const,
    account: { customerId: account.customerId, name: account.name, currencyCode: account.currencyCode, timeZone: account.timeZone },
    now: renderClock(),
    sync,
    firstSync: awaitingFirstSync(sync),
    range: range.range,
    presetId: range.presetId,
    rangeNotice: range.notice,
    today: range.today,
  };
  return { ctx, scope };
}

export async function dashboardPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const { ctx, scope } = await pageContext(user, url, account);
  const compare = wantsComparison(url.searchParams);
  if (ctx.firstSync) return { ...ctx, compare, summary: { activeCampaigns: 0, metrics: emptyMetrics() }, series: [], previous: null };
  const summaryOf = (range: DateRange) => cachedRead(scope, "summary", [range], () => getAccountSummary(account.customerId, range));
  const seriesOf = (range: DateRange) => cachedRead(scope, "series", [range], () => getDailySeries(account.customerId, range));
  const summary = await summaryOf(ctx.range);
  const series = await seriesOf(ctx.range);
  const chartPoints = (list: typeof series) => list.map((p) => ({ date: p.date, costMicros: p.costMicros, clicks: p.clicks, conversions: p.conversions }));
  // "Compare with the previous period": the same number of days just before.
  let previous = null;
  if (compare) {
    const range = previousPeriod(ctx.range);
    const [prevSummary, prevSeries] = [await summaryOf(range), await seriesOf(range)];
    previous = { range, metrics: prevSummary.metrics, series: chartPoints(prevSeries) };
  }
  return { ...ctx, compare, summary, series: chartPoints(series), previous };
}

const STATUS_FILTER: Record<string, CampaignStatusFilter> = { all: "all", enabled: "ENABLED", paused: "PAUSED", removed: "REMOVED" };

export async function campaignsPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const { ctx, scope } = await pageContext(user, url, account);
  const { query, ignored } = parseCampaignListQuery(url.searchParams);
  const options = {
    sort: query.sort,
    dir: query.dir,
    status: STATUS_FILTER[query.status],
    q: query.q || undefined,
    page: query.page,
    pageSize: query.pageSize,
  };
  const list = ctx.firstSync
    ? { rows: [], total: 0, totals: emptyMetrics(), page: 1, pageSize: query.pageSize }
    : await cachedRead(scope, "campaigns", [ctx.range, options], () => listCampaigns(account.customerId, ctx.range, options));
  return {
    ...ctx,
    hiddenColumns: await hiddenCampaignColumns(user),
    query: { ...query, page: list.page },
    queryNotice: ignored.length ? `Ignored an invalid ${ignored.join(", ")} in the address; showing the default instead.` : null,
    list,
  };
}

/** The campaign, its tabs' sizes, and only the open tab's page of rows (sorted, filtered and paged in SQL). */
export async function campaignDetailPage(user: User, url: URL, campaignId: string) {
  const account = await activeAccountOf(user);
  // Without an account there is no campaign of theirs to show.
  if (!account || !/^\d{1,19}$/.test(campaignId)) notFound();
  const { ctx, scope } = await pageContext(user, url, account);
  const { tab, ignored: tabIgnored } = parseDetailTab(url.searchParams);
  const overview = await cachedRead(scope, "campaign", [campaignId, ctx.range], () => getCampaignOverview(account.customerId, campaignId, ctx.range));
  if (!overview) notFound();
  const { query, ignored } = parseDetailListQuery(url.searchParams, tab);
  const { view: adView, ignored: viewIgnored } = parseAdView(url.searchParams);
  const opened = await cachedRead<Awaited<ReturnType<typeof listDetailTab>>>(scope, "tab", [tab, campaignId, ctx.range, query], () =>
    listDetailTab(tab, account.customerId, campaignId, ctx.range, query),
  );
  const notices = [
    tabIgnored ? "Unknown tab in the address; showing ad groups." : null,
    ignored.length ? `Ignored an invalid ${ignored.join(", ")} in the address; showing the default instead.` : null,
    viewIgnored && tab === "ads" ? "Ignored an invalid view in the address; showing the ads as cards." : null,
  ].filter(Boolean);
  return {
    ...ctx,
    tab,
    adView,
    recommendations: await campaignRecommendations(account.customerId, campaignId),
    tabNotice: notices.length ? notices.join(" ") : null,
    query: { ...query, page: opened.list.page },
    detail: { campaign: overview.campaign, counts: overview.counts, adGroupOptions: overview.adGroupOptions },
    opened,
  };
}
