import { randomUUID } from "node:crypto";
import { CompiledQuery, sql, type Insertable, type Transaction } from "kysely";
import { z } from "zod";
import { addDays, type DateRange } from "~/lib/date-range";
import { getConnection, ReconnectNeededError } from "../auth/google-connection.server";
import { getDb, type DB } from "../db/db.server";
import type { AdsSyncStateTable, Database } from "../db/schema";
import { adsClientFor, getAccount } from "./accounts.server";
import {
  AdsClientError,
  AdsResponseError,
  Double,
  Int64,
  Int64String,
  Micros,
  gaqlDate,
  normalizeCustomerId,
  type AdsClient,
} from "./client.server";
import { yesterdayIn } from "./dates.server";

/**
 * Copies an account's Google Ads data into the ads_* tables, so pages read the
 * database and never wait on Google. One searchStream per resource kind; every
 * row is validated and staged in memory, and the account's old rows are
 * replaced in a single transaction at the end: a sync that fails at any point
 * leaves the previous data exactly as it was.
 */

/** Days of daily metrics kept, ending yesterday in the account's time zone. */
export const SYNC_DAYS = 90;
/** The seed's cache time: data younger than this is served without a new sync. */
export const FRESH_FOR_MS = 5 * 60_000;
/** A "running" claim not refreshed for this long belongs to a sync that died (crash, restart). */
export const STALE_RUNNING_MS = 15 * 60_000;
/** After a failure, ensureFresh waits this long before trying again on its own, so page views don't hammer Google. */
export const FAILURE_COOLDOWN_MS = 60_000;

// SQLite's default SQLITE_MAX_VARIABLE_NUMBER (32,766) is the lower of the two limits (pg: 65,535).
const MAX_PARAMS_PER_STATEMENT = 32_766;

export type SyncStatus = AdsSyncStateTable["status"];

export interface SyncState {
  customerId: string;
  status: SyncStatus;
  startedAt: string | null;
  finishedAt: string | null;
  lastSuccessAt: string | null;
  /** Why the last sync failed, naming the step, e.g. "Loading keywords failed: …". Cleared by a success. */
  lastError: string | null;
  progressDone: number;
  progressTotal: number;
  /** What a running sync is doing now, e.g. "Loading keywords". */
  currentStep: string | null;
  /** The daily-metrics window of the data in the tables. */
  dataFrom: string | null;
  dataTo: string | null;
  /** Rows per table written by the last successful sync. */
  rowCounts: Record<string, number> | null;
  /** The last success is younger than FRESH_FOR_MS. */
  fresh: boolean;
}

export interface SyncOptions {
  db?: DB;
  /** Clock, for tests. */
  now?: () => Date;
  /** Defaults to a client acting as the user's Google connection. */
  client?: AdsClient;
  /** Called after every step, with the state as stored. */
  onProgress?: (state: SyncState) => void | Promise<void>;
}

/** The user cannot sync this account (not theirs, or a manager without campaigns). */
export class SyncAccessError extends Error {
  name = "SyncAccessError";
}

// ---------------------------------------------------------------------------
// Row schemas and mapping, one per stream

const DateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD");
const Enum = z.string().min(1);

const MetricsSchema = z.object({
  impressions: Int64.default(0),
  clicks: Int64.default(0),
  costMicros: Micros.default(0),
  conversions: Double.default(0),
  conversionsValue: Double.default(0),
});
const MetricsWithShare = MetricsSchema.extend({
  searchImpressionShare: Double.optional(),
  searchBudgetLostImpressionShare: Double.optional(),
  searchRankLostImpressionShare: Double.optional(),
});
const Segments = z.object({ date: DateString });
const IdOnly = z.object({ id: Int64String });

type MetricsIn = z.output<typeof MetricsSchema>;

const metricColumns = (m: MetricsIn) => ({
  impressions: m.impressions,
  clicks: m.clicks,
  cost_micros: m.costMicros,
  conversions: finiteOr(m.conversions, 0),
  conversions_value: finiteOr(m.conversionsValue, 0),
});

function finiteOr<T>(value: number | undefined, fallback: T): number | T {
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

/** "customers/1/adGroupCriteria/22~33" → "33". */
function criterionIdOf(resourceName: string | undefined): string | null {
  const m = resourceName ? /~(\d+)$/.exec(resourceName) : null;
  return m ? m[1] : null;
}

/** "2025-03-01 00:00:00" (v23+ start_date_time) or "2025-03-01" → "2025-03-01". */
function dateOf(value: string | undefined): string | null {
  const m = value ? /^(\d{4}-\d{2}-\d{2})/.exec(value) : null;
  return m ? m[1] : null;
}

const TextAsset = z.object({
  text: z.string(),
  pinnedField: Enum.optional(),
  assetPerformanceLabel: Enum.optional(),
});
const TextAssets = z.array(TextAsset).default([]);

type Tables = Database;
type StagedTable =
  | "ads_campaigns"
  | "ads_campaign_daily"
  | "ads_ad_groups"
  | "ads_ad_group_daily"
  | "ads_keywords"
  | "ads_keyword_daily"
  | "ads_campaign_negative_keywords"
  | "ads_ads"
  | "ads_ad_daily"
  | "ads_ad_assets"
  | "ads_search_term_daily";

/** Tables a sync replaces, in the order they are written. */
export const SYNCED_TABLES: readonly StagedTable[] = [
  "ads_campaigns",
  "ads_campaign_daily",
  "ads_ad_groups",
  "ads_ad_group_daily",
  "ads_keywords",
  "ads_keyword_daily",
  "ads_campaign_negative_keywords",
  "ads_ads",
  "ads_ad_daily",
  "ads_ad_assets",
  "ads_search_term_daily",
];

interface Step<S extends z.ZodType, T extends StagedTable> {
  table: T;
  /** Says what is loading, e.g. "Loading keywords". */
  label: string;
  query: (range: DateRange) => string;
  schema: S;
  toRow: (row: z.output<S>, customerId: string) => Insertable<Tables[T]>;
}

function step<S extends z.ZodType, T extends StagedTable>(s: Step<S, T>): Step<S, T> {
  return s;
}

const between = (r: DateRange) => `segments.date BETWEEN ${gaqlDate(r.from)} AND ${gaqlDate(r.to)}`;
// Resource names nobody selected would roughly double the bytes of the large daily streams.
const LEAN = "PARAMETERS omit_unselected_resource_names = true";
const METRICS = "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value";

const STEPS = [
  step({
    table: "ads_campaigns",
    label: "Loading campaigns",
    query: () =>
      `SELECT campaign.id, campaign.name, campaign.status, campaign.serving_status, campaign.primary_status,
        campaign.primary_status_reasons, campaign.advertising_channel_type, campaign.bidding_strategy_type,
        campaign.target_cpa.target_cpa_micros, campaign.maximize_conversions.target_cpa_micros,
        campaign.target_roas.target_roas, campaign.maximize_conversion_value.target_roas,
        campaign.campaign_budget, campaign.start_date_time, campaign.end_date_time,
        campaign_budget.amount_micros, campaign_budget.period, campaign_budget.explicitly_shared
      FROM campaign ${LEAN}`,
    schema: z.object({
      campaign: z.object({
        id: Int64String,
        name: z.string(),
        status: Enum,
        servingStatus: Enum.optional(),
        primaryStatus: Enum.optional(),
        primaryStatusReasons: z.array(Enum).optional(),
        advertisingChannelType: Enum,
        // Output-only and normally set; a campaign type without one must not fail the sync.
        biddingStrategyType: Enum.default("UNSPECIFIED"),
        targetCpa: z.object({ targetCpaMicros: Micros.optional() }).optional(),
        maximizeConversions: z.object({ targetCpaMicros: Micros.optional() }).optional(),
        targetRoas: z.object({ targetRoas: Double.optional() }).optional(),
        maximizeConversionValue: z.object({ targetRoas: Double.optional() }).optional(),
        campaignBudget: z.string().optional(),
        startDateTime: z.string().optional(),
        endDateTime: z.string().optional(),
      }),
      campaignBudget: z
        .object({ amountMicros: Micros.optional(), period: Enum.optional(), explicitlyShared: z.boolean().optional() })
        .optional(),
    }),
    toRow: ({ campaign: c, campaignBudget: b }, customerId) => ({
      customer_id: customerId,
      id: c.id,
      name: c.name,
      status: c.status,
      serving_status: c.servingStatus ?? null,
      primary_status: c.primaryStatus ?? null,
      primary_status_reasons: c.primaryStatusReasons?.length ? JSON.stringify(c.primaryStatusReasons) : null,
      advertising_channel_type: c.advertisingChannelType,
      bidding_strategy_type: c.biddingStrategyType,
      target_cpa_micros: c.targetCpa?.targetCpaMicros ?? c.maximizeConversions?.targetCpaMicros ?? null,
      target_roas: finiteOr(c.targetRoas?.targetRoas ?? c.maximizeConversionValue?.targetRoas, null),
      budget_resource_name: c.campaignBudget ?? null,
      budget_amount_micros: b?.amountMicros ?? null,
      budget_period: b?.period ?? null,
      budget_explicitly_shared: b?.explicitlyShared === undefined ? null : b.explicitlyShared ? 1 : 0,
      start_date: dateOf(c.startDateTime),
      end_date: dateOf(c.endDateTime),
    }),
  }),
  step({
    table: "ads_campaign_daily",
    label: "Loading campaign performance",
    query: (r) =>
      `SELECT campaign.id, segments.date, ${METRICS}, metrics.search_impression_share,
        metrics.search_budget_lost_impression_share, metrics.search_rank_lost_impression_share
      FROM campaign WHERE ${between(r)} ${LEAN}`,
    schema: z.object({ campaign: IdOnly, segments: Segments, metrics: MetricsWithShare }),
    toRow: ({ campaign, segments, metrics: m }, customerId) => ({
      customer_id: customerId,
      campaign_id: campaign.id,
      date: segments.date,
      ...metricColumns(m),
      search_impression_share: finiteOr(m.searchImpressionShare, null),
      search_budget_lost_impression_share: finiteOr(m.searchBudgetLostImpressionShare, null),
      search_rank_lost_impression_share: finiteOr(m.searchRankLostImpressionShare, null),
    }),
  }),
  step({
    table: "ads_ad_groups",
    label: "Loading ad groups",
    query: () =>
      `SELECT ad_group.id, ad_group.name, ad_group.status, ad_group.type, ad_group.cpc_bid_micros,
        ad_group.target_cpa_micros, ad_group.target_roas, campaign.id
      FROM ad_group ${LEAN}`,
    schema: z.object({
      adGroup: z.object({
        id: Int64String,
        name: z.string(),
        status: Enum,
        type: Enum.optional(),
        cpcBidMicros: Micros.optional(),
        targetCpaMicros: Micros.optional(),
        targetRoas: Double.optional(),
      }),
      campaign: IdOnly,
    }),
    toRow: ({ adGroup: g, campaign }, customerId) => ({
      customer_id: customerId,
      id: g.id,
      campaign_id: campaign.id,
      name: g.name,
      status: g.status,
      type: g.type ?? null,
      cpc_bid_micros: g.cpcBidMicros ?? null,
      target_cpa_micros: g.targetCpaMicros ?? null,
      target_roas: finiteOr(g.targetRoas, null),
    }),
  }),
  step({
    table: "ads_ad_group_daily",
    label: "Loading ad group performance",
    query: (r) => `SELECT ad_group.id, campaign.id, segments.date, ${METRICS} FROM ad_group WHERE ${between(r)} ${LEAN}`,
    schema: z.object({ adGroup: IdOnly, campaign: IdOnly, segments: Segments, metrics: MetricsSchema }),
    toRow: ({ adGroup, campaign, segments, metrics }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      campaign_id: campaign.id,
      date: segments.date,
      ...metricColumns(metrics),
    }),
  }),
  step({
    table: "ads_keywords",
    label: "Loading keywords",
    query: () =>
      `SELECT ad_group_criterion.criterion_id, ad_group.id, campaign.id, ad_group_criterion.keyword.text,
        ad_group_criterion.keyword.match_type, ad_group_criterion.status, ad_group_criterion.negative,
        ad_group_criterion.cpc_bid_micros, ad_group_criterion.effective_cpc_bid_micros,
        ad_group_criterion.quality_info.quality_score, ad_group_criterion.quality_info.creative_quality_score,
        ad_group_criterion.quality_info.post_click_quality_score, ad_group_criterion.quality_info.search_predicted_ctr,
        ad_group_criterion.system_serving_status, ad_group_criterion.approval_status
      FROM ad_group_criterion WHERE ad_group_criterion.type = KEYWORD ${LEAN}`,
    schema: z.object({
      adGroupCriterion: z.object({
        criterionId: Int64String,
        keyword: z.object({ text: z.string(), matchType: Enum }),
        status: Enum,
        negative: z.boolean().default(false),
        cpcBidMicros: Micros.optional(),
        effectiveCpcBidMicros: Micros.optional(),
        qualityInfo: z
          .object({
            qualityScore: z.number().int().optional(),
            creativeQualityScore: Enum.optional(),
            postClickQualityScore: Enum.optional(),
            searchPredictedCtr: Enum.optional(),
          })
          .optional(),
        systemServingStatus: Enum.optional(),
        approvalStatus: Enum.optional(),
      }),
      adGroup: IdOnly,
      campaign: IdOnly,
    }),
    toRow: ({ adGroupCriterion: k, adGroup, campaign }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      criterion_id: k.criterionId,
      campaign_id: campaign.id,
      text: k.keyword.text,
      match_type: k.keyword.matchType,
      status: k.status,
      negative: k.negative ? 1 : 0,
      cpc_bid_micros: k.cpcBidMicros ?? null,
      effective_cpc_bid_micros: k.effectiveCpcBidMicros ?? null,
      quality_score: k.qualityInfo?.qualityScore ?? null,
      creative_quality_score: k.qualityInfo?.creativeQualityScore ?? null,
      post_click_quality_score: k.qualityInfo?.postClickQualityScore ?? null,
      search_predicted_ctr: k.qualityInfo?.searchPredictedCtr ?? null,
      system_serving_status: k.systemServingStatus ?? null,
      approval_status: k.approvalStatus ?? null,
    }),
  }),
  step({
    table: "ads_keyword_daily",
    label: "Loading keyword performance",
    query: (r) =>
      `SELECT ad_group_criterion.criterion_id, ad_group.id, campaign.id, segments.date, ${METRICS},
        metrics.search_impression_share, metrics.search_rank_lost_impression_share
      FROM keyword_view WHERE ${between(r)} ${LEAN}`,
    schema: z.object({
      adGroupCriterion: z.object({ criterionId: Int64String }),
      adGroup: IdOnly,
      campaign: IdOnly,
      segments: Segments,
      metrics: MetricsWithShare,
    }),
    toRow: ({ adGroupCriterion, adGroup, campaign, segments, metrics: m }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      criterion_id: adGroupCriterion.criterionId,
      campaign_id: campaign.id,
      date: segments.date,
      ...metricColumns(m),
      search_impression_share: finiteOr(m.searchImpressionShare, null),
      search_rank_lost_impression_share: finiteOr(m.searchRankLostImpressionShare, null),
    }),
  }),
  step({
    table: "ads_campaign_negative_keywords",
    label: "Loading negative keywords",
    query: () =>
      `SELECT campaign_criterion.criterion_id, campaign.id, campaign_criterion.keyword.text,
        campaign_criterion.keyword.match_type, campaign_criterion.status
      FROM campaign_criterion
      WHERE campaign_criterion.type = KEYWORD AND campaign_criterion.negative = TRUE ${LEAN}`,
    schema: z.object({
      campaignCriterion: z.object({
        criterionId: Int64String,
        keyword: z.object({ text: z.string(), matchType: Enum }),
        status: Enum.optional(),
      }),
      campaign: IdOnly,
    }),
    toRow: ({ campaignCriterion: k, campaign }, customerId) => ({
      customer_id: customerId,
      campaign_id: campaign.id,
      criterion_id: k.criterionId,
      text: k.keyword.text,
      match_type: k.keyword.matchType,
      status: k.status ?? null,
    }),
  }),
  step({
    table: "ads_ads",
    label: "Loading ads",
    query: () =>
      `SELECT ad_group_ad.ad.id, ad_group.id, campaign.id, ad_group_ad.status, ad_group_ad.ad_strength,
        ad_group_ad.policy_summary.approval_status, ad_group_ad.ad.type, ad_group_ad.ad.final_urls,
        ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.responsive_search_ad.descriptions,
        ad_group_ad.ad.responsive_search_ad.path1, ad_group_ad.ad.responsive_search_ad.path2,
        ad_group_ad.ad.responsive_display_ad.headlines, ad_group_ad.ad.responsive_display_ad.descriptions
      FROM ad_group_ad ${LEAN}`,
    schema: z.object({
      adGroupAd: z.object({
        status: Enum,
        adStrength: Enum.optional(),
        policySummary: z.object({ approvalStatus: Enum.optional() }).optional(),
        ad: z.object({
          id: Int64String,
          type: Enum.optional(),
          finalUrls: z.array(z.string()).default([]),
          responsiveSearchAd: z
            .object({ headlines: TextAssets, descriptions: TextAssets, path1: z.string().optional(), path2: z.string().optional() })
            .optional(),
          responsiveDisplayAd: z.object({ headlines: TextAssets, descriptions: TextAssets }).optional(),
        }),
      }),
      adGroup: IdOnly,
      campaign: IdOnly,
    }),
    toRow: ({ adGroupAd: a, adGroup, campaign }, customerId) => {
      // Display ads have their own text assets; showing them beats showing nothing.
      const text = a.ad.responsiveSearchAd ?? a.ad.responsiveDisplayAd;
      return {
        customer_id: customerId,
        ad_group_id: adGroup.id,
        ad_id: a.ad.id,
        campaign_id: campaign.id,
        type: a.ad.type ?? null,
        status: a.status,
        ad_strength: a.adStrength ?? null,
        approval_status: a.policySummary?.approvalStatus ?? null,
        headlines: JSON.stringify(text?.headlines ?? []),
        descriptions: JSON.stringify(text?.descriptions ?? []),
        path1: a.ad.responsiveSearchAd?.path1 ?? null,
        path2: a.ad.responsiveSearchAd?.path2 ?? null,
        final_urls: JSON.stringify(a.ad.finalUrls),
      };
    },
  }),
  step({
    table: "ads_ad_daily",
    label: "Loading ad performance",
    query: (r) => `SELECT ad_group_ad.ad.id, ad_group.id, campaign.id, segments.date, ${METRICS} FROM ad_group_ad WHERE ${between(r)} ${LEAN}`,
    schema: z.object({
      adGroupAd: z.object({ ad: IdOnly }),
      adGroup: IdOnly,
      campaign: IdOnly,
      segments: Segments,
      metrics: MetricsSchema,
    }),
    toRow: ({ adGroupAd, adGroup, campaign, segments, metrics }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      ad_id: adGroupAd.ad.id,
      campaign_id: campaign.id,
      date: segments.date,
      ...metricColumns(metrics),
    }),
  }),
  step({
    table: "ads_ad_assets",
    label: "Loading ad asset performance",
    query: () =>
      `SELECT ad_group_ad_asset_view.field_type, ad_group_ad_asset_view.performance_label,
        ad_group_ad_asset_view.pinned_field, ad_group_ad_asset_view.enabled, asset.id, asset.text_asset.text,
        ad_group_ad.ad.id, ad_group.id, campaign.id
      FROM ad_group_ad_asset_view WHERE ad_group_ad_asset_view.field_type IN (HEADLINE, DESCRIPTION) ${LEAN}`,
    schema: z.object({
      adGroupAdAssetView: z.object({
        fieldType: Enum,
        performanceLabel: Enum.optional(),
        pinnedField: Enum.optional(),
        enabled: z.boolean().optional(),
      }),
      asset: z.object({ id: Int64String, textAsset: z.object({ text: z.string().optional() }).optional() }),
      adGroupAd: z.object({ ad: IdOnly }),
      adGroup: IdOnly,
      campaign: IdOnly,
    }),
    toRow: ({ adGroupAdAssetView: v, asset, adGroupAd, adGroup, campaign }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      ad_id: adGroupAd.ad.id,
      asset_id: asset.id,
      field_type: v.fieldType,
      campaign_id: campaign.id,
      text: asset.textAsset?.text ?? null,
      performance_label: v.performanceLabel ?? null,
      pinned_field: v.pinnedField ?? null,
      enabled: v.enabled === undefined ? null : v.enabled ? 1 : 0,
    }),
  }),
  step({
    table: "ads_search_term_daily",
    label: "Loading search terms",
    query: (r) =>
      `SELECT search_term_view.search_term, search_term_view.status, campaign.id, ad_group.id,
        segments.search_term_match_type, segments.keyword.ad_group_criterion, segments.keyword.info.text,
        segments.keyword.info.match_type, segments.date, ${METRICS}
      FROM search_term_view WHERE ${between(r)} ${LEAN}`,
    schema: z.object({
      searchTermView: z.object({ searchTerm: z.string(), status: Enum.default("UNKNOWN") }),
      campaign: IdOnly,
      adGroup: IdOnly,
      segments: z.object({
        date: DateString,
        searchTermMatchType: Enum.optional(),
        keyword: z
          .object({
            adGroupCriterion: z.string().optional(),
            info: z.object({ text: z.string().optional(), matchType: Enum.optional() }).optional(),
          })
          .optional(),
      }),
      metrics: MetricsSchema,
    }),
    toRow: ({ searchTermView: t, campaign, adGroup, segments: s, metrics }, customerId) => ({
      customer_id: customerId,
      campaign_id: campaign.id,
      ad_group_id: adGroup.id,
      search_term: t.searchTerm,
      status: t.status,
      match_type: s.searchTermMatchType ?? null,
      keyword_criterion_id: criterionIdOf(s.keyword?.adGroupCriterion),
      keyword_text: s.keyword?.info?.text ?? null,
      keyword_match_type: s.keyword?.info?.matchType ?? null,
      date: s.date,
      ...metricColumns(metrics),
    }),
  }),
] as const;

const SAVE_LABEL = "Saving";
/** Streams plus the final write. */
export const SYNC_STEP_COUNT = STEPS.length + 1;

// ---------------------------------------------------------------------------
// State

const iso = (d: Date) => d.toISOString();

function toState(row: AdsSyncStateTable | undefined, customerId: string, now: Date): SyncState {
  if (!row) {
    return {
      customerId,
      status: "never",
      startedAt: null,
      finishedAt: null,
      lastSuccessAt: null,
      lastError: null,
      progressDone: 0,
      progressTotal: SYNC_STEP_COUNT,
      currentStep: null,
      dataFrom: null,
      dataTo: null,
      rowCounts: null,
      fresh: false,
    };
  }
  let status = row.status;
  let lastError = row.last_error;
  let currentStep = row.current_step;
  if (status === "running" && isStale(row.heartbeat_at, now)) {
    // Nobody will finish it: say so, rather than show a progress bar forever.
    status = "failed";
    lastError = "The last sync stopped before it finished (the server may have restarted).";
    currentStep = null;
  }
  let rowCounts: Record<string, number> | null = null;
  try {
    rowCounts = row.row_counts ? (JSON.parse(row.row_counts) as Record<string, number>) : null;
  } catch {
    rowCounts = null;
  }
  return {
    customerId,
    status,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    lastSuccessAt: row.last_success_at,
    lastError,
    progressDone: row.progress_done,
    progressTotal: row.progress_total,
    currentStep,
    dataFrom: row.data_from,
    dataTo: row.data_to,
    rowCounts,
    fresh: row.last_success_at !== null && now.getTime() - Date.parse(row.last_success_at) < FRESH_FOR_MS,
  };
}

function isStale(heartbeatAt: string | null, now: Date): boolean {
  return heartbeatAt === null || now.getTime() - Date.parse(heartbeatAt) >= STALE_RUNNING_MS;
}

/** The account's sync state; status "never" when it was never synced. */
export async function getSyncState(customerId: string, db: DB = getDb(), now: Date = new Date()): Promise<SyncState> {
  const cid = normalizeCustomerId(customerId);
  const row = await db.selectFrom("ads_sync_state").selectAll().where("customer_id", "=", cid).executeTakeFirst();
  return toState(row, cid, now);
}

// ---------------------------------------------------------------------------
// Running a sync

interface Run {
  /** Settles once the run has claimed the account (or found it claimed elsewhere). */
  claimed: Promise<void>;
  done: Promise<SyncState>;
}

// One sync per account per process; other callers join it.
const inflight = new Map<string, Run>();

async function requireAccount(userId: string, customerId: string, db: DB) {
  const account = await getAccount(userId, customerId, db);
  if (!account) throw new SyncAccessError(`Account ${customerId} is not one of this user's Google Ads accounts.`);
  if (account.manager === 1) {
    throw new SyncAccessError("A manager account has no campaigns of its own; choose one of its client accounts.");
  }
  return account;
}

/**
 * Syncs the account now and resolves with the final state: status "ok", or
 * "failed" with lastError saying which step failed and why (the previous data
 * stays). A call while a sync of the same account runs in this process joins
 * it; while one runs in another process, resolves at once with its state.
 * Rejects only with SyncAccessError (the user cannot sync this account).
 */
export async function syncAccount(userId: string, customerId: string, opts: SyncOptions = {}): Promise<SyncState> {
  const db = opts.db ?? getDb();
  const cid = normalizeCustomerId(customerId);
  await requireAccount(userId, cid, db);
  return (inflight.get(cid) ?? launch(userId, cid, opts)).done;
}

/**
 * Starts a background sync when the data is older than FRESH_FOR_MS (or was
 * never synced), and returns the current state at once: a page renders what
 * the database holds and can show progress while the sync runs.
 */
export async function ensureFresh(userId: string, customerId: string, opts: SyncOptions = {}): Promise<SyncState> {
  const db = opts.db ?? getDb();
  const now = opts.now ?? (() => new Date());
  const cid = normalizeCustomerId(customerId);
  await requireAccount(userId, cid, db);
  const running = inflight.get(cid);
  if (running) {
    await running.claimed;
    return getSyncState(cid, db, now());
  }
  const state = await getSyncState(cid, db, now());
  if (state.status === "running" || state.fresh) return state;
  if (
    state.status === "failed" &&
    state.finishedAt !== null &&
    now().getTime() - Date.parse(state.finishedAt) < FAILURE_COOLDOWN_MS
  ) {
    return state;
  }
  const run = inflight.get(cid) ?? launch(userId, cid, opts);
  await run.claimed;
  return getSyncState(cid, db, now());
}

function launch(userId: string, customerId: string, opts: SyncOptions): Run {
  let markClaimed!: () => void;
  const claimed = new Promise<void>((resolve) => (markClaimed = resolve));
  const done = runSync(userId, customerId, opts, markClaimed).finally(() => {
    markClaimed();
    inflight.delete(customerId);
  });
  // A background run (ensureFresh) may have no one awaiting it.
  done.catch((error: unknown) => console.warn(`Sync of ${customerId} could not run: ${error instanceof Error ? error.message : String(error)}`));
  const run: Run = { claimed, done };
  inflight.set(customerId, run);
  return run;
}

class SupersededError extends Error {}

/** Rows of one table as value arrays in `columns` order: a fraction of the memory of objects. */
interface Staged {
  columns: string[];
  rows: unknown[][];
}

/**
 * One copy of each short string (ids, dates, enum values) per sync: JSON gives
 * every row its own copy, and daily rows repeat the same ids 90 times over.
 * Cuts the staged copy of a large account by about a third.
 */
type Interner = Map<string, string>;
const INTERN_MAX_LENGTH = 40;

/** Validates and converts one stream's rows, dropping each raw row once it is staged. */
function stageRows(target: Staged, s: Step<z.ZodType, StagedTable>, raw: unknown[], customerId: string, strings: Interner) {
  const label = s.label.replace(/^Loading /, "");
  for (let i = 0; i < raw.length; i++) {
    const result = s.schema.safeParse(raw[i]);
    if (!result.success) {
      // Same wording as parseRows: which row, which field, what was wrong.
      const issue = result.error.issues[0];
      const path = issue?.path.map(String).join(".") || "(row)";
      throw new AdsResponseError(`row ${i} of ${label} does not match the expected shape: ${path}: ${issue?.message}`);
    }
    const row = s.toRow(result.data, customerId) as Record<string, unknown>;
    if (target.columns.length === 0) target.columns = Object.keys(row);
    const values = Object.values(row);
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (typeof v === "string" && v.length <= INTERN_MAX_LENGTH) {
        const shared = strings.get(v);
        if (shared === undefined) strings.set(v, v);
        else values[c] = shared;
      }
    }
    target.rows.push(values);
    raw[i] = undefined;
  }
}

async function runSync(userId: string, customerId: string, opts: SyncOptions, markClaimed: () => void): Promise<SyncState> {
  const db = opts.db ?? getDb();
  const clock = opts.now ?? (() => new Date());
  const runId = randomUUID();
  const startedAt = iso(clock());

  // Claim the account: a conditional update is atomic on both databases, so two
  // processes can't both win, and a claim whose heartbeat stopped can be taken over.
  await db
    .insertInto("ads_sync_state")
    .values({
      customer_id: customerId,
      status: "never",
      run_id: null,
      started_at: null,
      finished_at: null,
      heartbeat_at: null,
      last_success_at: null,
      last_error: null,
      progress_done: 0,
      progress_total: SYNC_STEP_COUNT,
      current_step: null,
      data_from: null,
      data_to: null,
      row_counts: null,
      updated_at: startedAt,
    })
    .onConflict((oc) => oc.column("customer_id").doNothing())
    .execute();
  const staleBefore = iso(new Date(clock().getTime() - STALE_RUNNING_MS));
  const claim = await db
    .updateTable("ads_sync_state")
    .set({
      status: "running",
      run_id: runId,
      started_at: startedAt,
      finished_at: null,
      heartbeat_at: startedAt,
      progress_done: 0,
      progress_total: SYNC_STEP_COUNT,
      current_step: STEPS[0].label,
      updated_at: startedAt,
    })
    .where("customer_id", "=", customerId)
    .where((eb) => eb.or([eb("status", "!=", "running"), eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)]))
    .executeTakeFirst();
  markClaimed();
  if (Number(claim.numUpdatedRows) === 0) return getSyncState(customerId, db, clock());

  const update = async (values: Partial<AdsSyncStateTable>) => {
    const now = iso(clock());
    await db
      .updateTable("ads_sync_state")
      .set({ ...values, heartbeat_at: now, updated_at: now })
      .where("customer_id", "=", customerId)
      .where("run_id", "=", runId)
      .execute();
  };
  const report = async () => {
    if (opts.onProgress) await opts.onProgress(await getSyncState(customerId, db, clock()));
  };

  let currentLabel: string = STEPS[0].label;
  try {
    const account = await requireAccount(userId, customerId, db);
    const connection = await getConnection(userId, db);
    if (!connection) throw new ReconnectNeededError("Google Ads is not connected.");
    const client = opts.client ?? adsClientFor(connection);
    const loginCustomerId = account.login_customer_id ?? undefined;
    const to = yesterdayIn(account.time_zone, clock());
    const range: DateRange = { from: addDays(to, -(SYNC_DAYS - 1)), to };

    const staged = new Map<StagedTable, Staged>(SYNCED_TABLES.map((t) => [t, { columns: [], rows: [] }]));
    const strings: Interner = new Map();
    for (let i = 0; i < STEPS.length; i++) {
      const s = STEPS[i] as Step<z.ZodType, StagedTable>;
      currentLabel = s.label;
      const raw: Array<unknown> = await client.searchStream(customerId, s.query(range), { loginCustomerId });
      stageRows(staged.get(s.table)!, s, raw, customerId, strings);
      await update({ progress_done: i + 1, current_step: STEPS[i + 1]?.label ?? SAVE_LABEL });
      await report();
    }

    strings.clear();
    currentLabel = SAVE_LABEL;
    const rowCounts = Object.fromEntries(SYNCED_TABLES.map((t) => [t, staged.get(t)!.rows.length]));
    const finishedAt = iso(clock());
    await db.transaction().execute(async (trx) => {
      // Checked first, inside the transaction: a run that was declared dead and
      // replaced must not overwrite the newer run's data.
      const done = await trx
        .updateTable("ads_sync_state")
        .set({
          status: "ok",
          finished_at: finishedAt,
          heartbeat_at: finishedAt,
          last_success_at: finishedAt,
          last_error: null,
          progress_done: SYNC_STEP_COUNT,
          current_step: null,
          data_from: range.from,
          data_to: range.to,
          row_counts: JSON.stringify(rowCounts),
          updated_at: finishedAt,
        })
        .where("customer_id", "=", customerId)
        .where("run_id", "=", runId)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw new SupersededError();
      const numbered = usesNumberedParameters(trx);
      for (const table of SYNCED_TABLES) {
        await trx.deleteFrom(table).where("customer_id", "=", customerId).execute();
        const { columns, rows } = staged.get(table)!;
        await insertChunked(trx, table, columns, rows, numbered);
        // Let the staged copy go as soon as it is written: the largest accounts stage hundreds of MB.
        rows.length = 0;
      }
    });
    await refreshPlannerStatistics(db);
    const state = await getSyncState(customerId, db, clock());
    if (opts.onProgress) await opts.onProgress(state);
    return state;
  } catch (error) {
    if (error instanceof SupersededError) return getSyncState(customerId, db, clock());
    const message = `${currentLabel} failed: ${describeFailure(error)}`;
    console.warn(`Sync of ${customerId}: ${message}${error instanceof Error && !(error instanceof AdsClientError) ? ` (${error.stack ?? error.message})` : ""}`);
    const finishedAt = iso(clock());
    await update({ status: "failed", finished_at: finishedAt, last_error: message, current_step: null }).catch(() => undefined);
    const state = await getSyncState(customerId, db, clock());
    if (opts.onProgress) await opts.onProgress(state);
    return state;
  }
}

function describeFailure(error: unknown): string {
  // The detail says which row and field; without it "unexpected format" can't be acted on.
  if (error instanceof AdsResponseError) return error.message;
  if (error instanceof AdsClientError) return error.userMessage;
  if (error instanceof ReconnectNeededError || error instanceof SyncAccessError) return error.message;
  return "an internal error stopped the sync. It has been logged.";
}

/** Whether the database's parameters are $1, $2 (pg) rather than ? (SQLite), as Kysely compiles them. */
function usesNumberedParameters(db: DB | Transaction<Database>): boolean {
  return /\$1\b/.test(db.selectFrom("ads_sync_state").select("customer_id").where("customer_id", "=", "").compile().sql);
}

/**
 * PostgreSQL plans from statistics that autovacuum refreshes only a while
 * after a bulk load; until then it takes the just-loaded tables for nearly
 * empty and joins them with nested loops (measured: 2 s instead of 80 ms for a
 * 10,000-campaign list). ANALYZE samples, so it stays cheap on big tables.
 * SQLite plans these queries well without statistics, and its ANALYZE would
 * read every index in full, so it is skipped there.
 */
async function refreshPlannerStatistics(db: DB) {
  if (!usesNumberedParameters(db)) return;
  try {
    for (const table of SYNCED_TABLES) await sql.raw(`ANALYZE "${table}"`).execute(db);
  } catch (error) {
    console.warn(`ANALYZE after sync failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Multi-row INSERTs of at most MAX_PARAMS_PER_STATEMENT values. The SQL text
 * is built once per chunk size and the values are passed as a flat list:
 * Kysely's builder would create and compile a node per value, which costs
 * about as much as SQLite's own work at these volumes. The statement is plain
 * standard SQL over fixed table and column names, run through Kysely.
 */
async function insertChunked(trx: Transaction<Database>, table: StagedTable, columns: string[], rows: unknown[][], numbered: boolean) {
  if (rows.length === 0) return;
  const width = columns.length;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS_PER_STATEMENT / width));
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values `;
  const statementFor = (count: number) => {
    const tuples: string[] = [];
    for (let r = 0; r < count; r++) {
      const marks: string[] = [];
      for (let c = 0; c < width; c++) marks.push(numbered ? `$${r * width + c + 1}` : "?");
      tuples.push(`(${marks.join(", ")})`);
    }
    return head + tuples.join(", ");
  };
  const fullStatement = rows.length >= perStatement ? statementFor(perStatement) : "";
  for (let i = 0; i < rows.length; i += perStatement) {
    const count = Math.min(perStatement, rows.length - i);
    const params = new Array<unknown>(count * width);
    for (let r = 0; r < count; r++) {
      const row = rows[i + r];
      for (let c = 0; c < width; c++) params[r * width + c] = row[c];
    }
    await trx.executeQuery(CompiledQuery.raw(count === perStatement ? fullStatement : statementFor(count), params));
  }
}
