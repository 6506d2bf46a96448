// How each GAQL resource maps onto the store: row counts, field getters,
// resource names, the joins from a FROM resource to its attributed resources,
// and where its metrics come from.
//
// Attributed resources and metric availability follow Google's field
// reference ("Attributed resources" tables and "Resources with metrics"):
//   customer            → customer
//   customer_client     → customer
//   campaign            → campaign_budget, customer (bidding_strategy etc. not emulated)
//   campaign_budget     → customer
//   ad_group            → campaign, customer        (NOT campaign_budget: Google rejects
//                          SELECT campaign_budget.* FROM ad_group with
//                          PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE)
//   ad_group_criterion  → ad_group, campaign, customer           (no metrics)
//   keyword_view        → ad_group_criterion, ad_group, campaign, customer
//   ad_group_ad         → ad_group, campaign, customer
//   ad_group_ad_asset_view → ad_group_ad, ad_group, asset, campaign, customer
//   asset               → customer                                (no metrics)
//   search_term_view    → ad_group, campaign, customer
//   campaign_search_term_view → campaign, customer
//   campaign_criterion  → campaign, customer                      (no metrics)
//   change_event        → ad_group, campaign, customer            (no metrics; Google also
//                          attributes asset and feed, which the emulator's events don't carry)
//   asset_group         → campaign, customer                      (Google has metrics here; the emulator
//                          models none, so it answers them as a resource without metrics)
//   asset_group_asset   → asset, asset_group, campaign, customer  (no metrics modelled)
//   asset_group_listing_group_filter → asset_group, campaign, customer (no metrics)
//   change_status       → ad_group, campaign, customer            (no metrics; one row per changed
//                          resource: its latest change_event, see changeStatusRows)

import type { Account, AdsStore } from "../store/store";
import { MATCH_TYPE_VALUES, SEARCH_TERM_MATCH_VALUES, SEARCH_TERM_STATUS_VALUES, STATUS_VALUES, QUALITY_BUCKET_VALUES } from "../store/columns";
import type { FactTable } from "../store/facts";

/** Raw value of a field for row i (int64 as number); undefined = unset. */
export type Getter = (i: number) => unknown;

export interface ResourceAccessor {
  count: number;
  resourceName: (i: number) => string;
  /** Getter for a camelCase path inside the resource (e.g. "keyword.text"). */
  field: (path: string) => Getter;
}

function walk(obj: unknown, parts: readonly string[]): unknown {
  let cur = obj;
  for (const p of parts) {
    if (cur === null || cur === undefined || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function objectAccessor<T extends { data: object }>(rows: readonly T[], overrides: Record<string, Getter> = {}): ResourceAccessor {
  return {
    count: rows.length,
    resourceName: (i) => (rows[i].data as { resourceName: string }).resourceName,
    field: (path) => {
      const o = overrides[path];
      if (o) return o;
      const parts = path.split(".");
      return (i) => walk(rows[i].data, parts);
    },
  };
}

export interface CustomerClientRow {
  customerId: string;
  level: number;
  data: Record<string, unknown>;
}

/** One change_status row: the latest change of one resource, from the account's change_event journal. */
export interface ChangeStatusRow {
  data: Record<string, unknown>;
  campaignIdx: number;
  adGroupIdx: number;
}

/** ChangeEvent.changeResourceType → the ChangeStatus field that names the resource. */
const CHANGE_STATUS_FIELD: Record<string, string> = {
  CAMPAIGN: "campaign",
  CAMPAIGN_BUDGET: "campaignBudget",
  AD_GROUP: "adGroup",
  AD_GROUP_AD: "adGroupAd",
  AD_GROUP_CRITERION: "adGroupCriterion",
  CAMPAIGN_CRITERION: "campaignCriterion",
  ASSET: "asset",
};

/**
 * change_status as Google describes it: the most recent change per resource, with
 * resource_status ADDED (created within the journal), REMOVED (its latest change
 * removed it) or CHANGED. Built from the same journal change_event reads, so the
 * two always agree.
 */
export function changeStatusRows(acct: Account): ChangeStatusRow[] {
  const latest = new Map<string, { last: number; created: boolean }>();
  const events = acct.changeEvents;
  for (let i = 0; i < events.length; i++) {
    const e = events[i].data;
    const seen = latest.get(e.changeResourceName);
    const created = (seen?.created ?? false) || e.resourceChangeOperation === "CREATE";
    // Events are appended in time order; equal times keep the later one.
    if (!seen || events[i].timestampMicros >= events[seen.last].timestampMicros) latest.set(e.changeResourceName, { last: i, created });
    else seen.created = created;
  }
  const rows: ChangeStatusRow[] = [];
  for (const [name, { last, created }] of latest) {
    const ev = events[last];
    const e = ev.data;
    const field = CHANGE_STATUS_FIELD[e.changeResourceType];
    const status = e.resourceChangeOperation === "REMOVE" ? "REMOVED" : created ? "ADDED" : "CHANGED";
    const data: Record<string, unknown> = {
      resourceName: `customers/${acct.customerId}/changeStatus/${ev.timestampMicros}~${rows.length}`,
      lastChangeDateTime: e.changeDateTime,
      resourceType: field ? e.changeResourceType : "UNKNOWN",
      resourceStatus: status,
      ...(e.campaign ? { campaign: e.campaign } : {}),
      ...(e.adGroup ? { adGroup: e.adGroup } : {}),
    };
    if (field) data[field] = name;
    rows.push({ data, campaignIdx: ev.campaignIdx, adGroupIdx: ev.adGroupIdx });
  }
  return rows;
}

export interface CampaignTermGroup {
  campaignIdx: number;
  text: string;
  terms: number[];
}

/** Per-query view of one account, with lazily built derived tables. */
export class AccountContext {
  private accessors = new Map<string, ResourceAccessor>();
  private clientRows?: CustomerClientRow[];
  private termGroups?: CampaignTermGroup[];
  private statusRows?: ChangeStatusRow[];

  constructor(
    readonly store: AdsStore,
    readonly acct: Account,
  ) {}

  get customerId(): string {
    return this.acct.customerId;
  }

  customerClients(): CustomerClientRow[] {
    if (this.clientRows) return this.clientRows;
    const self = this.acct.customerId;
    const rows: CustomerClientRow[] = [{ customerId: self, level: 0, data: {} }, ...this.store.descendants(self).map((d) => ({ ...d, data: {} }))];
    for (const r of rows) {
      const c = this.store.account(r.customerId)?.customer;
      if (!c) continue;
      r.data = {
        resourceName: `customers/${self}/customerClients/${r.customerId}`,
        clientCustomer: `customers/${r.customerId}`,
        level: r.level,
        manager: c.manager,
        descriptiveName: c.descriptiveName,
        currencyCode: c.currencyCode,
        timeZone: c.timeZone,
        id: c.id,
        status: c.status,
        testAccount: c.testAccount,
        hidden: false,
      };
    }
    this.clientRows = rows;
    return rows;
  }

  /** campaign_search_term_view rows: search terms grouped by (campaign, text), across ad groups. */
  campaignTermGroups(): CampaignTermGroup[] {
    if (this.termGroups) return this.termGroups;
    const st = this.acct.searchTerms;
    const byKey = new Map<string, CampaignTermGroup>();
    const out: CampaignTermGroup[] = [];
    for (let i = 0; i < st.count; i++) {
      const key = `${st.campaignIdx[i]}\u0000${st.text[i]}`;
      let g = byKey.get(key);
      if (!g) {
        g = { campaignIdx: st.campaignIdx[i], text: st.text[i], terms: [] };
        byKey.set(key, g);
        out.push(g);
      }
      g.terms.push(i);
    }
    this.termGroups = out;
    return out;
  }

  changeStatus(): ChangeStatusRow[] {
    return (this.statusRows ??= changeStatusRows(this.acct));
  }

  /** Ad-group-level search terms only (Performance Max terms have no ad group). */
  adGroupTermIndices(): Int32Array {
    const st = this.acct.searchTerms;
    const out: number[] = [];
    for (let i = 0; i < st.count; i++) if (st.adGroupIdx[i] >= 0) out.push(i);
    return Int32Array.from(out);
  }

  accessor(resource: string): ResourceAccessor | undefined {
    const hit = this.accessors.get(resource);
    if (hit) return hit;
    const made = this.makeAccessor(resource);
    if (made) this.accessors.set(resource, made);
    return made;
  }

  private makeAccessor(resource: string): ResourceAccessor | undefined {
    const acct = this.acct;
    const cid = acct.customerId;
    switch (resource) {
      case "customer":
        return objectAccessor([{ data: acct.customer }]);
      case "customer_client":
        return objectAccessor(this.customerClients());
      case "campaign":
        return objectAccessor(acct.campaigns);
      case "campaign_budget":
        return objectAccessor(acct.budgets, {
          // Derived rather than stored so mutations can't let it drift.
          referenceCount: (i) => acct.campaigns.reduce((n, c) => n + (c.budgetIdx === i && c.data.status !== "REMOVED" ? 1 : 0), 0),
        });
      case "ad_group":
        return objectAccessor(acct.adGroups);
      case "ad_group_ad":
        return objectAccessor(acct.ads);
      case "asset":
        return objectAccessor(acct.assets);
      case "ad_group_ad_asset_view":
        return objectAccessor(acct.adAssetLinks);
      case "campaign_criterion":
        return objectAccessor(acct.campaignCriteria);
      case "asset_group":
        return objectAccessor(acct.assetGroups);
      case "asset_group_asset":
        return objectAccessor(acct.assetGroupAssets);
      case "asset_group_listing_group_filter":
        return objectAccessor(acct.listingGroupFilters);
      case "change_event":
        return objectAccessor(acct.changeEvents);
      case "change_status":
        return objectAccessor(this.changeStatus());
      case "ad_group_criterion": {
        const kw = acct.keywords;
        const ag = acct.adGroups;
        const fast: Record<string, Getter> = {
          criterionId: (i) => kw.criterionId[i],
          adGroup: (i) => ag[kw.adGroupIdx[i]].data.resourceName,
          status: (i) => STATUS_VALUES[kw.status[i]],
          type: () => "KEYWORD",
          negative: (i) => kw.negative[i] === 1,
          "keyword.text": (i) => kw.text[i],
          "keyword.matchType": (i) => MATCH_TYPE_VALUES[kw.matchType[i]],
          cpcBidMicros: (i) => (kw.negative[i] || Number.isNaN(kw.cpcBid[i]) ? undefined : kw.cpcBid[i]),
          effectiveCpcBidMicros: (i) => (kw.negative[i] ? undefined : acct.effectiveCpcBid(i)),
          "qualityInfo.qualityScore": (i) => (kw.qualityScore[i] > 0 ? kw.qualityScore[i] : undefined),
          "qualityInfo.creativeQualityScore": (i) => (kw.qualityScore[i] > 0 ? QUALITY_BUCKET_VALUES[kw.creative[i]] : undefined),
          "qualityInfo.postClickQualityScore": (i) => (kw.qualityScore[i] > 0 ? QUALITY_BUCKET_VALUES[kw.postClick[i]] : undefined),
          "qualityInfo.searchPredictedCtr": (i) => (kw.qualityScore[i] > 0 ? QUALITY_BUCKET_VALUES[kw.predictedCtr[i]] : undefined),
          systemServingStatus: (i) => (kw.serving[i] === 1 ? "RARELY_SERVED" : "ELIGIBLE"),
          approvalStatus: () => "APPROVED",
        };
        return {
          count: kw.count,
          resourceName: (i) => acct.keywordResourceName(i),
          field: (path) => fast[path] ?? ((i) => walk(acct.keywordData(i), path.split("."))),
        };
      }
      case "keyword_view":
        return {
          count: acct.keywords.count,
          resourceName: (i) => `customers/${cid}/keywordViews/${acct.adGroups[acct.keywords.adGroupIdx[i]].data.id}~${acct.keywords.criterionId[i]}`,
          field: () => () => undefined,
        };
      case "search_term_view": {
        const st = acct.searchTerms;
        const fields: Record<string, Getter> = {
          searchTerm: (i) => st.text[i],
          status: (i) => SEARCH_TERM_STATUS_VALUES[st.status[i]],
          adGroup: (i) => (st.adGroupIdx[i] >= 0 ? acct.adGroups[st.adGroupIdx[i]].data.resourceName : undefined),
        };
        return {
          count: st.count,
          resourceName: (i) =>
            `customers/${cid}/searchTermViews/${acct.campaigns[st.campaignIdx[i]].data.id}~${acct.adGroups[st.adGroupIdx[i]]?.data.id}~${Buffer.from(st.text[i], "utf8").toString("base64url")}`,
          field: (path) => fields[path] ?? (() => undefined),
        };
      }
      case "campaign_search_term_view": {
        const groups = this.campaignTermGroups();
        const fields: Record<string, Getter> = {
          searchTerm: (i) => groups[i].text,
          campaign: (i) => acct.campaigns[groups[i].campaignIdx].data.resourceName,
        };
        return {
          count: groups.length,
          resourceName: (i) =>
            `customers/${cid}/campaignSearchTermViews/${acct.campaigns[groups[i].campaignIdx].data.id}~${Buffer.from(groups[i].text, "utf8").toString("base64url")}`,
          field: (path) => fields[path] ?? (() => undefined),
        };
      }
      default:
        return undefined;
    }
  }
}

/** One stream of daily facts feeding a view row (a view may sum several, e.g. keywords + display). */
export interface FactPart {
  table: FactTable;
  /** The view row is the fact-table entity itself (sources(i) = [i]); lets scans skip allocation. */
  identity?: boolean;
  /** Fact-table entities behind view row i. */
  sources: (i: number) => ArrayLike<number>;
  /** Campaign of a fact-table entity: device mix, network type, impression-share rates. */
  campaignOf: (source: number) => number;
  /** "stored": the table has eligible/lost columns; "keyword": derive from campaign daily rates. */
  impressionShare: "stored" | "keyword" | "none";
  /** Quality score of a fact-table entity (keyword-level impression share). */
  qualityScore?: (source: number) => number;
  /** Ads: split every fact row across the sibling ads by traffic weight and keep part `index`. */
  split?: (i: number) => { weights: Float64Array; index: number };
  /** Multiplier applied after the split (asset views report the asset's share of the ad). */
  share?: (i: number) => number;
  /**
   * Sum the sources per day first (keyed by this, e.g. the ad group) and split the
   * daily sums: ads then add up to their ad group exactly, at a fraction of the cost.
   */
  rollupKey?: (i: number) => number;
}

export const DATE_SEGMENTS = [
  "segments.date",
  "segments.week",
  "segments.month",
  "segments.quarter",
  "segments.year",
  "segments.day_of_week",
  "segments.month_of_year",
] as const;
export const CORE_DATE_SEGMENTS = new Set(["segments.date", "segments.week", "segments.month", "segments.quarter", "segments.year"]);
const COMMON_SEGMENTS = [...DATE_SEGMENTS, "segments.device", "segments.ad_network_type"];
const TERM_SEGMENTS = [
  "segments.search_term_match_type",
  "segments.keyword.info.text",
  "segments.keyword.info.match_type",
  "segments.keyword.ad_group_criterion",
];

const BASE_METRICS = [
  "metrics.impressions",
  "metrics.clicks",
  "metrics.cost_micros",
  "metrics.conversions",
  "metrics.conversions_value",
  "metrics.all_conversions",
  "metrics.all_conversions_value",
  "metrics.ctr",
  "metrics.average_cpc",
  "metrics.average_cpm",
  "metrics.average_cost",
  "metrics.cost_per_conversion",
  "metrics.cost_per_all_conversions",
  "metrics.conversions_from_interactions_rate",
  "metrics.all_conversions_from_interactions_rate",
  "metrics.value_per_conversion",
  "metrics.value_per_all_conversions",
  "metrics.conversions_value_per_cost",
  "metrics.all_conversions_value_per_cost",
  "metrics.interactions",
  "metrics.interaction_rate",
];
export const IMPRESSION_SHARE_METRICS = [
  "metrics.search_impression_share",
  "metrics.search_budget_lost_impression_share",
  "metrics.search_rank_lost_impression_share",
];
export const KEYWORD_ONLY_METRICS = [
  "metrics.historical_quality_score",
  "metrics.historical_creative_quality_score",
  "metrics.historical_landing_page_quality_score",
  "metrics.historical_search_predicted_ctr",
];
/** Metrics the emulator computes; other catalogue metrics are accepted where metrics are and come back unset. */
export const MODELED_METRICS = new Set([...BASE_METRICS, ...IMPRESSION_SHARE_METRICS, ...KEYWORD_ONLY_METRICS]);

export interface ViewDef {
  resource: string;
  /** Resources whose fields may be selected, with the join from a view row to that resource's row (-1 = none). */
  joins: Record<string, (i: number) => number>;
  /** Allowed modelled metrics; null = the resource has no metrics at all. */
  metrics: Set<string> | null;
  segments: Set<string>;
  facts?: FactPart[];
  /** Rows exist only where there is traffic (stats views such as search_term_view). */
  statsOnly?: boolean;
  /** View rows to scan (defaults to 0..count-1 of the FROM accessor). */
  rows?: () => ArrayLike<number>;
  /** Segments that are attributes of the view row itself (one value per row). */
  rowSegments?: Record<string, Getter>;
}

export const VIEW_RESOURCES = [
  "customer",
  "customer_client",
  "campaign",
  "campaign_budget",
  "ad_group",
  "ad_group_criterion",
  "keyword_view",
  "ad_group_ad",
  "ad_group_ad_asset_view",
  "asset",
  "search_term_view",
  "campaign_search_term_view",
  "campaign_criterion",
  "change_event",
  "change_status",
  "asset_group",
  "asset_group_asset",
  "asset_group_listing_group_filter",
] as const;

const id = (i: number) => i;
const zero = () => 0;

export function viewFor(ctx: AccountContext, resource: string): ViewDef | undefined {
  const acct = ctx.acct;
  const f = acct.facts;
  const set = (xs: readonly string[]) => new Set(xs);
  const campaignsOfAll = (() => {
    let all: Int32Array | undefined;
    return () => (all ??= Int32Array.from(acct.campaigns.map((c) => c.idx)));
  })();
  const kwCampaign = (k: number) => acct.adGroups[acct.keywords.adGroupIdx[k]].campaignIdx;
  const adCampaign = (a: number) => acct.adGroups[acct.ads[a].adGroupIdx].campaignIdx;
  const common = set(COMMON_SEGMENTS);
  // Ad groups have no stored facts: search ad groups sum their keywords, display ad groups read their own table.
  const adGroupParts = (groupOf: (i: number) => number, split?: FactPart["split"], share?: FactPart["share"]): FactPart[] => {
    const byGroup = acct.keywordsByAdGroup();
    const kwCampaignOf = (k: number) => acct.adGroups[acct.keywords.adGroupIdx[k]].campaignIdx;
    return [
      {
        table: f.keyword,
        sources: (i) => {
          const g = groupOf(i);
          return byGroup.items.subarray(byGroup.offsets[g], byGroup.offsets[g + 1]);
        },
        campaignOf: kwCampaignOf,
        impressionShare: "keyword",
        qualityScore: (k) => acct.keywords.qualityScore[k],
        split,
        share,
        rollupKey: split ? groupOf : undefined,
      },
      { table: f.displayAdGroup, sources: (i) => [groupOf(i)], campaignOf: (g) => acct.adGroups[g].campaignIdx, impressionShare: "none", split, share },
    ];
  };
  const adSplit = (() => {
    const cache = new Map<number, Float64Array>();
    const siblings = acct.adsOfAdGroups();
    return (a: number): { weights: Float64Array; index: number } => {
      const g = acct.ads[a].adGroupIdx;
      let w = cache.get(g);
      const sib = siblings[g];
      if (!w) {
        w = Float64Array.from(sib, (x) => acct.ads[x].trafficWeight);
        cache.set(g, w);
      }
      return { weights: w, index: sib.indexOf(a) };
    };
  })();
  switch (resource) {
    case "customer":
      return {
        resource,
        joins: { customer: zero },
        metrics: set([...BASE_METRICS, ...IMPRESSION_SHARE_METRICS]),
        segments: common,
        facts: [{ table: f.campaign, sources: () => campaignsOfAll(), campaignOf: id, impressionShare: "stored" }],
      };
    case "customer_client":
      return { resource, joins: { customer_client: id, customer: zero }, metrics: null, segments: set([]) };
    case "campaign":
      return {
        resource,
        joins: { campaign: id, campaign_budget: (i) => acct.campaigns[i].budgetIdx, customer: zero },
        metrics: set([...BASE_METRICS, ...IMPRESSION_SHARE_METRICS]),
        segments: common,
        facts: [{ table: f.campaign, identity: true, sources: (i) => [i], campaignOf: id, impressionShare: "stored" }],
      };
    case "campaign_budget": {
      const byBudget: number[][] = acct.budgets.map(() => []);
      for (const c of acct.campaigns) byBudget[c.budgetIdx]?.push(c.idx);
      return {
        resource,
        joins: { campaign_budget: id, customer: zero },
        metrics: set(BASE_METRICS),
        segments: common,
        facts: [{ table: f.campaign, sources: (i) => byBudget[i] ?? [], campaignOf: id, impressionShare: "none" }],
      };
    }
    case "ad_group":
      return {
        resource,
        joins: { ad_group: id, campaign: (i) => acct.adGroups[i].campaignIdx, customer: zero },
        metrics: set([...BASE_METRICS, "metrics.search_impression_share", "metrics.search_rank_lost_impression_share"]),
        segments: common,
        facts: adGroupParts((g) => g),
      };
    case "ad_group_criterion":
      return {
        resource,
        joins: { ad_group_criterion: id, ad_group: (i) => acct.keywords.adGroupIdx[i], campaign: kwCampaign, customer: zero },
        metrics: null,
        segments: set([]),
      };
    case "keyword_view":
      return {
        resource,
        // Negative keywords never serve, so they have no keyword_view row.
        rows: () => {
          const kw = acct.keywords;
          const out = new Int32Array(kw.count);
          let n = 0;
          for (let i = 0; i < kw.count; i++) if (kw.negative[i] === 0) out[n++] = i;
          return out.subarray(0, n);
        },
        joins: { keyword_view: id, ad_group_criterion: id, ad_group: (i) => acct.keywords.adGroupIdx[i], campaign: kwCampaign, customer: zero },
        metrics: set([...BASE_METRICS, "metrics.search_impression_share", "metrics.search_rank_lost_impression_share", ...KEYWORD_ONLY_METRICS]),
        segments: common,
        facts: [
          {
            table: f.keyword,
            identity: true,
            sources: (i) => [i],
            campaignOf: kwCampaign,
            impressionShare: "keyword",
            qualityScore: (k) => acct.keywords.qualityScore[k],
          },
        ],
      };
    case "ad_group_ad":
      return {
        resource,
        joins: { ad_group_ad: id, ad_group: (i) => acct.ads[i].adGroupIdx, campaign: adCampaign, customer: zero },
        metrics: set(BASE_METRICS),
        segments: common,
        facts: adGroupParts((a) => acct.ads[a].adGroupIdx, adSplit),
      };
    case "ad_group_ad_asset_view": {
      const links = acct.adAssetLinks;
      return {
        resource,
        joins: {
          ad_group_ad_asset_view: id,
          ad_group_ad: (i) => links[i].adIdx,
          ad_group: (i) => acct.ads[links[i].adIdx].adGroupIdx,
          asset: (i) => links[i].assetIdx,
          campaign: (i) => adCampaign(links[i].adIdx),
          customer: zero,
        },
        metrics: set(BASE_METRICS),
        segments: common,
        facts: adGroupParts(
          (i) => acct.ads[links[i].adIdx].adGroupIdx,
          (i) => adSplit(links[i].adIdx),
          (i) => links[i].servedShare,
        ),
      };
    }
    case "asset":
      return { resource, joins: { asset: id, customer: zero }, metrics: null, segments: set([]) };
    case "search_term_view": {
      const st = acct.searchTerms;
      const kwAcc = () => ctx.accessor("ad_group_criterion");
      return {
        resource,
        joins: { search_term_view: id, ad_group: (i) => st.adGroupIdx[i], campaign: (i) => st.campaignIdx[i], customer: zero },
        metrics: set(BASE_METRICS),
        segments: set([...COMMON_SEGMENTS, ...TERM_SEGMENTS]),
        facts: [{ table: f.searchTerm, identity: true, sources: (i) => [i], campaignOf: (t) => st.campaignIdx[t], impressionShare: "none" }],
        statsOnly: true,
        rows: () => ctx.adGroupTermIndices(),
        rowSegments: {
          "segments.search_term_match_type": (i) => SEARCH_TERM_MATCH_VALUES[st.matchType[i]],
          "segments.keyword.info.text": (i) => (st.keywordIdx[i] >= 0 ? acct.keywords.text[st.keywordIdx[i]] : undefined),
          "segments.keyword.info.match_type": (i) => (st.keywordIdx[i] >= 0 ? MATCH_TYPE_VALUES[acct.keywords.matchType[st.keywordIdx[i]]] : undefined),
          "segments.keyword.ad_group_criterion": (i) => (st.keywordIdx[i] >= 0 ? kwAcc()?.resourceName(st.keywordIdx[i]) : undefined),
        },
      };
    }
    case "campaign_search_term_view": {
      const groups = ctx.campaignTermGroups();
      const st = acct.searchTerms;
      return {
        resource,
        joins: { campaign_search_term_view: id, campaign: (i) => groups[i].campaignIdx, customer: zero },
        metrics: set(BASE_METRICS),
        segments: set([...COMMON_SEGMENTS, "segments.search_term_match_type"]),
        facts: [{ table: f.searchTerm, sources: (i) => groups[i].terms, campaignOf: (t) => st.campaignIdx[t], impressionShare: "none" }],
        statsOnly: true,
        rowSegments: {
          "segments.search_term_match_type": (i) => SEARCH_TERM_MATCH_VALUES[st.matchType[groups[i].terms[0]]],
        },
      };
    }
    case "campaign_criterion":
      return {
        resource,
        joins: { campaign_criterion: id, campaign: (i) => acct.campaignCriteria[i].campaignIdx, customer: zero },
        metrics: null,
        segments: set([]),
      };
    case "asset_group":
      return {
        resource,
        joins: { asset_group: id, campaign: (i) => acct.assetGroups[i].campaignIdx, customer: zero },
        metrics: null,
        segments: set([]),
      };
    case "asset_group_asset":
      return {
        resource,
        joins: {
          asset_group_asset: id,
          asset: (i) => acct.assetGroupAssets[i].assetIdx,
          asset_group: (i) => acct.assetGroupAssets[i].assetGroupIdx,
          campaign: (i) => acct.assetGroups[acct.assetGroupAssets[i].assetGroupIdx].campaignIdx,
          customer: zero,
        },
        metrics: null,
        segments: set([]),
      };
    case "asset_group_listing_group_filter":
      return {
        resource,
        joins: {
          asset_group_listing_group_filter: id,
          asset_group: (i) => acct.listingGroupFilters[i].assetGroupIdx,
          campaign: (i) => acct.assetGroups[acct.listingGroupFilters[i].assetGroupIdx].campaignIdx,
          customer: zero,
        },
        metrics: null,
        segments: set([]),
      };
    case "change_event":
      return {
        resource,
        joins: {
          change_event: id,
          campaign: (i) => acct.changeEvents[i].campaignIdx,
          ad_group: (i) => acct.changeEvents[i].adGroupIdx,
          customer: zero,
        },
        metrics: null,
        segments: set([]),
      };
    case "change_status": {
      const rows = ctx.changeStatus();
      return {
        resource,
        joins: { change_status: id, campaign: (i) => rows[i].campaignIdx, ad_group: (i) => rows[i].adGroupIdx, customer: zero },
        metrics: null,
        segments: set([]),
      };
    }
    default:
      return undefined;
  }
}

export const NETWORK_BY_CHANNEL: Record<string, string> = { SEARCH: "SEARCH", DISPLAY: "CONTENT", PERFORMANCE_MAX: "MIXED" };
