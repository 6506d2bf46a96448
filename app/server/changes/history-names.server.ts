import { formatEnum } from "~/lib/format";
import { getDb } from "../db/db.server";

/**
 * Names for the resources a change touched, from the local copy of the
 * account: change_event (changes made outside the product) reports only a
 * resource name such as `customers/1/adGroupCriteria/14~30`, which says
 * nothing to a person. This turns it into `keyword "cheap camping tents"
 * (Broad) in Family Tents`. Resources no longer in the copy (removed since)
 * are left unnamed; the caller falls back to the fields the event carried.
 */
export async function nameResources(resourceNames: Iterable<string>): Promise<Map<string, string>> {
  const db = getDb();
  const out = new Map<string, string>();
  const byKind = new Map<string, Array<{ rn: string; customerId: string; ids: string[] }>>();
  for (const rn of new Set(resourceNames)) {
    const m = /^customers\/(\d+)\/(campaigns|campaignBudgets|adGroups|adGroupCriteria|adGroupAds|campaignCriteria)\/([\d~]+)$/.exec(rn);
    if (!m) continue;
    const [, customerId, kind, id] = m;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { rn, customerId, ids: id.split("~") }]);
  }
  const chunks = <T>(list: T[], size = 200) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

  for (const chunk of chunks(byKind.get("campaigns") ?? [])) {
    const rows = await db
      .selectFrom("ads_campaigns")
      .select(["customer_id", "id", "name"])
      .where(
        "id",
        "in",
        chunk.map((c) => c.ids[0]),
      )
      .execute();
    for (const c of chunk) {
      const row = rows.find((r) => r.customer_id === c.customerId && r.id === c.ids[0]);
      if (row) out.set(c.rn, `campaign “${row.name}”`);
    }
  }
  for (const chunk of chunks(byKind.get("campaignBudgets") ?? [])) {
    const rows = await db
      .selectFrom("ads_campaigns")
      .select(["customer_id", "name", "budget_resource_name"])
      .where(
        "budget_resource_name",
        "in",
        chunk.map((c) => c.rn),
      )
      .execute();
    for (const c of chunk) {
      const names = rows.filter((r) => r.budget_resource_name === c.rn).map((r) => `“${r.name}”`);
      if (names.length) out.set(c.rn, `budget of ${names.join(", ")}`);
    }
  }
  for (const chunk of chunks(byKind.get("adGroups") ?? [])) {
    const rows = await db
      .selectFrom("ads_ad_groups as g")
      .leftJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
      .select(["g.customer_id", "g.id", "g.name", "c.name as campaign_name"])
      .where(
        "g.id",
        "in",
        chunk.map((c) => c.ids[0]),
      )
      .execute();
    for (const c of chunk) {
      const row = rows.find((r) => r.customer_id === c.customerId && r.id === c.ids[0]);
      if (row) out.set(c.rn, `ad group “${row.name}”${row.campaign_name ? ` in ${row.campaign_name}` : ""}`);
    }
  }
  for (const chunk of chunks(byKind.get("adGroupCriteria") ?? [])) {
    const rows = await db
      .selectFrom("ads_keywords as k")
      .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "k.customer_id").onRef("g.id", "=", "k.ad_group_id"))
      .select(["k.customer_id", "k.ad_group_id", "k.criterion_id", "k.text", "k.match_type", "k.negative", "g.name as ad_group_name"])
      .where(
        "k.criterion_id",
        "in",
        chunk.map((c) => c.ids[1] ?? ""),
      )
      .execute();
    for (const c of chunk) {
      const row = rows.find((r) => r.customer_id === c.customerId && r.ad_group_id === c.ids[0] && r.criterion_id === c.ids[1]);
      if (row) {
        out.set(c.rn, `${Number(row.negative) === 1 ? "negative keyword" : "keyword"} “${row.text}” (${formatEnum(row.match_type)}) in ${row.ad_group_name}`);
      }
    }
  }
  for (const chunk of chunks(byKind.get("campaignCriteria") ?? [])) {
    const rows = await db
      .selectFrom("ads_campaign_negative_keywords as n")
      .leftJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "n.customer_id").onRef("c.id", "=", "n.campaign_id"))
      .select(["n.customer_id", "n.campaign_id", "n.criterion_id", "n.text", "n.match_type", "c.name as campaign_name"])
      .where(
        "n.criterion_id",
        "in",
        chunk.map((c) => c.ids[1] ?? ""),
      )
      .execute();
    for (const c of chunk) {
      const row = rows.find((r) => r.customer_id === c.customerId && r.campaign_id === c.ids[0] && r.criterion_id === c.ids[1]);
      if (row) out.set(c.rn, `negative keyword “${row.text}” (${formatEnum(row.match_type)})${row.campaign_name ? ` in ${row.campaign_name}` : ""}`);
    }
  }
  for (const chunk of chunks(byKind.get("adGroupAds") ?? [])) {
    const rows = await db
      .selectFrom("ads_ads as a")
      .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "a.customer_id").onRef("g.id", "=", "a.ad_group_id"))
      .select(["a.customer_id", "a.ad_group_id", "a.ad_id", "a.headlines", "g.name as ad_group_name"])
      .where(
        "a.ad_id",
        "in",
        chunk.map((c) => c.ids[1] ?? ""),
      )
      .execute();
    for (const c of chunk) {
      const row = rows.find((r) => r.customer_id === c.customerId && r.ad_group_id === c.ids[0] && r.ad_id === c.ids[1]);
      if (row) out.set(c.rn, `ad “${firstHeadline(row.headlines) ?? row.ad_id}” in ${row.ad_group_name}`);
    }
  }
  return out;
}

function firstHeadline(json: string | null): string | null {
  try {
    const list = JSON.parse(json ?? "[]") as Array<{ text?: unknown }>;
    return typeof list[0]?.text === "string" ? list[0].text : null;
  } catch {
    return null;
  }
}

/** A name from the event's own fields when the resource is gone from the local copy (a removed keyword still carries its text). */
export function nameFromFields(kind: string, fields: Record<string, unknown> | null): string | null {
  if (!fields) return null;
  if ((kind === "keyword" || kind === "negative_keyword" || kind === "campaign_negative_keyword") && typeof fields.text === "string") {
    return `${kind === "keyword" ? "keyword" : "negative keyword"} “${fields.text}”${typeof fields.matchType === "string" ? ` (${formatEnum(fields.matchType)})` : ""}`;
  }
  if (kind === "ad" && Array.isArray(fields.headlines) && typeof fields.headlines[0] === "string") return `ad “${fields.headlines[0]}”`;
  if (typeof fields.name === "string") return `${kind.replace(/_/g, " ")} “${fields.name}”`;
  return null;
}
