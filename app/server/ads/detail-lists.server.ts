import { sql, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { DateRange } from "~/lib/dates";
import { detailDefaultDir, DETAIL_SORT_KEYS, type DetailStatusFilter } from "~/lib/detail-query";
import { emptyMetrics, type Metrics } from "~/lib/metrics";
import type { DetailTab } from "~/lib/report-query";
import { getDb } from "../db/db.server";
import { normalizeCustomerId } from "./customer-id.server";
import {
  containsPattern,
  dailySums,
  metricColumnsOf,
  metricSortSql,
  metricSums,
  metricsOf,
  searchTermSums,
  windowTotals,
  windowTotalsOf,
} from "./metric-sql.server";
import {
  AD_COLUMNS,
  adGroupRowOf,
  adRowOf,
  campaignDailySums,
  campaignRowOf,
  KEYWORD_COLUMNS,
  keywordRowOf,
  labelledAdTexts,
  searchTermRowOf,
  type AdGroupRow,
  type AdRow,
  type CampaignRow,
  type KeywordRow,
  type SearchTermRow,
} from "./reports.server";

/**
 * The campaign detail's tabs as pages: each tab (ad groups, keywords, ads,
 * search terms) is filtered, sorted and cut into a page in SQL, with the
 * filtered rows' count and metric totals from the same scan (window
 * aggregates), so a 10,000-keyword campaign sends 50 rows, not 10,000.
 *
 * Every query starts from the tab's entity table by (customer_id,
 * campaign_id) and sums its daily table by (customer_id, campaign_id, date):
 * both are indexed (migration 0003), so the cost grows with the campaign's
 * rows in the range, never with the account.
 */

export interface DetailListOptions {
  /** One of DETAIL_SORT_KEYS[tab]; default "cost". */
  sort?: string;
  /** Default: ascending for text, descending for numbers. */
  dir?: "asc" | "desc";
  status?: DetailStatusFilter;
  /** Case-insensitive substring of the tab's text (name, keyword, ad text, search term). */
  q?: string;
  /** 1-based; a page past the end is clamped to the last page. */
  page?: number;
  pageSize?: number;
}

export interface DetailList<Row> {
  rows: Row[];
  /** Rows matching the filters, over all pages. */
  total: number;
  /** Sums over every matching row, not only this page. */
  totals: Metrics;
  page: number;
  pageSize: number;
}

export const MAX_DETAIL_PAGE_SIZE = 5000;

// Loosely typed on purpose: the four tabs share the paging code but not their tables.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** The sort expression of a metric over the summed subquery `m`, or null when `key` is not a metric. */
const metricSort = (key: string) => metricSortSql(key, "m");

const lower = (ref: string) => sql`lower(${sql.ref(ref)})`;

interface Plan {
  filtered: () => AnyQuery;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: any[];
  sortExpression: (key: string) => RawBuilder<unknown>;
  /** Make the order total, so pages never overlap or skip rows. */
  ties: RawBuilder<unknown>[];
}

function normalized(tab: DetailTab, opts: DetailListOptions) {
  const keys = DETAIL_SORT_KEYS[tab] as readonly string[];
  const sort = opts.sort && keys.includes(opts.sort) ? opts.sort : "cost";
  const dir = opts.dir === "asc" || opts.dir === "desc" ? opts.dir : detailDefaultDir(sort);
  const pageSize = Math.min(MAX_DETAIL_PAGE_SIZE, Math.max(1, Math.floor(opts.pageSize ?? 50) || 50));
  const page = Math.max(1, Math.floor(opts.page ?? 1) || 1);
  const q = opts.q?.trim() || undefined;
  const status = opts.status && opts.status !== "all" ? opts.status : undefined;
  return { sort, dir, pageSize, page, q, status };
}

async function pagedRows(plan: Plan, sort: string, dir: "asc" | "desc", requestedPage: number, pageSize: number) {
  const orderBy = plan.sortExpression(sort);
  const fetchPage = (page: number) => {
    let query = plan
      .filtered()
      .select([...plan.columns, ...windowTotals("m")])
      // NULLs (ratios over nothing, no bid, no quality score) sort last either way, as in Google Ads.
      .orderBy(sql`CASE WHEN ${orderBy} IS NULL THEN 1 ELSE 0 END`)
      .orderBy(orderBy, dir);
    for (const tie of plan.ties) query = query.orderBy(tie);
    return query
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute() as Promise<Record<string, unknown>[]>;
  };
  let page = requestedPage;
  let rows = await fetchPage(page);
  let total: number;
  let totals: Metrics;
  if (rows.length > 0) {
    ({ total, totals } = windowTotalsOf(rows[0]));
  } else {
    // Past the last page (or nothing matches): count separately, then show the last page.
    const summary = (await plan
      .filtered()
      .select([sql<number>`COUNT(*)`.as("total_count"), ...metricSums("m")])
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    total = Number(summary?.total_count ?? 0);
    totals = summary ? metricsOf(summary as never) : emptyMetrics();
    const lastPage = Math.max(1, Math.ceil(total / pageSize));
    if (page > lastPage) {
      page = lastPage;
      if (total > 0) rows = await fetchPage(page);
    }
  }
  return { rows, total, totals, page, pageSize };
}

function entityStatus(status: string | undefined, ref: string) {
  return status ? sql<boolean>`${sql.ref(ref)} = ${status.toUpperCase()}` : null;
}

function inRange(query: AnyQuery, alias: string, cid: string, campaignId: string, range: DateRange): AnyQuery {
  return query
    .where(`${alias}.customer_id`, "=", cid)
    .where(`${alias}.campaign_id`, "=", campaignId)
    .where(`${alias}.date`, ">=", range.from)
    .where(`${alias}.date`, "<=", range.to);
}

// ---------------------------------------------------------------- ad groups

export async function listAdGroups(customerId: string, campaignId: string, range: DateRange, opts: DetailListOptions = {}): Promise<DetailList<AdGroupRow>> {
  const cid = normalizeCustomerId(customerId);
  const o = normalized("adgroups", opts);
  const db = getDb();
  const sums = dailySums("ads_ad_group_daily", cid, range, campaignId);
  const plan: Plan = {
    filtered: () => {
      let query: AnyQuery = db
        .selectFrom("ads_ad_groups as g")
        .leftJoin(sums.as("m"), "m.ad_group_id", "g.id")
        .where("g.customer_id", "=", cid)
        .where("g.campaign_id", "=", campaignId);
      const status = entityStatus(o.status, "g.status");
      if (status) query = query.where(status);
      if (o.q) query = query.where(sql<boolean>`lower(${sql.ref("g.name")}) LIKE ${containsPattern(o.q)} ESCAPE '!'`);
      return query;
    },
    columns: ["g.id", "g.name", "g.status", "g.cpc_bid_micros", ...metricColumnsOf("m")],
    sortExpression: (key) => metricSort(key) ?? (key === "status" ? sql.ref("g.status") : key === "bid" ? sql.ref("g.cpc_bid_micros") : lower("g.name")),
    ties: [lower("g.name"), sql.ref("g.id")],
  };
  const page = await pagedRows(plan, o.sort, o.dir, o.page, o.pageSize);
  return {
    ...page,
    rows: page.rows.map(adGroupRowOf),
  };
}

// ---------------------------------------------------------------- keywords

const KEYWORD_SORTS: Record<string, string> = {
  matchType: "k.match_type",
  status: "k.status",
  bid: "k.cpc_bid_micros",
  qualityScore: "k.quality_score",
};

export async function listKeywords(customerId: string, campaignId: string, range: DateRange, opts: DetailListOptions = {}): Promise<DetailList<KeywordRow>> {
  const cid = normalizeCustomerId(customerId);
  const o = normalized("keywords", opts);
  const db = getDb();
  const sums = dailySums("ads_keyword_daily", cid, range, campaignId);
  const plan: Plan = {
    filtered: () => {
      let query: AnyQuery = db
        .selectFrom("ads_keywords as k")
        .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "k.customer_id").onRef("g.id", "=", "k.ad_group_id"))
        .leftJoin(sums.as("m"), (j) => j.onRef("m.ad_group_id", "=", "k.ad_group_id").onRef("m.criterion_id", "=", "k.criterion_id"))
        .where("k.customer_id", "=", cid)
        .where("k.campaign_id", "=", campaignId);
      const status = entityStatus(o.status, "k.status");
      if (status) query = query.where(status);
      if (o.q) query = query.where(sql<boolean>`lower(${sql.ref("k.text")}) LIKE ${containsPattern(o.q)} ESCAPE '!'`);
      return query;
    },
    columns: [...KEYWORD_COLUMNS, ...metricColumnsOf("m")],
    sortExpression: (key) => metricSort(key) ?? (key === "adGroup" ? lower("g.name") : KEYWORD_SORTS[key] ? sql.ref(KEYWORD_SORTS[key]) : lower("k.text")),
    ties: [sql.ref("k.negative"), lower("k.text"), sql.ref("k.ad_group_id"), sql.ref("k.criterion_id")],
  };
  const page = await pagedRows(plan, o.sort, o.dir, o.page, o.pageSize);
  return {
    ...page,
    rows: page.rows.map(keywordRowOf),
  };
}

// ---------------------------------------------------------------- ads

export async function listAds(customerId: string, campaignId: string, range: DateRange, opts: DetailListOptions = {}): Promise<DetailList<AdRow>> {
  const cid = normalizeCustomerId(customerId);
  const o = normalized("ads", opts);
  const db = getDb();
  const sums = dailySums("ads_ad_daily", cid, range, campaignId);
  const plan: Plan = {
    filtered: () => {
      let query: AnyQuery = db
        .selectFrom("ads_ads as a")
        .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "a.customer_id").onRef("g.id", "=", "a.ad_group_id"))
        .leftJoin(sums.as("m"), (j) => j.onRef("m.ad_group_id", "=", "a.ad_group_id").onRef("m.ad_id", "=", "a.ad_id"))
        .where("a.customer_id", "=", cid)
        .where("a.campaign_id", "=", campaignId);
      const status = entityStatus(o.status, "a.status");
      if (status) query = query.where(status);
      if (o.q) {
        const pattern = containsPattern(o.q);
        query = query.where(
          sql<boolean>`(lower(${sql.ref("a.headlines")}) LIKE ${pattern} ESCAPE '!' OR lower(${sql.ref("a.descriptions")}) LIKE ${pattern} ESCAPE '!' OR lower(COALESCE(${sql.ref("a.final_urls")}, '')) LIKE ${pattern} ESCAPE '!')`,
        );
      }
      return query;
    },
    columns: [...AD_COLUMNS, ...metricColumnsOf("m")],
    sortExpression: (key) => metricSort(key) ?? (key === "status" ? sql.ref("a.status") : key === "adStrength" ? sql.ref("a.ad_strength") : lower("g.name")),
    ties: [sql.ref("a.ad_group_id"), sql.ref("a.ad_id")],
  };
  const page = await pagedRows(plan, o.sort, o.dir, o.page, o.pageSize);
  const adIds = [...new Set(page.rows.map((a) => String(a.ad_id)))];
  const assets = adIds.length
    ? await db
        .selectFrom("ads_ad_assets")
        .select(["ad_group_id", "ad_id", "field_type", "text", "performance_label"])
        .where("customer_id", "=", cid)
        .where("campaign_id", "=", campaignId)
        .where("ad_id", "in", adIds)
        .execute()
    : [];
  const adTexts = labelledAdTexts(assets);
  return {
    ...page,
    rows: page.rows.map((a) => adRowOf(a, adTexts)),
  };
}

// ---------------------------------------------------------------- search terms

const TERM_STATUS: Record<string, string[]> = {
  added: ["ADDED", "ADDED_EXCLUDED"],
  excluded: ["EXCLUDED", "ADDED_EXCLUDED"],
  none: ["NONE"],
};

export async function listSearchTerms(
  customerId: string,
  campaignId: string,
  range: DateRange,
  opts: DetailListOptions = {},
): Promise<DetailList<SearchTermRow>> {
  const cid = normalizeCustomerId(customerId);
  const o = normalized("searchterms", opts);
  const db = getDb();
  const plan: Plan = {
    filtered: () => {
      // The text filter goes inside the GROUP BY: fewer rows to sum.
      let sums: AnyQuery = inRange(
        db.selectFrom("ads_search_term_daily as t").select(["t.ad_group_id", "t.search_term", ...searchTermSums("t")]),
        "t",
        cid,
        campaignId,
        range,
      );
      if (o.q) sums = sums.where(sql<boolean>`lower(${sql.ref("t.search_term")}) LIKE ${containsPattern(o.q)} ESCAPE '!'`);
      sums = sums.groupBy(["t.ad_group_id", "t.search_term"]);
      let query: AnyQuery = db
        .selectFrom(sums.as("m"))
        .leftJoin("ads_ad_groups as g", (j) => j.on("g.customer_id", "=", cid).onRef("g.id", "=", "m.ad_group_id"));
      if (o.status && TERM_STATUS[o.status]) query = query.where("m.status", "in", TERM_STATUS[o.status]);
      return query;
    },
    columns: ["m.ad_group_id", "g.name as ad_group_name", "m.search_term", "m.status", "m.keyword_text", ...metricColumnsOf("m")],
    sortExpression: (key) =>
      metricSort(key) ??
      (key === "status" ? sql.ref("m.status") : key === "adGroup" ? lower("g.name") : key === "keyword" ? lower("m.keyword_text") : lower("m.search_term")),
    ties: [sql.ref("m.search_term"), sql.ref("m.ad_group_id")],
  };
  const page = await pagedRows(plan, o.sort, o.dir, o.page, o.pageSize);
  return {
    ...page,
    rows: page.rows.map(searchTermRowOf),
  };
}

// ---------------------------------------------------------------- the page around the tabs

export interface CampaignOverview {
  campaign: CampaignRow;
  /** Rows per tab (search terms: those with traffic in the range), for the tab labels. */
  counts: Record<DetailTab, number>;
  /** The ad groups a new keyword, negative or ad can go into (not removed), by name. */
  adGroupOptions: Array<{ id: string; name: string }>;
}

/** The campaign with its totals over the range, the tabs' sizes and the ad group choices; null when the account has no such campaign. */
export async function getCampaignOverview(customerId: string, campaignId: string, range: DateRange): Promise<CampaignOverview | null> {
  const cid = normalizeCustomerId(customerId);
  if (!/^\d{1,19}$/.test(campaignId)) return null;
  const db = getDb();
  const campaign = await db
    .selectFrom("ads_campaigns as c")
    .leftJoin(campaignDailySums(cid, range, campaignId).as("m"), "m.campaign_id", "c.id")
    .select(["c.id", "c.name", "c.status", "c.advertising_channel_type", "c.bidding_strategy_type", "c.budget_amount_micros", ...metricColumnsOf("m")])
    .where("c.customer_id", "=", cid)
    .where("c.id", "=", campaignId)
    .executeTakeFirst();
  if (!campaign) return null;
  const count = async (table: "ads_ad_groups" | "ads_keywords" | "ads_ads") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select(sql<number>`COUNT(*)`.as("n"))
          .where("customer_id", "=", cid)
          .where("campaign_id", "=", campaignId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const terms = await db
    .selectFrom(
      inRange(db.selectFrom("ads_search_term_daily as t").select("t.ad_group_id"), "t", cid, campaignId, range)
        .groupBy(["t.ad_group_id", "t.search_term"])
        .as("x"),
    )
    .select(sql<number>`COUNT(*)`.as("n"))
    .executeTakeFirst();
  const adGroupOptions = await db
    .selectFrom("ads_ad_groups")
    .select(["id", "name"])
    .where("customer_id", "=", cid)
    .where("campaign_id", "=", campaignId)
    .where("status", "!=", "REMOVED")
    .orderBy(sql`lower(name)`)
    .orderBy("id")
    .execute();
  return {
    campaign: campaignRowOf(campaign),
    counts: {
      adgroups: await count("ads_ad_groups"),
      keywords: await count("ads_keywords"),
      ads: await count("ads_ads"),
      searchterms: Number(terms?.n ?? 0),
    },
    adGroupOptions: adGroupOptions.map((g) => ({ id: g.id, name: g.name })),
  };
}

/** The open tab's page, by tab. */
export function listDetailTab(tab: DetailTab, customerId: string, campaignId: string, range: DateRange, opts: DetailListOptions) {
  switch (tab) {
    case "adgroups":
      return listAdGroups(customerId, campaignId, range, opts).then((list) => ({ tab, list }) as const);
    case "keywords":
      return listKeywords(customerId, campaignId, range, opts).then((list) => ({ tab, list }) as const);
    case "ads":
      return listAds(customerId, campaignId, range, opts).then((list) => ({ tab, list }) as const);
    case "searchterms":
      return listSearchTerms(customerId, campaignId, range, opts).then((list) => ({ tab, list }) as const);
  }
}
