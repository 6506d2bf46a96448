import { sql } from "kysely";
import type { DateRange } from "~/lib/dates";
import type { Metrics } from "~/lib/metrics";
import { containsPattern, dailySums, METRIC_COLUMNS, metricColumnsOf, metricsOf, searchTermSums, type MetricColumn } from "../ads/metric-sql.server";
import { getDb } from "../db/db.server";

// Account-wide reads the assistant needs beyond the report screens' (which
// are per campaign): keywords and search terms over all campaigns or one,
// filtered and sorted in SQL, at most `limit` rows plus whether more matched.
// Callers pass the customer id of the chat's account (from the session).

export type RowSort = "cost" | "clicks" | "conversions" | "impressions";
const SORT_COLUMN: Record<RowSort, MetricColumn> = {
  cost: "cost_micros",
  clicks: "clicks",
  conversions: "conversions",
  impressions: "impressions",
};

/** The filters the assistant's keyword and search-term reads share; at most `limit` rows. */
export interface AccountRowQuery {
  campaignId?: string;
  sort: RowSort;
  limit: number;
  minCostMicros?: number;
  nonConvertingOnly?: boolean;
  contains?: string;
  /** Keywords that can serve now (keyword, ad group and campaign enabled); search terms not excluded yet, in enabled campaigns. */
  activeOnly?: boolean;
}

export interface AccountKeyword {
  campaignId: string;
  campaignName: string;
  adGroupId: string;
  adGroupName: string;
  criterionId: string;
  text: string;
  matchType: string;
  status: string;
  cpcBidMicros: number | null;
  qualityScore: number | null;
  metrics: Metrics;
}

export async function accountKeywords(customerId: string, range: DateRange, opts: AccountRowQuery): Promise<{ rows: AccountKeyword[]; truncated: boolean }> {
  const db = getDb();
  let q = db
    .selectFrom("ads_keywords as k")
    .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "k.customer_id").onRef("g.id", "=", "k.ad_group_id"))
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "k.customer_id").onRef("c.id", "=", "k.campaign_id"))
    .leftJoin(dailySums("ads_keyword_daily", customerId, range, opts.campaignId || undefined).as("m"), (j) =>
      j.onRef("m.ad_group_id", "=", "k.ad_group_id").onRef("m.criterion_id", "=", "k.criterion_id"),
    )
    .select([
      "k.campaign_id",
      "c.name as campaign_name",
      "k.ad_group_id",
      "g.name as ad_group_name",
      "k.criterion_id",
      "k.text",
      "k.match_type",
      "k.status",
      "k.cpc_bid_micros",
      "k.quality_score",
      ...metricColumnsOf("m"),
    ])
    .where("k.customer_id", "=", customerId)
    .where("k.negative", "=", 0)
    .where("k.status", "!=", "REMOVED");
  if (opts.campaignId) q = q.where("k.campaign_id", "=", opts.campaignId);
  // A keyword paused a minute ago (the read model writes Apply's result at once) no longer spends.
  if (opts.activeOnly) q = q.where("k.status", "=", "ENABLED").where("g.status", "=", "ENABLED").where("c.status", "=", "ENABLED");
  if (opts.minCostMicros) q = q.where(sql`COALESCE(${sql.ref("m.cost_micros")}, 0)`, ">=", opts.minCostMicros);
  // Spend without conversions: a row that cost nothing wasted nothing (during the first import most cost nothing yet).
  if (opts.nonConvertingOnly) q = q.where(sql`COALESCE(${sql.ref("m.conversions")}, 0)`, "=", 0).where(sql`COALESCE(${sql.ref("m.cost_micros")}, 0)`, ">", 0);
  if (opts.contains) q = q.where(sql`lower(${sql.ref("k.text")})`, "like", sql`${containsPattern(opts.contains)} ESCAPE '!'`);
  const rows = await q
    .orderBy(sql`COALESCE(${sql.ref(`m.${SORT_COLUMN[opts.sort]}`)}, 0)`, "desc")
    .orderBy("k.criterion_id")
    .limit(opts.limit + 1)
    .execute();
  return {
    truncated: rows.length > opts.limit,
    rows: rows.slice(0, opts.limit).map((r) => ({
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      adGroupId: r.ad_group_id,
      adGroupName: r.ad_group_name,
      criterionId: r.criterion_id,
      text: r.text,
      matchType: r.match_type,
      status: r.status,
      cpcBidMicros: r.cpc_bid_micros === null ? null : Number(r.cpc_bid_micros),
      qualityScore: r.quality_score === null ? null : Number(r.quality_score),
      metrics: metricsOf(r),
    })),
  };
}

export interface AccountSearchTerm {
  campaignId: string;
  campaignName: string;
  adGroupId: string;
  searchTerm: string;
  status: string;
  keywordText: string | null;
  metrics: Metrics;
}

export async function accountSearchTerms(
  customerId: string,
  range: DateRange,
  opts: AccountRowQuery,
): Promise<{ rows: AccountSearchTerm[]; truncated: boolean }> {
  const db = getDb();
  let inner = db
    .selectFrom("ads_search_term_daily as t")
    .select(["t.campaign_id", "t.ad_group_id", "t.search_term", ...searchTermSums("t")])
    .where("t.customer_id", "=", customerId)
    .where("t.date", ">=", range.from)
    .where("t.date", "<=", range.to);
  if (opts.campaignId) inner = inner.where("t.campaign_id", "=", opts.campaignId);
  let q = db
    .selectFrom(inner.groupBy(["t.campaign_id", "t.ad_group_id", "t.search_term"]).as("m"))
    .innerJoin("ads_campaigns as c", (j) => j.on("c.customer_id", "=", customerId).onRef("c.id", "=", "m.campaign_id"))
    .select([
      "m.campaign_id",
      "c.name as campaign_name",
      "m.ad_group_id",
      "m.search_term",
      "m.status",
      "m.keyword_text",
      ...METRIC_COLUMNS.map((c) => sql.ref<number>(`m.${c}`).as(c)),
    ]);
  if (opts.activeOnly) q = q.where("m.status", "not in", ["EXCLUDED", "ADDED_EXCLUDED"]).where("c.status", "=", "ENABLED");
  if (opts.minCostMicros) q = q.where("m.cost_micros", ">=", opts.minCostMicros);
  if (opts.nonConvertingOnly) q = q.where("m.conversions", "=", 0).where("m.cost_micros", ">", 0);
  if (opts.contains) q = q.where(sql`lower(${sql.ref("m.search_term")})`, "like", sql`${containsPattern(opts.contains)} ESCAPE '!'`);
  const rows = await q
    .orderBy(sql.ref(`m.${SORT_COLUMN[opts.sort]}`), "desc")
    .orderBy("m.search_term")
    .orderBy("m.ad_group_id")
    .limit(opts.limit + 1)
    .execute();
  return {
    truncated: rows.length > opts.limit,
    rows: rows.slice(0, opts.limit).map((r) => ({
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      adGroupId: r.ad_group_id,
      searchTerm: r.search_term,
      status: r.status,
      keywordText: r.keyword_text,
      metrics: metricsOf(r),
    })),
  };
}

/** When the local copy was last refreshed from Google, or null before the first sync. */
export async function lastSyncAt(customerId: string): Promise<string | null> {
  const row = await getDb().selectFrom("ads_sync_state").select("last_success_at").where("customer_id", "=", customerId).executeTakeFirst();
  return row?.last_success_at ?? null;
}

/**
 * Keyword, ad and search-term performance is not all in: the account's first
 * sync is still importing it ("importing"), or that import failed ("failed").
 * Reads of those tables then say so instead of passing missing rows for zeros.
 */
export async function detailIncomplete(customerId: string): Promise<"importing" | "failed" | null> {
  const row = await getDb().selectFrom("ads_sync_state").select(["status", "detail_status"]).where("customer_id", "=", customerId).executeTakeFirst();
  if (row?.detail_status === "running" || (row?.detail_status === "failed" && row.status === "running")) return "importing";
  return row?.detail_status === "failed" ? "failed" : null;
}

/** What a reader of keyword or search-term figures is told while they are incomplete. */
export const INCOMPLETE_NOTE = {
  importing: "performance still importing (the account's first sync): figures incomplete",
  failed: "performance import failed (the next sync retries): figures incomplete",
} as const;

/** Average share of search impressions each campaign lost to its budget over the range (0–1), where Google reported it. */
export async function budgetLostShares(customerId: string, range: DateRange): Promise<Map<string, number>> {
  const rows = await getDb()
    .selectFrom("ads_campaign_daily")
    .select(["campaign_id", (eb) => eb.fn.avg<number>("search_budget_lost_impression_share").as("lost")])
    .where("customer_id", "=", customerId)
    .where("date", ">=", range.from)
    .where("date", "<=", range.to)
    .where("search_budget_lost_impression_share", "is not", null)
    .groupBy("campaign_id")
    .execute();
  return new Map(rows.map((r) => [r.campaign_id, Number(r.lost)]));
}

/** An open change set the assistant already proposed with this title, so asking twice does not propose twice. */
export async function openAssistantProposal(userId: string, customerId: string, title: string): Promise<string | null> {
  const row = await getDb()
    .selectFrom("change_sets")
    .select("id")
    .where("user_id", "=", userId)
    .where("customer_id", "=", customerId)
    .where("source", "=", "assistant")
    .where("title", "=", title)
    .where("status", "in", ["proposed", "validated", "invalid"])
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}
