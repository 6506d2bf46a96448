import { z } from "zod";
import { dateIn, localDateTimeIn } from "~/lib/dates";
import { gaqlList, gaqlString, type AdsClient } from "../client.server";
import type { StagedTable } from "./streams.server";

/**
 * Which entities changed since the last refresh, from Google's change_status
 * (the latest change per resource, made for incremental sync), and how each
 * entity table is re-read because of them: not at all, whole, or only the
 * changed entities (by their resource names). GAQL has no OR, so a table
 * re-read by one kind of name only; changes of two kinds re-read it whole.
 */

/** Changes can take up to three minutes to appear at Google: each refresh reads back a little before the last. */
export const CHANGES_OVERLAP_MS = 5 * 60_000;
/** Google's LIMIT ceiling for change_status; a full page means there may be more: the refresh re-reads everything. */
export const CHANGE_STATUS_LIMIT = 10_000;
/** Names per IN list; past this many changed entities of a kind the table is read whole. */
const NAMES_PER_QUERY = 1_000;
const MAX_NAMED = 5_000;

type ChangeType = "CAMPAIGN" | "CAMPAIGN_BUDGET" | "AD_GROUP" | "AD_GROUP_CRITERION" | "AD_GROUP_AD" | "CAMPAIGN_CRITERION" | "ASSET";

/** change_status fields naming the changed resource, per resource type. */
const NAME_FIELD: Record<ChangeType, string> = {
  CAMPAIGN: "campaign",
  CAMPAIGN_BUDGET: "campaignBudget",
  AD_GROUP: "adGroup",
  AD_GROUP_CRITERION: "adGroupCriterion",
  AD_GROUP_AD: "adGroupAd",
  CAMPAIGN_CRITERION: "campaignCriterion",
  ASSET: "asset",
};

/** Re-reading part of a table: rows whose `field` is one of the changed names; they replace the rows sharing `key`. */
interface PartialRead {
  type: ChangeType;
  field: string;
  key: readonly string[];
}

/** What makes an entity table stale: changes that re-read it whole, and those that re-read only the entities named. */
const TABLE_RULES: Partial<Record<StagedTable, { whole: readonly ChangeType[]; partial: readonly PartialRead[] }>> = {
  // Campaign rows carry their budget's amount; both tables are small.
  ads_campaigns: { whole: ["CAMPAIGN", "CAMPAIGN_BUDGET"], partial: [] },
  ads_ad_groups: { whole: [], partial: [{ type: "AD_GROUP", field: "ad_group.resource_name", key: ["id"] }] },
  ads_keywords: {
    whole: [],
    partial: [
      { type: "AD_GROUP_CRITERION", field: "ad_group_criterion.resource_name", key: ["ad_group_id", "criterion_id"] },
      // A keyword's effective bid is its ad group's when it has none of its own.
      { type: "AD_GROUP", field: "ad_group.resource_name", key: ["ad_group_id"] },
    ],
  },
  ads_campaign_negative_keywords: { whole: ["CAMPAIGN_CRITERION"], partial: [] },
  ads_ads: { whole: [], partial: [{ type: "AD_GROUP_AD", field: "ad_group_ad.resource_name", key: ["ad_group_id", "ad_id"] }] },
  // An ad's assets are replaced together (one it no longer has must go).
  ads_ad_assets: { whole: ["ASSET"], partial: [{ type: "AD_GROUP_AD", field: "ad_group_ad.resource_name", key: ["ad_group_id", "ad_id"] }] },
  // Performance Max (read only here): small tables, re-read whole when the account's campaigns or assets
  // change; change_status as read here does not name asset groups, so a full sync also catches their edits.
  ads_asset_groups: { whole: ["CAMPAIGN"], partial: [] },
  ads_asset_group_assets: { whole: ["CAMPAIGN", "ASSET"], partial: [] },
  ads_asset_group_listing_groups: { whole: ["CAMPAIGN"], partial: [] },
};

/** The entity tables a refresh may re-read. */
export const ENTITY_TABLES = Object.keys(TABLE_RULES) as StagedTable[];

export type TableRead = { kind: "whole" } | { kind: "named"; field: string; key: readonly string[]; filters: string[] };

/** What changed: names per resource type; `overflow` when change_status may have more than it gave. */
export interface Changes {
  names: Map<ChangeType, Set<string>>;
  overflow: boolean;
  rows: number;
}

const ChangeStatusRow = z.object({
  changeStatus: z.object({
    resourceType: z.string(),
    campaign: z.string().optional(),
    campaignBudget: z.string().optional(),
    adGroup: z.string().optional(),
    adGroupCriterion: z.string().optional(),
    adGroupAd: z.string().optional(),
    campaignCriterion: z.string().optional(),
    asset: z.string().optional(),
  }),
});

/** The change_status query for changes from `since` (an instant) until now, in the account's time zone as Google counts it. */
export function changeStatusQuery(timeZone: string, since: Date, now: Date): string {
  const from = localDateTimeIn(timeZone, new Date(since.getTime() - CHANGES_OVERLAP_MS));
  // A date-only upper bound covers the whole day; tomorrow leaves no change of today out.
  const to = dateIn(timeZone, new Date(now.getTime() + 86_400_000));
  return `SELECT change_status.resource_type, change_status.resource_status, change_status.last_change_date_time,
      change_status.campaign, change_status.campaign_budget, change_status.ad_group, change_status.ad_group_criterion,
      change_status.ad_group_ad, change_status.campaign_criterion, change_status.asset
    FROM change_status
    WHERE change_status.last_change_date_time BETWEEN ${gaqlString(from)} AND ${gaqlString(to)}
    LIMIT ${CHANGE_STATUS_LIMIT}`;
}

/** Reads the account's changes since `since` (one operation). */
export async function readChanges(
  client: AdsClient,
  customerId: string,
  loginCustomerId: string | undefined,
  timeZone: string,
  since: Date,
  now: Date,
): Promise<Changes> {
  const rows = await client.searchStream(customerId, changeStatusQuery(timeZone, since, now), { loginCustomerId });
  const names = new Map<ChangeType, Set<string>>();
  for (const raw of rows) {
    const parsed = ChangeStatusRow.safeParse(raw);
    // A resource type the sync does not keep (sitelinks, audiences, …) changes nothing it stores.
    if (!parsed.success) continue;
    const status = parsed.data.changeStatus;
    const type = status.resourceType as ChangeType;
    const field = NAME_FIELD[type];
    const name = field ? status[field as keyof typeof status] : undefined;
    if (!name) continue;
    let set = names.get(type);
    if (!set) names.set(type, (set = new Set()));
    set.add(name);
  }
  return { names, overflow: rows.length >= CHANGE_STATUS_LIMIT, rows: rows.length };
}

/** How each entity table is re-read for these changes; tables absent from the map are not read. */
export function planEntityReads(changes: Changes): Map<StagedTable, TableRead> {
  const plan = new Map<StagedTable, TableRead>();
  for (const table of ENTITY_TABLES) {
    const rules = TABLE_RULES[table]!;
    if (changes.overflow || rules.whole.some((t) => changes.names.has(t))) {
      plan.set(table, { kind: "whole" });
      continue;
    }
    const hit = rules.partial.filter((p) => changes.names.has(p.type));
    if (hit.length === 0) continue;
    const names = hit.length === 1 ? [...changes.names.get(hit[0].type)!] : [];
    if (hit.length > 1 || names.length > MAX_NAMED) {
      plan.set(table, { kind: "whole" });
      continue;
    }
    const filters: string[] = [];
    for (let i = 0; i < names.length; i += NAMES_PER_QUERY) {
      filters.push(`${hit[0].field} IN ${gaqlList(names.slice(i, i + NAMES_PER_QUERY))}`);
    }
    plan.set(table, { kind: "named", field: hit[0].field, key: hit[0].key, filters });
  }
  return plan;
}
