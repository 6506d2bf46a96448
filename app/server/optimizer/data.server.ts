import { sql } from "kysely";
import { addDays } from "~/lib/dates";
import type { DB } from "../db/db.server";
import { observedConversionLag } from "./lag.server";
import { aggregateTotals, storedTotals, totalsMarker, type Entity } from "./window-totals.server";

// What the engine reads: the account's synced tables and per-entity totals over
// a few windows, never the daily rows themselves — a 100,000-keyword account
// has ~450,000 keyword-days. The totals are the ones the sync stored with the
// data (window-totals.server.ts), or aggregated here when there are none.

/** Days at the end of the data the engine never judges: conversions keep arriving for days (research §0.5). */
export const LAG_DAYS = 3;
/** Entities whose first traffic is this recent are too young to judge. */
export const MIN_AGE_DAYS = 7;

export interface Totals {
  impressions: number;
  clicks: number;
  /** Account currency units (not micros). */
  cost: number;
  conversions: number;
  value: number;
}

export interface Windows {
  /** The last 30 / 60 days of the judged window (which ends LAG_DAYS before the data does). */
  w30: Totals;
  w60: Totals;
  /** The whole judged window. */
  all: Totals;
  /** The last 30 days of data, lag days included: what a month of impact is measured on. */
  last30: Totals;
  firstDate: string | null;
  lastDate: string | null;
}

export interface Period {
  /** First and last day of the synced data. */
  dataFrom: string;
  dataTo: string;
  /** The judged window: dataFrom … dataTo − LAG_DAYS. */
  evalTo: string;
  from30: string;
  from60: string;
  last30From: string;
  syncedAt: string | null;
}

export interface CampaignRow {
  id: string;
  name: string;
  status: string;
  channel: string;
  bidding: string;
  targetCpaMicros: number | null;
  targetRoas: number | null;
  budgetAmountMicros: number | null;
  budgetShared: boolean;
  startDate: string | null;
  primaryStatus: string | null;
  /** Google says its bidding strategy is learning (primary status LEARNING or reason BIDDING_STRATEGY_LEARNING). */
  learning: boolean;
  m: Windows;
  /** Means over the last 14 days of data (null when Google reported none). */
  searchIs: number | null;
  budgetLostIs: number | null;
  rankLostIs: number | null;
}

export interface AdGroupRow {
  id: string;
  campaignId: string;
  name: string;
  status: string;
  cpcBidMicros: number | null;
  targetCpaMicros: number | null;
  m: Windows;
}

export interface KeywordRow {
  adGroupId: string;
  criterionId: string;
  campaignId: string;
  text: string;
  matchType: string;
  status: string;
  cpcBidMicros: number | null;
  effectiveCpcBidMicros: number | null;
  qualityScore: number | null;
  creative: string | null;
  postClick: string | null;
  predictedCtr: string | null;
  servingStatus: string | null;
  m: Windows;
}

export interface NegativeRow {
  level: "ad_group" | "campaign";
  /** Ad group id or campaign id. */
  parentId: string;
  campaignId: string;
  criterionId: string;
  text: string;
  matchType: string;
}

export interface SearchTermRow {
  campaignId: string;
  adGroupId: string;
  term: string;
  status: string;
  /** The keyword that matched it most (by clicks). */
  keywordCriterionId: string | null;
  keywordText: string | null;
  m: Windows;
}

export interface AdRow {
  adGroupId: string;
  adId: string;
  campaignId: string;
  status: string;
  type: string | null;
  adStrength: string | null;
  headlines: Array<{ text: string; assetPerformanceLabel?: string }>;
  descriptions: Array<{ text: string; assetPerformanceLabel?: string }>;
  m: Windows;
}

export interface AccountData {
  customerId: string;
  currencyCode: string;
  period: Period;
  campaigns: CampaignRow[];
  adGroups: AdGroupRow[];
  keywords: KeywordRow[];
  negatives: NegativeRow[];
  searchTerms: SearchTermRow[];
  ads: AdRow[];
  /** Resource names ("customers/…/adGroupCriteria/…" or "…/adGroups/…") whose bid or own target CPA changed recently, with when. */
  recentBidChanges: Map<string, string>;
  /** Days at the end of the data whose conversions have visibly not arrived yet (lag.server.ts); 0 when none. */
  conversionLagDays: number;
  /** User-set targets for the account (/settings), if any. */
  accountTargets: { cpaMicros: number | null; roas: number | null };
}

// The engine's date arithmetic is the app's (lib/dates.ts); re-exported for the rules.
export { addDays };

export function makePeriod(dataFrom: string, dataTo: string, syncedAt: string | null): Period {
  const evalTo = addDays(dataTo, -LAG_DAYS);
  const clamp = (d: string) => (d < dataFrom ? dataFrom : d);
  return {
    dataFrom,
    dataTo,
    evalTo,
    from30: clamp(addDays(evalTo, -29)),
    from60: clamp(addDays(evalTo, -59)),
    last30From: clamp(addDays(dataTo, -29)),
    syncedAt,
  };
}

type Agg = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

function windowsOf(r: Agg): Windows {
  const t = (w: string): Totals => ({
    impressions: num(r[`${w}_impressions`]),
    clicks: num(r[`${w}_clicks`]),
    cost: num(r[`${w}_cost_micros`]) / 1e6,
    conversions: num(r[`${w}_conversions`]),
    value: num(r[`${w}_conversions_value`]),
  });
  return {
    w30: t("w30"),
    w60: t("w60"),
    all: t("all"),
    last30: t("l30"),
    firstDate: (r.first_date as string | null) ?? null,
    lastDate: (r.last_date as string | null) ?? null,
  };
}

export const EMPTY_TOTALS: Totals = { impressions: 0, clicks: 0, cost: 0, conversions: 0, value: 0 };
export const EMPTY_WINDOWS: Windows = { w30: EMPTY_TOTALS, w60: EMPTY_TOTALS, all: EMPTY_TOTALS, last30: EMPTY_TOTALS, firstDate: null, lastDate: null };

export function addTotals(a: Totals, b: Totals): Totals {
  return {
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    cost: a.cost + b.cost,
    conversions: a.conversions + b.conversions,
    value: a.value + b.value,
  };
}

function addWindows(a: Windows, b: Windows): Windows {
  const min = (x: string | null, y: string | null) => (x === null ? y : y === null ? x : x < y ? x : y);
  const max = (x: string | null, y: string | null) => (x === null ? y : y === null ? x : x > y ? x : y);
  return {
    w30: addTotals(a.w30, b.w30),
    w60: addTotals(a.w60, b.w60),
    all: addTotals(a.all, b.all),
    last30: addTotals(a.last30, b.last30),
    firstDate: min(a.firstDate, b.firstDate),
    lastDate: max(a.lastDate, b.lastDate),
  };
}

function parseAssets(json: string): Array<{ text: string; assetPerformanceLabel?: string }> {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as Array<{ text: string; assetPerformanceLabel?: string }>) : [];
  } catch {
    return [];
  }
}

/** Null when the account was never synced. */
export async function loadAccountData(db: DB, customerId: string, currencyCode: string, now: Date = new Date()): Promise<AccountData | null> {
  const state = await db.selectFrom("ads_sync_state").selectAll().where("customer_id", "=", customerId).executeTakeFirst();
  if (!state?.data_from || !state.data_to) return null;
  // A first sync's detail import still running or failed (ADR 013, staged first sync): without keyword,
  // ad and search-term performance every keyword would look idle. The engine waits for the full data.
  if (state.detail_status === "running" || state.detail_status === "failed") return null;
  const period = makePeriod(state.data_from, state.data_to, state.last_success_at);
  // Totals stored by the sync for exactly this data window, else the same aggregation run now.
  const stored = state.window_totals_for === totalsMarker(period);
  const totals = (entity: Entity) => (stored ? storedTotals(db, entity, customerId) : aggregateTotals(db, entity, customerId, period));

  const [campaigns, campaignAgg, isAgg, adGroups, adGroupAgg, keywords, keywordAgg, campaignNegatives, termAgg, ads, adAgg, targets] = await Promise.all([
    db.selectFrom("ads_campaigns").selectAll().where("customer_id", "=", customerId).execute(),
    totals("campaign"),
    db
      .selectFrom("ads_campaign_daily")
      .select([
        "campaign_id",
        sql<number | null>`AVG(search_impression_share)`.as("is"),
        sql<number | null>`AVG(search_budget_lost_impression_share)`.as("blis"),
        sql<number | null>`AVG(search_rank_lost_impression_share)`.as("rlis"),
      ])
      .where("customer_id", "=", customerId)
      .where("date", ">=", addDays(period.dataTo, -13))
      .groupBy("campaign_id")
      .execute(),
    db.selectFrom("ads_ad_groups").selectAll().where("customer_id", "=", customerId).execute(),
    totals("ad_group"),
    // 100,000 rows on a big account: only the columns the rules read.
    db
      .selectFrom("ads_keywords")
      .select([
        "ad_group_id",
        "criterion_id",
        "campaign_id",
        "text",
        "match_type",
        "status",
        "negative",
        "cpc_bid_micros",
        "effective_cpc_bid_micros",
        "quality_score",
        "creative_quality_score",
        "post_click_quality_score",
        "search_predicted_ctr",
        "system_serving_status",
      ])
      .where("customer_id", "=", customerId)
      .execute(),
    totals("keyword"),
    db.selectFrom("ads_campaign_negative_keywords").selectAll().where("customer_id", "=", customerId).execute(),
    totals("search_term"),
    db.selectFrom("ads_ads").selectAll().where("customer_id", "=", customerId).execute(),
    totals("ad"),
    db.selectFrom("account_targets").selectAll().where("customer_id", "=", customerId).executeTakeFirst(),
  ]);

  const campaignM = new Map(campaignAgg.map((r) => [r.campaign_id!, windowsOf(r)]));
  const isM = new Map(isAgg.map((r) => [r.campaign_id, r]));
  const agM = new Map(adGroupAgg.map((r) => [r.ad_group_id!, windowsOf(r)]));
  const kwM = new Map(keywordAgg.map((r) => [`${r.ad_group_id}~${r.item_id}`, windowsOf(r)]));
  const adM = new Map(adAgg.map((r) => [`${r.ad_group_id}~${r.item_id}`, windowsOf(r)]));
  const nullable = (v: unknown) => (v === null || v === undefined ? null : Number(v));

  const terms = new Map<string, SearchTermRow & { topClicks: number }>();
  for (const r of termAgg) {
    const key = `${r.campaign_id}|${r.ad_group_id}|${r.item_id}`;
    const m = windowsOf(r);
    const prev = terms.get(key);
    if (!prev) {
      terms.set(key, {
        campaignId: r.campaign_id!,
        adGroupId: r.ad_group_id!,
        term: r.item_id!,
        status: r.status!,
        keywordCriterionId: r.keyword_criterion_id ?? null,
        keywordText: r.keyword_text ?? null,
        m,
        topClicks: m.all.clicks,
      });
      continue;
    }
    prev.m = addWindows(prev.m, m);
    // A term the advertiser acted on stays acted on, whichever row says so.
    if (prev.status === "NONE" && r.status !== "NONE") prev.status = r.status!;
    if (m.all.clicks > prev.topClicks) {
      prev.topClicks = m.all.clicks;
      prev.keywordCriterionId = r.keyword_criterion_id ?? null;
      prev.keywordText = r.keyword_text ?? null;
    }
  }

  const recentBidChanges = await loadRecentBidChanges(db, customerId, now);
  const accountDays = await db
    .selectFrom("ads_campaign_daily")
    .select(["date", sql<number>`SUM(clicks)`.as("clicks"), sql<number>`SUM(conversions)`.as("conversions")])
    .where("customer_id", "=", customerId)
    .where("date", ">=", addDays(period.dataTo, -89))
    .groupBy("date")
    .execute();
  const conversionLagDays = observedConversionLag(
    accountDays.map((d) => ({ date: d.date, clicks: Number(d.clicks ?? 0), conversions: Number(d.conversions ?? 0) })),
    period.dataTo,
  );

  return {
    customerId,
    currencyCode,
    period,
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      channel: c.advertising_channel_type,
      bidding: c.bidding_strategy_type,
      targetCpaMicros: nullable(c.target_cpa_micros),
      targetRoas: nullable(c.target_roas),
      budgetAmountMicros: nullable(c.budget_amount_micros),
      budgetShared: c.budget_explicitly_shared === 1,
      startDate: c.start_date,
      primaryStatus: c.primary_status,
      learning: c.primary_status === "LEARNING" || (c.primary_status_reasons ?? "").includes("BIDDING_STRATEGY_LEARNING"),
      m: campaignM.get(c.id) ?? EMPTY_WINDOWS,
      searchIs: nullable(isM.get(c.id)?.is),
      budgetLostIs: nullable(isM.get(c.id)?.blis),
      rankLostIs: nullable(isM.get(c.id)?.rlis),
    })),
    adGroups: adGroups.map((g) => ({
      id: g.id,
      campaignId: g.campaign_id,
      name: g.name,
      status: g.status,
      cpcBidMicros: nullable(g.cpc_bid_micros),
      targetCpaMicros: nullable(g.target_cpa_micros),
      m: agM.get(g.id) ?? EMPTY_WINDOWS,
    })),
    keywords: keywords
      .filter((k) => k.negative !== 1)
      .map((k) => ({
        adGroupId: k.ad_group_id,
        criterionId: k.criterion_id,
        campaignId: k.campaign_id,
        text: k.text,
        matchType: k.match_type,
        status: k.status,
        cpcBidMicros: nullable(k.cpc_bid_micros),
        effectiveCpcBidMicros: nullable(k.effective_cpc_bid_micros),
        qualityScore: nullable(k.quality_score),
        creative: k.creative_quality_score,
        postClick: k.post_click_quality_score,
        predictedCtr: k.search_predicted_ctr,
        servingStatus: k.system_serving_status,
        m: kwM.get(`${k.ad_group_id}~${k.criterion_id}`) ?? EMPTY_WINDOWS,
      })),
    negatives: [
      ...keywords
        .filter((k) => k.negative === 1 && k.status !== "REMOVED")
        .map((k): NegativeRow => ({
          level: "ad_group",
          parentId: k.ad_group_id,
          campaignId: k.campaign_id,
          criterionId: k.criterion_id,
          text: k.text,
          matchType: k.match_type,
        })),
      ...campaignNegatives
        .filter((n) => n.status !== "REMOVED")
        .map((n): NegativeRow => ({
          level: "campaign",
          parentId: n.campaign_id,
          campaignId: n.campaign_id,
          criterionId: n.criterion_id,
          text: n.text,
          matchType: n.match_type,
        })),
    ],
    searchTerms: [...terms.values()].map(({ topClicks: _drop, ...t }) => t),
    ads: ads.map((a) => ({
      adGroupId: a.ad_group_id,
      adId: a.ad_id,
      campaignId: a.campaign_id,
      status: a.status,
      type: a.type,
      adStrength: a.ad_strength,
      headlines: parseAssets(a.headlines),
      descriptions: parseAssets(a.descriptions),
      m: adM.get(`${a.ad_group_id}~${a.ad_id}`) ?? EMPTY_WINDOWS,
    })),
    recentBidChanges,
    conversionLagDays,
    accountTargets: { cpaMicros: nullable(targets?.target_cpa_micros), roas: nullable(targets?.target_roas) },
  };
}

/** Days a bid must rest after a change before the engine moves it again (research K1). */
export const BID_REST_DAYS = 14;

/**
 * Bid changes in the last BID_REST_DAYS, from our own applied change sets and
 * from Google's change history (changes made elsewhere), by resource name.
 */
async function loadRecentBidChanges(db: DB, customerId: string, now: Date): Promise<Map<string, string>> {
  const since = new Date(now.getTime() - BID_REST_DAYS * 86_400_000).toISOString();
  const out = new Map<string, string>();
  const ours = await db
    .selectFrom("changes")
    .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
    .select(["changes.resource_name", "changes.applied_at", "changes.after_json"])
    .where("change_sets.customer_id", "=", customerId)
    .where("changes.status", "=", "applied")
    .where("changes.applied_at", ">=", since)
    .execute();
  for (const r of ours) {
    // Bids and an ad group's own target CPA both rest after a change.
    if (r.resource_name && r.applied_at && /cpcBidMicros|targetCpaMicros/.test(r.after_json ?? "")) out.set(r.resource_name, r.applied_at);
  }
  const outside = await db
    .selectFrom("history_imports")
    .select(["resource_name", "changed_at", "changed_fields", "operation"])
    .where("customer_id", "=", customerId)
    .where("changed_at", ">=", since)
    .execute();
  for (const r of outside) {
    if (/cpc_?bid_?micros|target_?cpa_?micros/i.test(r.changed_fields ?? "") || r.operation === "CREATE") {
      const prev = out.get(r.resource_name);
      if (!prev || prev < r.changed_at) out.set(r.resource_name, r.changed_at);
    }
  }
  return out;
}
