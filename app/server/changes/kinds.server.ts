import { z } from "zod";
import type { ChangeResourceKind } from "../db/schema";
import type { AdsClient } from "../ads/client.server";
import { gaqlList } from "../ads/gaql.server";
import { int64 } from "../ads/rows.server";

/** Google's mutate service per resource kind; keywords and ad-group negatives share one. */
export const COLLECTION: Record<ChangeResourceKind, string> = {
  campaign: "campaigns",
  campaign_budget: "campaignBudgets",
  ad_group: "adGroups",
  keyword: "adGroupCriteria",
  negative_keyword: "adGroupCriteria",
  campaign_negative_keyword: "campaignCriteria",
  ad: "adGroupAds",
};

export function resourceName(customerId: string, kind: ChangeResourceKind, id: string): string {
  return `customers/${customerId}/${COLLECTION[kind]}/${id}`;
}

/** Fields of a resource as this module compares them: camelCase API names, micros as numbers. */
export type Fields = Record<string, unknown>;

export interface LiveResource {
  resourceName: string;
  fields: Fields;
}

const str = z.string();
const opt = <T extends z.ZodType>(s: T) => s.optional();

const CampaignRow = z.object({ campaign: z.object({ resourceName: str, status: str }) });
const BudgetRow = z.object({ campaignBudget: z.object({ resourceName: str, amountMicros: z.unknown() }) });
const AdGroupRow = z.object({
  adGroup: z.object({ resourceName: str, status: str, cpcBidMicros: z.unknown().optional(), targetCpaMicros: z.unknown().optional(), campaign: opt(str) }),
});
const CriterionRow = z.object({
  adGroupCriterion: z.object({
    resourceName: str,
    status: str,
    adGroup: opt(str),
    negative: z.boolean().optional(),
    cpcBidMicros: z.unknown().optional(),
    keyword: z.object({ text: str, matchType: str }).optional(),
  }),
});
const CampaignCriterionRow = z.object({
  campaignCriterion: z.object({
    resourceName: str,
    status: opt(str),
    campaign: opt(str),
    negative: z.boolean().optional(),
    keyword: z.object({ text: str, matchType: str }).optional(),
  }),
});
const AdRow = z.object({
  adGroupAd: z.object({
    resourceName: str,
    status: str,
    adGroup: opt(str),
    ad: z.object({ responsiveSearchAd: z.object({ headlines: z.array(z.object({ text: str })).optional() }).optional() }).optional(),
  }),
});

function microsOrNull(v: unknown): number | null {
  return v === undefined || v === null ? null : int64(v);
}

interface KindQuery {
  select: string;
  from: string;
  parse(row: unknown): LiveResource;
}

const QUERIES: Record<string, KindQuery> = {
  campaigns: {
    from: "campaign",
    select: "campaign.resource_name, campaign.status",
    parse: (row) => {
      const r = CampaignRow.parse(row).campaign;
      return { resourceName: r.resourceName, fields: { status: r.status } };
    },
  },
  campaignBudgets: {
    from: "campaign_budget",
    select: "campaign_budget.resource_name, campaign_budget.amount_micros",
    parse: (row) => {
      const r = BudgetRow.parse(row).campaignBudget;
      return { resourceName: r.resourceName, fields: { amountMicros: microsOrNull(r.amountMicros) } };
    },
  },
  adGroups: {
    from: "ad_group",
    select: "ad_group.resource_name, ad_group.status, ad_group.cpc_bid_micros, ad_group.target_cpa_micros, ad_group.campaign",
    parse: (row) => {
      const r = AdGroupRow.parse(row).adGroup;
      return {
        resourceName: r.resourceName,
        fields: { status: r.status, cpcBidMicros: microsOrNull(r.cpcBidMicros), targetCpaMicros: microsOrNull(r.targetCpaMicros), campaign: r.campaign },
      };
    },
  },
  adGroupCriteria: {
    from: "ad_group_criterion",
    select:
      "ad_group_criterion.resource_name, ad_group_criterion.status, ad_group_criterion.ad_group, ad_group_criterion.negative, ad_group_criterion.cpc_bid_micros, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type",
    parse: (row) => {
      const r = CriterionRow.parse(row).adGroupCriterion;
      return {
        resourceName: r.resourceName,
        fields: {
          status: r.status,
          adGroup: r.adGroup,
          negative: r.negative === true,
          cpcBidMicros: microsOrNull(r.cpcBidMicros),
          text: r.keyword?.text,
          matchType: r.keyword?.matchType,
        },
      };
    },
  },
  campaignCriteria: {
    from: "campaign_criterion",
    select:
      "campaign_criterion.resource_name, campaign_criterion.status, campaign_criterion.campaign, campaign_criterion.negative, campaign_criterion.keyword.text, campaign_criterion.keyword.match_type",
    parse: (row) => {
      const r = CampaignCriterionRow.parse(row).campaignCriterion;
      return {
        resourceName: r.resourceName,
        fields: { status: r.status ?? "ENABLED", campaign: r.campaign, text: r.keyword?.text, matchType: r.keyword?.matchType },
      };
    },
  },
  adGroupAds: {
    from: "ad_group_ad",
    select: "ad_group_ad.resource_name, ad_group_ad.status, ad_group_ad.ad_group, ad_group_ad.ad.responsive_search_ad.headlines",
    parse: (row) => {
      const r = AdRow.parse(row).adGroupAd;
      return {
        resourceName: r.resourceName,
        fields: { status: r.status, adGroup: r.adGroup, headlines: (r.ad?.responsiveSearchAd?.headlines ?? []).map((h) => h.text) },
      };
    },
  },
};

/** Google's current state of these resources (by resource name), one query per service. */
export async function readLive(
  client: AdsClient,
  customerId: string,
  names: Array<{ collection: string; resourceName: string }>,
  loginCustomerId: string | undefined,
): Promise<Map<string, LiveResource>> {
  const out = new Map<string, LiveResource>();
  const byCollection = new Map<string, string[]>();
  for (const n of names) byCollection.set(n.collection, [...(byCollection.get(n.collection) ?? []), n.resourceName]);
  for (const [collection, list] of byCollection) {
    const q = QUERIES[collection];
    const unique = [...new Set(list)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await client.searchStream(
        customerId,
        `SELECT ${q.select} FROM ${q.from} WHERE ${q.from}.resource_name IN ${gaqlList(unique.slice(i, i + 500))}`,
        { loginCustomerId },
      );
      for (const row of rows) {
        const live = q.parse(row);
        out.set(live.resourceName, live);
      }
    }
  }
  return out;
}

/** Every resource of a service under the given parents (ad groups or campaigns): how reconcile finds what a lost create made. */
export async function readChildren(
  client: AdsClient,
  customerId: string,
  collection: "adGroupCriteria" | "campaignCriteria" | "adGroupAds",
  parentField: string,
  parents: string[],
  loginCustomerId: string | undefined,
): Promise<LiveResource[]> {
  const q = QUERIES[collection];
  const rows = await client.searchStream(customerId, `SELECT ${q.select} FROM ${q.from} WHERE ${q.from}.${parentField} IN ${gaqlList([...new Set(parents)])}`, {
    loginCustomerId,
  });
  return rows.map((r) => q.parse(r));
}
