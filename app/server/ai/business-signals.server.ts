import { sql } from "kysely";
import { classifyBusiness, type BusinessSignals, type BusinessTypeGuess } from "~/lib/business-type";
import { getDb } from "../db/db.server";

// The signals app/lib/business-type.ts weighs, read from the synced copy of the account: its
// campaigns' channels and bidding, its conversions and their value, its keywords by
// impressions, and its ads' lines and landing pages. Bounded reads: the most seen keywords
// and the first ads are enough to tell a shop from a plumber.

const KEYWORDS_READ = 1000;
const ADS_READ = 300;
const VALUE_BIDDING = ["TARGET_ROAS", "MAXIMIZE_CONVERSION_VALUE"];

export async function businessSignalsOf(customerId: string): Promise<BusinessSignals> {
  const db = getDb();
  const [campaigns, totals, keywords, ads] = await Promise.all([
    db
      .selectFrom("ads_campaigns")
      .select(["advertising_channel_type", "bidding_strategy_type"])
      .where("customer_id", "=", customerId)
      .where("status", "!=", "REMOVED")
      .execute(),
    db
      .selectFrom("ads_campaign_daily")
      .select([sql<number>`coalesce(sum(conversions), 0)`.as("conversions"), sql<number>`coalesce(sum(conversions_value), 0)`.as("value")])
      .where("customer_id", "=", customerId)
      .executeTakeFirst(),
    // The sync's stored totals give each keyword's impressions without summing its daily rows.
    db
      .selectFrom("ads_keywords as k")
      .leftJoin("ads_window_totals as w", (j) =>
        j
          .onRef("w.customer_id", "=", "k.customer_id")
          .on("w.entity", "=", "keyword")
          .onRef("w.ad_group_id", "=", "k.ad_group_id")
          .onRef("w.item_id", "=", "k.criterion_id"),
      )
      .select(["k.text", sql<number>`coalesce(w.all_impressions, 0)`.as("impressions")])
      .where("k.customer_id", "=", customerId)
      .where("k.negative", "=", 0)
      .where("k.status", "!=", "REMOVED")
      .orderBy(sql`coalesce(w.all_impressions, 0)`, "desc")
      .limit(KEYWORDS_READ)
      .execute(),
    db
      .selectFrom("ads_ads")
      .select(["headlines", "descriptions", "final_urls"])
      .where("customer_id", "=", customerId)
      .where("status", "=", "ENABLED")
      .orderBy("ad_id")
      .limit(ADS_READ)
      .execute(),
  ]);
  const texts = (json: string) => (JSON.parse(json) as Array<{ text?: string }>).map((a) => a.text ?? "").filter(Boolean);
  return {
    shoppingCampaigns: campaigns.filter((c) => c.advertising_channel_type === "SHOPPING").length,
    valueBiddingCampaigns: campaigns.filter((c) => VALUE_BIDDING.includes(c.bidding_strategy_type)).length,
    conversions: Number(totals?.conversions ?? 0),
    conversionsValue: Number(totals?.value ?? 0),
    keywords: keywords.map((k) => ({ text: k.text, impressions: Number(k.impressions) })),
    adLines: [...new Set(ads.flatMap((a) => [...texts(a.headlines), ...texts(a.descriptions)]))],
    finalUrls: [...new Set(ads.flatMap((a) => JSON.parse(a.final_urls) as string[]))],
  };
}

/** The kind of business the account shows, and why. */
export async function businessTypeOf(customerId: string): Promise<BusinessTypeGuess> {
  return classifyBusiness(await businessSignalsOf(customerId));
}
