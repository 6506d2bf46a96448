import type { Insertable } from "kysely";
import { z } from "zod";
import type { DateRange } from "~/lib/dates";
import type { Database } from "../../db/schema";
import { Double, Int64, Int64String, Micros, gaqlDate } from "../client.server";
import { type CompiledPlan, type RowPlan, compilePlan, criterionIdOf, group, leaf, optGroup } from "./row-plan.server";

/**
 * What a sync reads from Google: one searchStream per table, each with the
 * row schema it must match and the mapping to the table's columns.
 */

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

/** A resource name whose last segment ends in an id ("customers/1/campaigns/2", "…/assetGroupListingGroupFilters/3~4"). */
const ResourceName = z.string().regex(/^customers\/\d+\/\w+\/[\d~]*\d$/, "expected a resource name ending in an id");
/** The id at the end of a resource name (after the last "~" of a composite one). */
function lastIdOf(resourceName: string): string {
  return resourceName.slice(Math.max(resourceName.lastIndexOf("/"), resourceName.lastIndexOf("~")) + 1);
}

type Tables = Database;
export type StagedTable =
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
  | "ads_asset_groups"
  | "ads_asset_group_assets"
  | "ads_asset_group_listing_groups"
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
  "ads_asset_groups",
  "ads_asset_group_assets",
  "ads_asset_group_listing_groups",
  "ads_search_term_daily",
];

export interface Step<S extends z.ZodType, T extends StagedTable> {
  table: T;
  /** Says what is loading, e.g. "Loading keywords". */
  label: string;
  /**
   * The GAQL, over `range` for the daily streams. `filter`, an entity stream's extra condition (a
   * refresh re-reading only what changed, e.g. "ad_group_criterion.resource_name IN (…)"), is ANDed
   * to its own.
   */
  query: (range: DateRange, filter?: string) => string;
  /** One row per entity and day over the range (the rest are entities, read without a range). */
  daily?: true;
  schema: S;
  toRow: (row: z.output<S>, customerId: string) => Insertable<Tables[T]>;
  /**
   * For the large streams: where each of `columns` comes from in Google's row
   * (row-plan.server.ts), read without zod: straight from a batch's bytes, or
   * from a parsed row. Rows the plan's readers give up on go through schema +
   * toRow, which give the same values or say what is wrong.
   */
  plan?: RowPlan;
  /** The columns the plan gives, in order (customer_id first). */
  columns?: readonly string[];
  /** The plan numbered by `columns` (step() makes it). */
  compiled?: CompiledPlan;
}

/** Daily metrics as metricColumns gives them. */
const METRIC_LEAVES = {
  impressions: leaf("impressions", "count"),
  clicks: leaf("clicks", "count"),
  costMicros: leaf("cost_micros", "micros"),
  conversions: leaf("conversions", "double0"),
  conversionsValue: leaf("conversions_value", "double0"),
};
// The plans' messages that only carry an id or the day.
const CAMPAIGN_ID = group({ id: leaf("campaign_id", "id") });
const AD_GROUP_ID = group({ id: leaf("ad_group_id", "id") });
const DAY = group({ date: leaf("date", "date") });
const METRIC_COLUMNS = ["impressions", "clicks", "cost_micros", "conversions", "conversions_value"] as const;

function step<S extends z.ZodType, T extends StagedTable>(s: Step<S, T>): Step<S, T> {
  return s.plan && s.columns ? { ...s, compiled: compilePlan(s.plan, s.columns) } : s;
}

/** A WHERE clause of the conditions given (GAQL has no OR: conditions only narrow). */
const where = (...conditions: Array<string | undefined>) => {
  const given = conditions.filter((c): c is string => !!c);
  return given.length > 0 ? `WHERE ${given.join(" AND ")}` : "";
};
const between = (r: DateRange) => `segments.date BETWEEN ${gaqlDate(r.from)} AND ${gaqlDate(r.to)}`;
// Resource names nobody selected would roughly double the bytes of the large daily streams.
const LEAN = "PARAMETERS omit_unselected_resource_names = true";
const METRICS = "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value";

export const STEPS = [
  step({
    table: "ads_campaigns",
    label: "Loading campaigns",
    query: (_range, f) =>
      `SELECT campaign.id, campaign.name, campaign.status, campaign.serving_status, campaign.primary_status,
        campaign.primary_status_reasons, campaign.advertising_channel_type, campaign.bidding_strategy_type,
        campaign.target_cpa.target_cpa_micros, campaign.maximize_conversions.target_cpa_micros,
        campaign.target_roas.target_roas, campaign.maximize_conversion_value.target_roas,
        campaign.campaign_budget, campaign.start_date_time, campaign.end_date_time,
        campaign_budget.amount_micros, campaign_budget.period, campaign_budget.explicitly_shared
      FROM campaign ${where(f)} ${LEAN}`,
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
      campaignBudget: z.object({ amountMicros: Micros.optional(), period: Enum.optional(), explicitlyShared: z.boolean().optional() }).optional(),
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
    daily: true,
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
    columns: [
      "customer_id",
      "campaign_id",
      "date",
      ...METRIC_COLUMNS,
      "search_impression_share",
      "search_budget_lost_impression_share",
      "search_rank_lost_impression_share",
    ],
    plan: {
      campaign: CAMPAIGN_ID,
      segments: DAY,
      metrics: group({
        ...METRIC_LEAVES,
        searchImpressionShare: leaf("search_impression_share", "doubleNull"),
        searchBudgetLostImpressionShare: leaf("search_budget_lost_impression_share", "doubleNull"),
        searchRankLostImpressionShare: leaf("search_rank_lost_impression_share", "doubleNull"),
      }),
    },
  }),
  step({
    table: "ads_ad_groups",
    label: "Loading ad groups",
    query: (_range, f) =>
      `SELECT ad_group.id, ad_group.name, ad_group.status, ad_group.type, ad_group.cpc_bid_micros,
        ad_group.target_cpa_micros, ad_group.target_roas, campaign.id
      FROM ad_group ${where(f)} ${LEAN}`,
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
    daily: true,
    query: (r) => `SELECT ad_group.id, campaign.id, segments.date, ${METRICS} FROM ad_group WHERE ${between(r)} ${LEAN}`,
    schema: z.object({ adGroup: IdOnly, campaign: IdOnly, segments: Segments, metrics: MetricsSchema }),
    toRow: ({ adGroup, campaign, segments, metrics }, customerId) => ({
      customer_id: customerId,
      ad_group_id: adGroup.id,
      campaign_id: campaign.id,
      date: segments.date,
      ...metricColumns(metrics),
    }),
    columns: ["customer_id", "ad_group_id", "campaign_id", "date", ...METRIC_COLUMNS],
    plan: {
      adGroup: AD_GROUP_ID,
      campaign: CAMPAIGN_ID,
      segments: DAY,
      metrics: group(METRIC_LEAVES),
    },
  }),
  step({
    table: "ads_keywords",
    label: "Loading keywords",
    query: (_range, f) =>
      `SELECT ad_group_criterion.criterion_id, ad_group.id, campaign.id, ad_group_criterion.keyword.text,
        ad_group_criterion.keyword.match_type, ad_group_criterion.status, ad_group_criterion.negative,
        ad_group_criterion.cpc_bid_micros, ad_group_criterion.effective_cpc_bid_micros,
        ad_group_criterion.quality_info.quality_score, ad_group_criterion.quality_info.creative_quality_score,
        ad_group_criterion.quality_info.post_click_quality_score, ad_group_criterion.quality_info.search_predicted_ctr,
        ad_group_criterion.system_serving_status, ad_group_criterion.approval_status
      FROM ad_group_criterion ${where("ad_group_criterion.type = KEYWORD", f)} ${LEAN}`,
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
    columns: [
      "customer_id",
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
      "approval_status",
    ],
    plan: {
      adGroupCriterion: group({
        criterionId: leaf("criterion_id", "id"),
        keyword: group({ text: leaf("text", "text"), matchType: leaf("match_type", "enum") }),
        status: leaf("status", "enum"),
        negative: leaf("negative", "flag01"),
        cpcBidMicros: leaf("cpc_bid_micros", "optMicros"),
        effectiveCpcBidMicros: leaf("effective_cpc_bid_micros", "optMicros"),
        qualityInfo: optGroup({
          qualityScore: leaf("quality_score", "optInt"),
          creativeQualityScore: leaf("creative_quality_score", "optEnum"),
          postClickQualityScore: leaf("post_click_quality_score", "optEnum"),
          searchPredictedCtr: leaf("search_predicted_ctr", "optEnum"),
        }),
        systemServingStatus: leaf("system_serving_status", "optEnum"),
        approvalStatus: leaf("approval_status", "optEnum"),
      }),
      adGroup: AD_GROUP_ID,
      campaign: CAMPAIGN_ID,
    },
  }),
  step({
    table: "ads_keyword_daily",
    label: "Loading keyword performance",
    daily: true,
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
    columns: [
      "customer_id",
      "ad_group_id",
      "criterion_id",
      "campaign_id",
      "date",
      ...METRIC_COLUMNS,
      "search_impression_share",
      "search_rank_lost_impression_share",
    ],
    plan: {
      adGroupCriterion: group({ criterionId: leaf("criterion_id", "id") }),
      adGroup: AD_GROUP_ID,
      campaign: CAMPAIGN_ID,
      segments: DAY,
      metrics: group({
        ...METRIC_LEAVES,
        searchImpressionShare: leaf("search_impression_share", "doubleNull"),
        searchRankLostImpressionShare: leaf("search_rank_lost_impression_share", "doubleNull"),
      }),
    },
  }),
  step({
    table: "ads_campaign_negative_keywords",
    label: "Loading negative keywords",
    query: (_range, f) =>
      `SELECT campaign_criterion.criterion_id, campaign.id, campaign_criterion.keyword.text,
        campaign_criterion.keyword.match_type, campaign_criterion.status
      FROM campaign_criterion
      ${where("campaign_criterion.type = KEYWORD", "campaign_criterion.negative = TRUE", f)} ${LEAN}`,
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
    query: (_range, f) =>
      `SELECT ad_group_ad.ad.id, ad_group.id, campaign.id, ad_group_ad.status, ad_group_ad.ad_strength,
        ad_group_ad.policy_summary.approval_status, ad_group_ad.ad.type, ad_group_ad.ad.final_urls,
        ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.responsive_search_ad.descriptions,
        ad_group_ad.ad.responsive_search_ad.path1, ad_group_ad.ad.responsive_search_ad.path2,
        ad_group_ad.ad.responsive_display_ad.headlines, ad_group_ad.ad.responsive_display_ad.descriptions
      FROM ad_group_ad ${where(f)} ${LEAN}`,
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
    daily: true,
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
    columns: ["customer_id", "ad_group_id", "ad_id", "campaign_id", "date", ...METRIC_COLUMNS],
    plan: {
      adGroupAd: group({ ad: group({ id: leaf("ad_id", "id") }) }),
      adGroup: AD_GROUP_ID,
      campaign: CAMPAIGN_ID,
      segments: DAY,
      metrics: group(METRIC_LEAVES),
    },
  }),
  step({
    table: "ads_ad_assets",
    label: "Loading ad asset performance",
    query: (_range, f) =>
      `SELECT ad_group_ad_asset_view.field_type, ad_group_ad_asset_view.performance_label,
        ad_group_ad_asset_view.pinned_field, ad_group_ad_asset_view.enabled, asset.id, asset.text_asset.text,
        ad_group_ad.ad.id, ad_group.id, campaign.id
      FROM ad_group_ad_asset_view ${where("ad_group_ad_asset_view.field_type IN (HEADLINE, DESCRIPTION)", f)} ${LEAN}`,
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
  // Performance Max (issue 32): asset groups with their assets and listing groups, read only. The
  // campaign comes from asset_group.campaign, a field of the group itself, on all three.
  step({
    table: "ads_asset_groups",
    label: "Loading asset groups",
    query: (_range, f) =>
      `SELECT asset_group.id, asset_group.campaign, asset_group.name, asset_group.status, asset_group.ad_strength,
        asset_group.primary_status, asset_group.final_urls
      FROM asset_group ${where(f)} ${LEAN}`,
    schema: z.object({
      assetGroup: z.object({
        id: Int64String,
        campaign: ResourceName,
        name: z.string(),
        status: Enum,
        adStrength: Enum.optional(),
        primaryStatus: Enum.optional(),
        finalUrls: z.array(z.string()).default([]),
      }),
    }),
    toRow: ({ assetGroup: g }, customerId) => ({
      customer_id: customerId,
      id: g.id,
      campaign_id: lastIdOf(g.campaign),
      name: g.name,
      status: g.status,
      ad_strength: g.adStrength ?? null,
      primary_status: g.primaryStatus ?? null,
      final_url: g.finalUrls[0] ?? null,
    }),
  }),
  step({
    table: "ads_asset_group_assets",
    label: "Loading asset group assets",
    query: (_range, f) =>
      `SELECT asset_group_asset.field_type, asset_group_asset.status, asset_group_asset.primary_status,
        asset_group_asset.primary_status_reasons, asset.id, asset.type, asset.name, asset.text_asset.text,
        asset_group.id, asset_group.campaign
      FROM asset_group_asset ${where("asset_group_asset.status != REMOVED", f)} ${LEAN}`,
    schema: z.object({
      assetGroupAsset: z.object({
        fieldType: Enum,
        status: Enum.optional(),
        primaryStatus: Enum.optional(),
        primaryStatusReasons: z.array(Enum).default([]),
      }),
      asset: z.object({ id: Int64String, type: Enum.optional(), name: z.string().optional(), textAsset: z.object({ text: z.string().optional() }).optional() }),
      assetGroup: z.object({ id: Int64String, campaign: ResourceName }),
    }),
    toRow: ({ assetGroupAsset: l, asset, assetGroup }, customerId) => ({
      customer_id: customerId,
      asset_group_id: assetGroup.id,
      asset_id: asset.id,
      field_type: l.fieldType,
      campaign_id: lastIdOf(assetGroup.campaign),
      asset_type: asset.type ?? null,
      text: asset.textAsset?.text ?? null,
      name: asset.name ?? null,
      status: l.status ?? null,
      primary_status: l.primaryStatus ?? null,
      primary_status_reasons: l.primaryStatusReasons.length ? l.primaryStatusReasons.join(",") : null,
    }),
  }),
  step({
    table: "ads_asset_group_listing_groups",
    label: "Loading listing groups",
    query: (_range, f) =>
      `SELECT asset_group_listing_group_filter.id, asset_group_listing_group_filter.type,
        asset_group_listing_group_filter.case_value.product_brand.value, asset_group_listing_group_filter.case_value.product_type.value,
        asset_group_listing_group_filter.parent_listing_group_filter, asset_group.id, asset_group.campaign
      FROM asset_group_listing_group_filter ${where(f)} ${LEAN}`,
    schema: z.object({
      assetGroupListingGroupFilter: z.object({
        id: Int64String,
        type: Enum,
        caseValue: z
          .object({
            productBrand: z.object({ value: z.string().optional() }).optional(),
            productType: z.object({ value: z.string().optional() }).optional(),
          })
          .optional(),
        parentListingGroupFilter: ResourceName.optional(),
      }),
      assetGroup: z.object({ id: Int64String, campaign: ResourceName }),
    }),
    toRow: ({ assetGroupListingGroupFilter: n, assetGroup }, customerId) => ({
      customer_id: customerId,
      asset_group_id: assetGroup.id,
      id: n.id,
      campaign_id: lastIdOf(assetGroup.campaign),
      type: n.type,
      brand: n.caseValue?.productBrand?.value ?? null,
      product_type: n.caseValue?.productType?.value ?? null,
      parent_id: n.parentListingGroupFilter ? lastIdOf(n.parentListingGroupFilter) : null,
    }),
  }),
  step({
    table: "ads_search_term_daily",
    label: "Loading search terms",
    daily: true,
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
    columns: [
      "customer_id",
      "campaign_id",
      "ad_group_id",
      "search_term",
      "status",
      "match_type",
      "keyword_criterion_id",
      "keyword_text",
      "keyword_match_type",
      "date",
      ...METRIC_COLUMNS,
    ],
    plan: {
      searchTermView: group({ searchTerm: leaf("search_term", "text"), status: leaf("status", "enumOrUnknown") }),
      campaign: CAMPAIGN_ID,
      adGroup: AD_GROUP_ID,
      segments: group({
        date: leaf("date", "date"),
        searchTermMatchType: leaf("match_type", "optEnum"),
        keyword: optGroup({
          adGroupCriterion: leaf("keyword_criterion_id", "criterionIdOf"),
          info: optGroup({ text: leaf("keyword_text", "optText"), matchType: leaf("keyword_match_type", "optEnum") }),
        }),
      }),
      metrics: group(METRIC_LEAVES),
    },
  }),
] as const;

export const SAVE_LABEL = "Saving";
/** A refresh's first step: asking Google what changed since the last one. */
export const CHANGES_LABEL = "Checking for changes";
/** Streams plus the final write. */
export const SYNC_STEP_COUNT = STEPS.length + 1;

/**
 * The three large daily tables (the demo account: about two thirds of its
 * rows). An account's first sync imports them in a second stage, right after
 * everything the dashboard and the campaign list read has been switched in
 * (ADR 013, amendment "staged first sync").
 */
export const DETAIL_TABLES: readonly StagedTable[] = ["ads_keyword_daily", "ads_ad_daily", "ads_search_term_daily"];
/** A step as the job handles it (each row is typed by its own schema inside the step). */
export type AnyStep = Step<z.ZodType, StagedTable>;
const ALL_STEPS = STEPS as readonly AnyStep[];
const isDetail = (s: AnyStep) => DETAIL_TABLES.includes(s.table);
/** A first sync's stage 1: every stream but the detail ones, in STEPS order. */
export const OVERVIEW_STEPS: readonly AnyStep[] = ALL_STEPS.filter((s) => !isDetail(s));
/** A first sync's stage 2. */
export const DETAIL_STEPS: readonly AnyStep[] = ALL_STEPS.filter(isDetail);
/** Every step, typed for the job. */
export const SYNC_STEPS = ALL_STEPS;
export const OVERVIEW_TABLES: readonly StagedTable[] = SYNCED_TABLES.filter((t) => !DETAIL_TABLES.includes(t));
/** Stage 1's streams plus its switch-over: a first sync's progress bar. */
export const OVERVIEW_STEP_COUNT = OVERVIEW_STEPS.length + 1;
/** Stage 2's streams plus its switch-over. */
export const DETAIL_STEP_COUNT = DETAIL_STEPS.length + 1;
