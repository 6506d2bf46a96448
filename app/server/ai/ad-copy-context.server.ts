import { sql } from "kysely";
import type { ExistingAsset, PerformanceLabel } from "~/lib/rsa-templates";
import { claimsIn } from "~/lib/ad-claims";
import { duplicateKey } from "~/lib/ad-lint";
import { getDb } from "../db/db.server";

// What the ad generator knows about an ad group, read from the synced copy of the account:
// the ad groups to write for, the top keywords, a final URL from the ads already there, and
// the existing headlines and descriptions with Google's performance labels (the grounding).

export interface AdGroupChoice {
  id: string;
  name: string;
  campaignId: string;
  campaignName: string;
}

export interface AdGroupContext {
  adGroup: AdGroupChoice;
  /** Most impressions first, one per text. */
  keywords: string[];
  finalUrl: string;
  existing: ExistingAsset[];
  /**
   * The existing lines that state an offer, a price, a number or a superlative ("Up to 30% Off
   * Tents"): used only once the person confirms them as still true (they become facts).
   */
  offers: string[];
}

export const TOP_KEYWORDS = 10;

/** The account's search ad groups (not removed), by campaign then name: where an RSA can go. */
export async function adGroupChoices(customerId: string): Promise<AdGroupChoice[]> {
  const rows = await getDb()
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
    .select(["g.id", "g.name", "g.campaign_id", "c.name as campaign_name"])
    .where("g.customer_id", "=", customerId)
    .where("g.status", "!=", "REMOVED")
    .where("c.status", "!=", "REMOVED")
    .where("c.advertising_channel_type", "=", "SEARCH")
    .orderBy("c.name")
    .orderBy("g.name")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, campaignId: r.campaign_id, campaignName: r.campaign_name }));
}

const LABEL_RANK: Record<string, number> = { BEST: 0, GOOD: 1, LEARNING: 2, PENDING: 2, UNRATED: 2, LOW: 3 };
const toLabel = (label: string | null | undefined): PerformanceLabel => (label && label in LABEL_RANK ? (label as PerformanceLabel) : "UNRATED");

/** One search ad group of the account with its keywords, final URL and existing assets; null when it isn't one. */
export async function adGroupContext(customerId: string, adGroupId: string): Promise<AdGroupContext | null> {
  if (!/^\d{1,19}$/.test(adGroupId)) return null;
  const db = getDb();
  const adGroup = (await adGroupChoices(customerId)).find((g) => g.id === adGroupId);
  if (!adGroup) return null;

  const keywordRows = await db
    .selectFrom("ads_keywords as k")
    .leftJoin("ads_keyword_daily as d", (j) =>
      j.onRef("d.customer_id", "=", "k.customer_id").onRef("d.ad_group_id", "=", "k.ad_group_id").onRef("d.criterion_id", "=", "k.criterion_id"),
    )
    .select(["k.criterion_id", "k.text", sql<number>`coalesce(sum(d.impressions), 0)`.as("impressions")])
    .where("k.customer_id", "=", customerId)
    .where("k.ad_group_id", "=", adGroupId)
    .where("k.negative", "=", 0)
    .where("k.status", "!=", "REMOVED")
    .groupBy(["k.criterion_id", "k.text"])
    .execute();
  const keywords: string[] = [];
  for (const row of keywordRows.sort((a, b) => Number(b.impressions) - Number(a.impressions) || a.text.localeCompare(b.text))) {
    if (!keywords.some((k) => k.toLowerCase() === row.text.toLowerCase())) keywords.push(row.text);
  }

  const ads = await db
    .selectFrom("ads_ads")
    .select(["ad_id", "status", "headlines", "descriptions", "final_urls"])
    .where("customer_id", "=", customerId)
    .where("ad_group_id", "=", adGroupId)
    .where("status", "!=", "REMOVED")
    .orderBy("status")
    .orderBy("ad_id")
    .execute();
  const enabledFirst = [...ads.filter((a) => a.status === "ENABLED"), ...ads.filter((a) => a.status !== "ENABLED")];
  const finalUrl = enabledFirst.map((a) => (JSON.parse(a.final_urls) as string[])[0]).find(Boolean) ?? "";

  // Labels from the asset view win over the ones embedded in the ad; the best label seen per text counts.
  const assetRows = await db
    .selectFrom("ads_ad_assets")
    .select(["field_type", "text", "performance_label"])
    .where("customer_id", "=", customerId)
    .where("ad_group_id", "=", adGroupId)
    .execute();
  const byText = new Map<string, ExistingAsset>();
  const consider = (text: string | null | undefined, fieldType: string, label: string | null | undefined) => {
    if (!text || (fieldType !== "HEADLINE" && fieldType !== "DESCRIPTION")) return;
    const key = `${fieldType}:${duplicateKey(text)}`;
    const next: ExistingAsset = { text, fieldType, label: toLabel(label) };
    const prev = byText.get(key);
    if (!prev || (prev.label === "UNRATED" && next.label !== "UNRATED") || (LABEL_RANK[next.label] < LABEL_RANK[prev.label] && next.label !== "UNRATED")) {
      byText.set(key, next);
    }
  };
  for (const a of assetRows) consider(a.text, a.field_type, a.performance_label);
  for (const ad of ads) {
    for (const h of JSON.parse(ad.headlines) as Array<{ text?: string; assetPerformanceLabel?: string }>) consider(h.text, "HEADLINE", h.assetPerformanceLabel);
    for (const d of JSON.parse(ad.descriptions) as Array<{ text?: string; assetPerformanceLabel?: string }>)
      consider(d.text, "DESCRIPTION", d.assetPerformanceLabel);
  }
  const existing = [...byText.values()].sort((a, b) => LABEL_RANK[a.label] - LABEL_RANK[b.label]);

  const offers = [...new Map(existing.filter((a) => claimsIn(a.text).length > 0).map((a) => [duplicateKey(a.text), a.text])).values()];
  return { adGroup, keywords: keywords.slice(0, TOP_KEYWORDS), finalUrl, existing, offers };
}

/** The caller's account that holds the ad group (the given one, or any of theirs); null when none does. */
export async function accountOfAdGroup(userId: string, adGroupId: string, customerId?: string): Promise<string | null> {
  if (!/^\d{1,19}$/.test(adGroupId)) return null;
  let q = getDb()
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_accounts as a", "a.customer_id", "g.customer_id")
    .select("g.customer_id")
    .where("a.user_id", "=", userId)
    .where("g.id", "=", adGroupId);
  if (customerId) q = q.where("g.customer_id", "=", customerId);
  const row = await q.executeTakeFirst();
  return row?.customer_id ?? null;
}
