import { sql, type RawBuilder } from "kysely";
import { datesInRange, type DateRange } from "~/lib/dates";
import { emptyMetrics, type Metrics } from "~/lib/metrics";
import { CAMPAIGN_SORT_KEYS, type CampaignSortKeyParam } from "~/lib/report-query";
import { getDb } from "../db/db.server";
import { normalizeCustomerId } from "./customer-id.server";
import {
  containsPattern,
  dailySums,
  metricColumnsOf,
  metricSortSql,
  metricSums,
  metricsOf,
  nullableNumber,
  searchTermSums,
  windowTotals,
  windowTotalsOf,
  type MetricRow,
} from "./metric-sql.server";

/**
 * Read models for the report screens, from the local copy of the account
 * (sync.server.ts), never from Google. Sums over a date range are done in SQL
 * (GROUP BY, then sorted and paged there), so a 10,000-campaign account costs
 * one indexed scan of the range, not a trip through JavaScript.
 *
 * Callers check that the user may read the account (ads_accounts); these
 * functions trust the customer id they are given.
 */

export type { DateRange } from "~/lib/dates";
export type { Metrics } from "~/lib/metrics";
export { defaultRange, todayIn, yesterdayIn } from "~/lib/dates";

// The sort keys are shared with the URL parser of the screens: one list.
export type CampaignSortKey = CampaignSortKeyParam;
export { CAMPAIGN_SORT_KEYS };

export type CampaignStatusFilter = "ENABLED" | "PAUSED" | "REMOVED" | "all";

export interface ListCampaignsOptions {
  /** Default "cost". */
  sort?: CampaignSortKey;
  /** Default: "desc" for numbers, "asc" for text. Ties are broken by name, then id. */
  dir?: "asc" | "desc";
  /** Default "all". */
  status?: CampaignStatusFilter;
  /** Case-insensitive substring of the campaign name. */
  q?: string;
  /** 1-based; a page past the end is clamped to the last page. */
  page?: number;
  /** Default 50, at most MAX_PAGE_SIZE. */
  pageSize?: number;
}

export interface CampaignRow {
  id: string;
  name: string;
  status: string;
  channelType: string;
  biddingStrategyType: string;
  /** Daily budget (or the budget of its period) in micros; null when the campaign has none. */
  budgetMicros: number | null;
  metrics: Metrics;
}

export interface CampaignList {
  rows: CampaignRow[];
  /** Campaigns matching the filters, over all pages. */
  total: number;
  /** Sums over every matching campaign, not only this page. */
  totals: Metrics;
  page: number;
  pageSize: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Detail lists are capped (keywords and search terms can run to the hundred thousands); `truncated` says when. */
export const DETAIL_LIST_LIMIT = 500;

// ---------------------------------------------------------------------------
// Campaign list

const TEXT_SORTS = new Set<CampaignSortKey>(["name", "status", "channelType", "biddingStrategyType"]);

function sortExpression(sort: CampaignSortKey): RawBuilder<unknown> {
  switch (sort) {
    case "name":
      return sql`lower(${sql.ref("c.name")})`;
    case "status":
      return sql.ref("c.status");
    case "channelType":
      return sql.ref("c.advertising_channel_type");
    case "biddingStrategyType":
      return sql.ref("c.bidding_strategy_type");
    case "budget":
      return sql.ref("c.budget_amount_micros");
    default:
      return metricSortSql(sort, "m")!;
  }
}

export function campaignRowOf(
  row: {
    id: string;
    name: string;
    status: string;
    advertising_channel_type: string;
    bidding_strategy_type: string;
    budget_amount_micros: number | null;
  } & MetricRow,
): CampaignRow {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    channelType: row.advertising_channel_type,
    biddingStrategyType: row.bidding_strategy_type,
    budgetMicros: nullableNumber(row.budget_amount_micros),
    metrics: metricsOf(row),
  };
}

export function campaignDailySums(customerId: string, range: DateRange, campaignId?: string) {
  const { from, to } = range;
  let q = getDb()
    .selectFrom("ads_campaign_daily as d")
    .select(["d.campaign_id", ...metricSums("d")])
    .where("d.customer_id", "=", customerId)
    .where("d.date", ">=", from)
    .where("d.date", "<=", to);
  if (campaignId !== undefined) q = q.where("d.campaign_id", "=", campaignId);
  return q.groupBy("d.campaign_id");
}

/** One page of the account's campaigns with their metrics over the range, sorted and filtered in SQL. */
export async function listCampaigns(customerId: string, range: DateRange, opts: ListCampaignsOptions = {}): Promise<CampaignList> {
  const cid = normalizeCustomerId(customerId);
  const sort: CampaignSortKey = opts.sort && CAMPAIGN_SORT_KEYS.includes(opts.sort) ? opts.sort : "cost";
  const dir = opts.dir === "asc" || opts.dir === "desc" ? opts.dir : TEXT_SORTS.has(sort) ? "asc" : "desc";
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(opts.pageSize ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE));
  const requestedPage = Math.max(1, Math.floor(opts.page ?? 1) || 1);
  const status = opts.status && opts.status !== "all" ? opts.status : undefined;
  const q = opts.q?.trim() || undefined;
  const db = getDb();

  const filtered = () => {
    let query = db.selectFrom("ads_campaigns as c").leftJoin(campaignDailySums(cid, range).as("m"), "m.campaign_id", "c.id").where("c.customer_id", "=", cid);
    if (status) query = query.where("c.status", "=", status);
    if (q) query = query.where(sql<boolean>`lower(${sql.ref("c.name")}) LIKE ${containsPattern(q)} ESCAPE '!'`);
    return query;
  };

  const fetchPage = async (page: number) => {
    const orderBy = sortExpression(sort);
    return (
      filtered()
        .select([
          "c.id",
          "c.name",
          "c.status",
          "c.advertising_channel_type",
          "c.bidding_strategy_type",
          "c.budget_amount_micros",
          ...metricColumnsOf("m"),
          ...windowTotals("m"),
        ])
        // NULLs (ratios over nothing, campaigns without a budget) sort last either way, as in Google Ads.
        .orderBy(sql`CASE WHEN ${orderBy} IS NULL THEN 1 ELSE 0 END`)
        .orderBy(orderBy, dir)
        .orderBy(sql`lower(${sql.ref("c.name")})`)
        .orderBy("c.id")
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute()
    );
  };

  let page = requestedPage;
  let rows = await fetchPage(page);
  let total: number;
  let totals: Metrics;
  if (rows.length > 0) {
    ({ total, totals } = windowTotalsOf(rows[0]));
  } else {
    // Past the last page (or nothing matches): count separately, then show the last page.
    const summary = await filtered()
      .select([sql<number>`COUNT(*)`.as("total_count"), ...metricSums("m")])
      .executeTakeFirst();
    total = Number(summary?.total_count ?? 0);
    totals = summary ? metricsOf(summary) : emptyMetrics();
    const lastPage = Math.max(1, Math.ceil(total / pageSize));
    if (page > lastPage) {
      page = lastPage;
      if (total > 0) rows = await fetchPage(page);
    }
  }
  return { rows: rows.map(campaignRowOf), total, totals, page, pageSize };
}

/**
 * Every campaign of the account with its metrics over the range, by name: one
 * query and one aggregation, for the API's whole-account answer (paging
 * listCampaigns would aggregate the whole account once per page).
 */
export async function listAllCampaigns(customerId: string, range: DateRange): Promise<CampaignRow[]> {
  const cid = normalizeCustomerId(customerId);
  const rows = await getDb()
    .selectFrom("ads_campaigns as c")
    .leftJoin(campaignDailySums(cid, range).as("m"), "m.campaign_id", "c.id")
    .where("c.customer_id", "=", cid)
    .select(["c.id", "c.name", "c.status", "c.advertising_channel_type", "c.bidding_strategy_type", "c.budget_amount_micros", ...metricColumnsOf("m")])
    .orderBy(sql`lower(${sql.ref("c.name")})`)
    .orderBy("c.id")
    .execute();
  return rows.map(campaignRowOf);
}

// ---------------------------------------------------------------------------
// Account summary and daily series

export interface AccountSummary {
  /** Campaigns with status ENABLED. */
  activeCampaigns: number;
  metrics: Metrics;
}

export async function getAccountSummary(customerId: string, range: DateRange): Promise<AccountSummary> {
  const cid = normalizeCustomerId(customerId);
  const db = getDb();
  const [active, sums] = await Promise.all([
    db
      .selectFrom("ads_campaigns")
      .select(sql<number>`COUNT(*)`.as("n"))
      .where("customer_id", "=", cid)
      .where("status", "=", "ENABLED")
      .executeTakeFirst(),
    db
      .selectFrom("ads_campaign_daily as d")
      .select(metricSums("d"))
      .where("d.customer_id", "=", cid)
      .where("d.date", ">=", range.from)
      .where("d.date", "<=", range.to)
      .executeTakeFirst(),
  ]);
  return { activeCampaigns: Number(active?.n ?? 0), metrics: sums ? metricsOf(sums) : emptyMetrics() };
}

export type DailyPoint = { date: string } & Metrics;

/** One point per date of the range, in order; days without data are zeros. */
export async function getDailySeries(customerId: string, range: DateRange, campaignId?: string): Promise<DailyPoint[]> {
  const cid = normalizeCustomerId(customerId);
  let q = getDb()
    .selectFrom("ads_campaign_daily as d")
    .select(["d.date", ...metricSums("d")])
    .where("d.customer_id", "=", cid)
    .where("d.date", ">=", range.from)
    .where("d.date", "<=", range.to);
  if (campaignId !== undefined) q = q.where("d.campaign_id", "=", campaignId);
  const rows = await q.groupBy("d.date").execute();
  const byDate = new Map(rows.map((r) => [r.date, metricsOf(r)]));
  return datesInRange(range).map((date) => ({ date, ...(byDate.get(date) ?? emptyMetrics()) }));
}

// ---------------------------------------------------------------------------
// Campaign detail

export interface AdGroupRow {
  id: string;
  name: string;
  status: string;
  cpcBidMicros: number | null;
  metrics: Metrics;
}

export interface KeywordRow {
  adGroupId: string;
  adGroupName: string;
  criterionId: string;
  text: string;
  matchType: string;
  status: string;
  negative: boolean;
  cpcBidMicros: number | null;
  qualityScore: number | null;
  systemServingStatus: string | null;
  metrics: Metrics;
}

export interface AdText {
  text: string;
  pinnedField?: string;
  /** From ad_group_ad_asset_view (or the ad's own asset label): PENDING, LEARNING, LOW, GOOD, BEST. */
  performanceLabel?: string;
}

export interface AdRow {
  adGroupId: string;
  adGroupName: string;
  adId: string;
  type: string | null;
  status: string;
  headlines: AdText[];
  descriptions: AdText[];
  path1?: string;
  path2?: string;
  finalUrls: string[];
  adStrength?: string;
  metrics: Metrics;
}

export interface SearchTermRow {
  searchTerm: string;
  /** ADDED, EXCLUDED, ADDED_EXCLUDED or NONE. */
  status: string;
  adGroupId: string;
  adGroupName: string;
  /** The keyword it matched, when it matched only one. */
  keywordText: string | null;
  metrics: Metrics;
}

export interface CampaignNegativeKeywordRow {
  criterionId: string;
  text: string;
  matchType: string;
  status: string | null;
}

export interface CampaignDetail {
  campaign: CampaignRow;
  adGroups: AdGroupRow[];
  /** Positive and ad-group negative keywords, costliest first. */
  keywords: KeywordRow[];
  ads: AdRow[];
  /** Costliest first, summed over match types and keywords. */
  searchTerms: SearchTermRow[];
  campaignNegativeKeywords: CampaignNegativeKeywordRow[];
  /** Which lists were cut at DETAIL_LIST_LIMIT rows. */
  truncated: { adGroups: boolean; keywords: boolean; ads: boolean; searchTerms: boolean; campaignNegativeKeywords: boolean };
  limit: number;
}

export interface StoredAdText {
  text: string;
  pinnedField?: string;
  assetPerformanceLabel?: string;
}

/**
 * Reads an ad's stored headlines or descriptions, each with the performance
 * label Google gave its asset (ad_group_ad_asset_view), else the ad's own.
 */
export function labelledAdTexts(
  assets: Array<{ ad_group_id: string; ad_id: string; field_type: string; text: string | null; performance_label: string | null }>,
) {
  const labels = new Map<string, string>();
  for (const a of assets) {
    if (a.text !== null && a.performance_label !== null) labels.set(`${a.ad_group_id}~${a.ad_id}~${a.field_type}~${a.text}`, a.performance_label);
  }
  return (adGroupId: string, adId: string, fieldType: string, json: string | null): AdText[] =>
    parseJsonArray<StoredAdText>(json).map((t) => {
      const label = labels.get(`${adGroupId}~${adId}~${fieldType}~${t.text}`) ?? t.assetPerformanceLabel;
      return { text: t.text, ...(t.pinnedField ? { pinnedField: t.pinnedField } : {}), ...(label ? { performanceLabel: label } : {}) };
    });
}

// The lists' columns and rows, shared by the detail above and its paged tabs (detail-lists.server.ts).

/** ads_keywords as k joined to its ad group as g. */
export const KEYWORD_COLUMNS = [
  "k.ad_group_id",
  "g.name as ad_group_name",
  "k.criterion_id",
  "k.text",
  "k.match_type",
  "k.status",
  "k.negative",
  "k.cpc_bid_micros",
  "k.quality_score",
  "k.system_serving_status",
] as const;

/** ads_ads as a joined to its ad group as g. */
export const AD_COLUMNS = [
  "a.ad_group_id",
  "g.name as ad_group_name",
  "a.ad_id",
  "a.type",
  "a.status",
  "a.ad_strength",
  "a.headlines",
  "a.descriptions",
  "a.path1",
  "a.path2",
  "a.final_urls",
] as const;

type Row = Record<string, unknown>;

export function adGroupRowOf(g: Row): AdGroupRow {
  return {
    id: String(g.id),
    name: String(g.name),
    status: String(g.status),
    cpcBidMicros: nullableNumber(g.cpc_bid_micros),
    metrics: metricsOf(g as MetricRow),
  };
}

export function keywordRowOf(k: Row): KeywordRow {
  return {
    adGroupId: String(k.ad_group_id),
    adGroupName: String(k.ad_group_name),
    criterionId: String(k.criterion_id),
    text: String(k.text),
    matchType: String(k.match_type),
    status: String(k.status),
    negative: Number(k.negative) === 1,
    cpcBidMicros: nullableNumber(k.cpc_bid_micros),
    qualityScore: nullableNumber(k.quality_score),
    systemServingStatus: (k.system_serving_status as string | null) ?? null,
    metrics: metricsOf(k as MetricRow),
  };
}

export function adRowOf(a: Row, adTexts: ReturnType<typeof labelledAdTexts>): AdRow {
  const adGroupId = String(a.ad_group_id);
  const adId = String(a.ad_id);
  return {
    adGroupId,
    adGroupName: String(a.ad_group_name),
    adId,
    type: (a.type as string | null) ?? null,
    status: String(a.status),
    headlines: adTexts(adGroupId, adId, "HEADLINE", a.headlines as string | null),
    descriptions: adTexts(adGroupId, adId, "DESCRIPTION", a.descriptions as string | null),
    ...(a.path1 ? { path1: String(a.path1) } : {}),
    ...(a.path2 ? { path2: String(a.path2) } : {}),
    finalUrls: parseJsonArray<string>(a.final_urls as string | null).filter((u) => typeof u === "string"),
    ...(a.ad_strength ? { adStrength: String(a.ad_strength) } : {}),
    metrics: metricsOf(a as MetricRow),
  };
}

/** A search term summed by searchTermSums, with its ad group's name as ad_group_name (its id when the group is gone). */
export function searchTermRowOf(t: Row): SearchTermRow {
  return {
    searchTerm: String(t.search_term),
    status: String(t.status),
    adGroupId: String(t.ad_group_id),
    adGroupName: t.ad_group_name === null || t.ad_group_name === undefined ? String(t.ad_group_id) : String(t.ad_group_name),
    keywordText: (t.keyword_text as string | null) ?? null,
    metrics: metricsOf(t as MetricRow),
  };
}

export function parseJsonArray<T>(value: string | null): T[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

export async function getCampaignDetail(customerId: string, campaignId: string, range: DateRange): Promise<CampaignDetail | null> {
  const cid = normalizeCustomerId(customerId);
  if (!/^\d{1,19}$/.test(campaignId)) return null;
  const db = getDb();
  const { from, to } = range;
  const limit = DETAIL_LIST_LIMIT;

  const campaign = await db
    .selectFrom("ads_campaigns as c")
    .leftJoin(campaignDailySums(cid, range, campaignId).as("m"), "m.campaign_id", "c.id")
    .select(["c.id", "c.name", "c.status", "c.advertising_channel_type", "c.bidding_strategy_type", "c.budget_amount_micros", ...metricColumnsOf("m")])
    .where("c.customer_id", "=", cid)
    .where("c.id", "=", campaignId)
    .executeTakeFirst();
  if (!campaign) return null;

  const byCost = (alias: string) => sql`COALESCE(${sql.ref(`${alias}.cost_micros`)}, 0)`;
  const byImpressions = (alias: string) => sql`COALESCE(${sql.ref(`${alias}.impressions`)}, 0)`;

  const adGroupSums = dailySums("ads_ad_group_daily", cid, range, campaignId);
  const adGroupsQuery = db
    .selectFrom("ads_ad_groups as g")
    .leftJoin(adGroupSums.as("m"), "m.ad_group_id", "g.id")
    .select(["g.id", "g.name", "g.status", "g.cpc_bid_micros", ...metricColumnsOf("m")])
    .where("g.customer_id", "=", cid)
    .where("g.campaign_id", "=", campaignId)
    .orderBy(byCost("m"), "desc")
    .orderBy(byImpressions("m"), "desc")
    .orderBy(sql`lower(${sql.ref("g.name")})`)
    .orderBy("g.id")
    .limit(limit + 1);

  const keywordSums = dailySums("ads_keyword_daily", cid, range, campaignId);
  const keywordsQuery = db
    .selectFrom("ads_keywords as k")
    .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "k.customer_id").onRef("g.id", "=", "k.ad_group_id"))
    .leftJoin(keywordSums.as("m"), (j) => j.onRef("m.ad_group_id", "=", "k.ad_group_id").onRef("m.criterion_id", "=", "k.criterion_id"))
    .select([...KEYWORD_COLUMNS, ...metricColumnsOf("m")])
    .where("k.customer_id", "=", cid)
    .where("k.campaign_id", "=", campaignId)
    .orderBy(byCost("m"), "desc")
    .orderBy(byImpressions("m"), "desc")
    .orderBy("k.negative")
    .orderBy(sql`lower(${sql.ref("k.text")})`)
    .orderBy("k.criterion_id")
    .limit(limit + 1);

  const adSums = dailySums("ads_ad_daily", cid, range, campaignId);
  const adsQuery = db
    .selectFrom("ads_ads as a")
    .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "a.customer_id").onRef("g.id", "=", "a.ad_group_id"))
    .leftJoin(adSums.as("m"), (j) => j.onRef("m.ad_group_id", "=", "a.ad_group_id").onRef("m.ad_id", "=", "a.ad_id"))
    .select([...AD_COLUMNS, ...metricColumnsOf("m")])
    .where("a.customer_id", "=", cid)
    .where("a.campaign_id", "=", campaignId)
    .orderBy(byCost("m"), "desc")
    .orderBy(byImpressions("m"), "desc")
    .orderBy("a.ad_group_id")
    .orderBy("a.ad_id")
    .limit(limit + 1);

  const assetsQuery = db
    .selectFrom("ads_ad_assets")
    .select(["ad_group_id", "ad_id", "field_type", "text", "performance_label"])
    .where("customer_id", "=", cid)
    .where("campaign_id", "=", campaignId);

  const termSums = db
    .selectFrom("ads_search_term_daily as t")
    .select(["t.ad_group_id", "t.search_term", ...searchTermSums("t")])
    .where("t.customer_id", "=", cid)
    .where("t.campaign_id", "=", campaignId)
    .where("t.date", ">=", from)
    .where("t.date", "<=", to)
    .groupBy(["t.ad_group_id", "t.search_term"]);
  const termsQuery = db
    .selectFrom(termSums.as("m"))
    .leftJoin("ads_ad_groups as g", (j) => j.on("g.customer_id", "=", cid).onRef("g.id", "=", "m.ad_group_id"))
    .select(["m.ad_group_id", "g.name as ad_group_name", "m.search_term", "m.status", "m.keyword_text", ...metricColumnsOf("m")])
    .orderBy(byCost("m"), "desc")
    .orderBy(byImpressions("m"), "desc")
    .orderBy("m.search_term")
    .orderBy("m.ad_group_id")
    .limit(limit + 1);

  const negativesQuery = db
    .selectFrom("ads_campaign_negative_keywords")
    .select(["criterion_id", "text", "match_type", "status"])
    .where("customer_id", "=", cid)
    .where("campaign_id", "=", campaignId)
    .orderBy(sql`lower(${sql.ref("text")})`)
    .orderBy("criterion_id")
    .limit(limit + 1);

  // Sequential on purpose: SQLite serves one query at a time anyway, and a pg
  // pool shouldn't be drained by one page view.
  const adGroups = await adGroupsQuery.execute();
  const keywords = await keywordsQuery.execute();
  const ads = await adsQuery.execute();
  const assets = await assetsQuery.execute();
  const terms = await termsQuery.execute();
  const negatives = await negativesQuery.execute();

  const adTexts = labelledAdTexts(assets);

  return {
    campaign: campaignRowOf(campaign),
    adGroups: adGroups.slice(0, limit).map(adGroupRowOf),
    keywords: keywords.slice(0, limit).map(keywordRowOf),
    ads: ads.slice(0, limit).map((a) => adRowOf(a, adTexts)),
    searchTerms: terms.slice(0, limit).map(searchTermRowOf),
    campaignNegativeKeywords: negatives.slice(0, limit).map((n) => ({
      criterionId: n.criterion_id,
      text: n.text,
      matchType: n.match_type,
      status: n.status,
    })),
    truncated: {
      adGroups: adGroups.length > limit,
      keywords: keywords.length > limit,
      ads: ads.length > limit,
      searchTerms: terms.length > limit,
      campaignNegativeKeywords: negatives.length > limit,
    },
    limit,
  };
}
