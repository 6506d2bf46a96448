import { dateIn } from "~/lib/dates";
import type { ImpactLevel } from "~/lib/impact";
import type { DB } from "../db/db.server";
import { normalizeGoogleFields, outsideResourceKind, ownEchoes, parseJson } from "../changes/history.server";
import { nameResources } from "../changes/history-names.server";

/**
 * Every change that touched an account's campaigns, ad groups or keywords —
 * the change sets applied here and the outside changes imported from Google's
 * change_event — each with the entities it touched ("units"). A change's unit
 * is the thing whose traffic it moves: a bid or status on a keyword is that
 * keyword; a new keyword, an ad-group negative or an ad is its ad group (the
 * keyword had no traffic before); a budget, a status or a campaign negative
 * is the campaign. Changes whose entities are unclear (a resource the copy
 * does not know, a rename) touch nothing measurable.
 */

export interface Unit {
  level: ImpactLevel;
  /** campaign id, ad group id, or "adGroupId~criterionId". */
  key: string;
  campaignId: string;
  adGroupId: string | null;
}

export interface Touch {
  /** "cs:<change set id>" or "ext:<history_imports id>". */
  subject: string;
  kind: "change_set" | "outside";
  changeSetId: string | null;
  title: string;
  /** ISO UTC instant of the change (the apply's). */
  at: string;
  /** Its day in the account's time zone. */
  day: string;
  units: Unit[];
  /** The change set this one undoes. */
  revertOf: string | null;
  /** Applied from a recommendation (its id) or proposed by the assistant: what the dashboard counts. */
  recommendationId: string | null;
  source: "user" | "rule" | "assistant" | "external";
}

export const LEVEL_RANK: Record<ImpactLevel, number> = { keyword: 0, ad_group: 1, campaign: 2 };

/** Two units touch the same traffic: one contains the other, or they are the same. */
export function unitsOverlap(a: Unit, b: Unit): boolean {
  if (a.campaignId !== b.campaignId) return false;
  if (a.level === "campaign" || b.level === "campaign") return true;
  if (a.adGroupId !== b.adGroupId) return false;
  if (a.level === "ad_group" || b.level === "ad_group") return true;
  return a.key === b.key;
}

/** The unit at a coarser level (a keyword's ad group, an ad group's campaign). */
export function liftUnit(u: Unit, level: ImpactLevel): Unit {
  if (LEVEL_RANK[u.level] >= LEVEL_RANK[level]) return u;
  if (level === "campaign") return { level, key: u.campaignId, campaignId: u.campaignId, adGroupId: null };
  return { level, key: u.adGroupId!, campaignId: u.campaignId, adGroupId: u.adGroupId };
}

/** Fields of an outside change that move no traffic: a rename is not measured. */
const COSMETIC_FIELDS = new Set(["name", "resourceName"]);

interface Lookups {
  adGroupCampaign: Map<string, string>;
  budgetCampaigns: Map<string, string[]>;
  campaigns: Set<string>;
}

async function lookups(db: DB, customerId: string): Promise<Lookups> {
  const [groups, campaigns] = await Promise.all([
    db.selectFrom("ads_ad_groups").select(["id", "campaign_id"]).where("customer_id", "=", customerId).execute(),
    db.selectFrom("ads_campaigns").select(["id", "budget_resource_name"]).where("customer_id", "=", customerId).execute(),
  ]);
  const budgetCampaigns = new Map<string, string[]>();
  for (const c of campaigns) {
    if (c.budget_resource_name) budgetCampaigns.set(c.budget_resource_name, [...(budgetCampaigns.get(c.budget_resource_name) ?? []), c.id]);
  }
  return { adGroupCampaign: new Map(groups.map((g) => [g.id, g.campaign_id])), budgetCampaigns, campaigns: new Set(campaigns.map((c) => c.id)) };
}

const RESOURCE = /^customers\/\d+\/(campaigns|campaignBudgets|adGroups|adGroupCriteria|adGroupAds|campaignCriteria)\/([\d~]+)$/;

/**
 * The units one change touched. `kind` is the product's resource kind
 * (negative_keyword for an ad-group negative); a create moves its parent.
 */
export function unitsOf(resourceName: string | null, kind: string, operation: string, look: Lookups): Unit[] {
  const m = resourceName ? RESOURCE.exec(resourceName) : null;
  if (!m) return [];
  const [, collection, id] = m;
  const campaign = (campaignId: string): Unit[] =>
    look.campaigns.has(campaignId) ? [{ level: "campaign", key: campaignId, campaignId, adGroupId: null }] : [];
  const adGroup = (adGroupId: string): Unit[] => {
    const campaignId = look.adGroupCampaign.get(adGroupId);
    return campaignId ? [{ level: "ad_group", key: adGroupId, campaignId, adGroupId }] : [];
  };
  switch (collection) {
    case "campaigns":
      return campaign(id);
    case "campaignBudgets":
      return (look.budgetCampaigns.get(resourceName!) ?? []).flatMap(campaign);
    case "adGroups":
      return adGroup(id);
    case "campaignCriteria":
      return campaign(id.split("~")[0]);
    case "adGroupAds":
      return adGroup(id.split("~")[0]);
    case "adGroupCriteria": {
      const [adGroupId] = id.split("~");
      if (kind !== "keyword" || operation.toLowerCase() === "create") return adGroup(adGroupId);
      const campaignId = look.adGroupCampaign.get(adGroupId);
      return campaignId ? [{ level: "keyword", key: id, campaignId, adGroupId }] : [];
    }
  }
  return [];
}

/** Every measurable change of the account, oldest first. */
export async function accountTouches(db: DB, customerId: string, timeZone: string): Promise<Touch[]> {
  const look = await lookups(db, customerId);
  const [sets, changes, imports] = await Promise.all([
    db
      .selectFrom("change_sets")
      .select(["id", "title", "applied_at", "revert_of", "recommendation_id", "source"])
      .where("customer_id", "=", customerId)
      .where("status", "in", ["applied", "partially_applied"])
      .where("applied_at", "is not", null)
      .execute(),
    db
      .selectFrom("changes")
      .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
      .select(["changes.change_set_id", "changes.resource_kind", "changes.operation", "changes.resource_name", "changes.result_resource_name"])
      .where("change_sets.customer_id", "=", customerId)
      .where("change_sets.status", "in", ["applied", "partially_applied"])
      .where("changes.status", "=", "applied")
      .execute(),
    db.selectFrom("history_imports").selectAll().where("customer_id", "=", customerId).execute(),
  ]);
  const unitsBySet = new Map<string, Unit[]>();
  for (const c of changes) {
    const units = unitsOf(c.result_resource_name ?? c.resource_name, c.resource_kind, c.operation, look);
    unitsBySet.set(c.change_set_id, [...(unitsBySet.get(c.change_set_id) ?? []), ...units]);
  }
  const touches: Touch[] = sets.map((s) => ({
    subject: `cs:${s.id}`,
    kind: "change_set",
    changeSetId: s.id,
    title: s.title,
    at: s.applied_at!,
    day: dateIn(timeZone, new Date(s.applied_at!)),
    units: dedupe(unitsBySet.get(s.id) ?? []),
    revertOf: s.revert_of,
    recommendationId: s.recommendation_id,
    source: s.source,
  }));
  const isEcho = imports.length ? await ownEchoes([customerId]) : () => false;
  const names = await nameResources(imports.map((r) => r.resource_name));
  for (const r of imports) {
    if (isEcho(r)) continue;
    const fields = (r.changed_fields ?? "").split(",").filter(Boolean);
    if (r.operation === "UPDATE" && fields.length > 0 && fields.every((f) => COSMETIC_FIELDS.has(f))) continue;
    const oldFields = normalizeGoogleFields(parseJson(r.old_json) as Record<string, unknown> | null);
    const newFields = normalizeGoogleFields(parseJson(r.new_json) as Record<string, unknown> | null);
    const units = dedupe(unitsOf(r.resource_name, outsideResourceKind(r.resource_type, oldFields, newFields), r.operation, look));
    if (units.length === 0) continue;
    touches.push({
      subject: `ext:${r.id}`,
      kind: "outside",
      changeSetId: null,
      title: `${r.operation.charAt(0)}${r.operation.slice(1).toLowerCase()} ${names.get(r.resource_name) ?? units[0].level.replace("_", " ")} (outside Ads AI Manager)`,
      at: r.changed_at,
      day: dateIn(timeZone, new Date(r.changed_at)),
      units,
      revertOf: null,
      recommendationId: null,
      source: "external",
    });
  }
  return touches.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.subject < b.subject ? -1 : 1));
}

function dedupe(units: Unit[]): Unit[] {
  const seen = new Map<string, Unit>();
  for (const u of units) seen.set(`${u.level}:${u.key}`, u);
  return [...seen.values()];
}
