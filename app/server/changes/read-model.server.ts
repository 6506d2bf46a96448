import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Change } from "../db/schema";

// The local copy of the account is replaced by each sync. Between syncs, the
// changes the product itself applied are written into it at once, so the
// screens show "Paused" right after the person paused something; creates need
// Google's full resource and arrive with the next sync.

const idOf = (rn: string) => rn.slice(rn.lastIndexOf("/") + 1);

/** Applies the applied updates and removes of one change set to the synced tables. Returns whether creates still need a sync. */
export async function applyToReadModel(db: DB, customerId: string, changes: Change[]): Promise<{ needsSync: boolean }> {
  const result = await writeReadModel(db, customerId, changes);
  // After the writes, never before: a page that reads the new version must find the new rows
  // (ads/report-cache.server.ts keys what it read on the version it read first).
  await db
    .updateTable("ads_sync_state")
    .set({ data_version: sql<number>`data_version + 1` })
    .where("customer_id", "=", customerId)
    .execute();
  return result;
}

async function writeReadModel(db: DB, customerId: string, changes: Change[]): Promise<{ needsSync: boolean }> {
  let needsSync = false;
  for (const c of changes) {
    if (c.status !== "applied") continue;
    if (c.operation === "create") {
      needsSync = true;
      continue;
    }
    const rn = c.result_resource_name ?? c.resource_name;
    if (!rn) continue;
    const after = (c.after_json ? JSON.parse(c.after_json) : {}) as Record<string, unknown>;
    const status = c.operation === "remove" ? "REMOVED" : typeof after.status === "string" ? after.status : undefined;
    const bid = "cpcBidMicros" in after ? (after.cpcBidMicros as number | null) : undefined;
    const id = idOf(rn);
    switch (c.resource_kind) {
      case "campaign":
        if (status) await db.updateTable("ads_campaigns").set({ status }).where("customer_id", "=", customerId).where("id", "=", id).execute();
        break;
      case "campaign_budget":
        if (typeof after.amountMicros === "number") {
          await db
            .updateTable("ads_campaigns")
            .set({ budget_amount_micros: after.amountMicros })
            .where("customer_id", "=", customerId)
            .where("budget_resource_name", "=", rn)
            .execute();
        }
        break;
      case "ad_group": {
        const target = "targetCpaMicros" in after ? (after.targetCpaMicros as number | null) : undefined;
        const set = {
          ...(status ? { status } : {}),
          ...(bid !== undefined ? { cpc_bid_micros: bid } : {}),
          ...(target !== undefined ? { target_cpa_micros: target } : {}),
        };
        if (Object.keys(set).length) await db.updateTable("ads_ad_groups").set(set).where("customer_id", "=", customerId).where("id", "=", id).execute();
        break;
      }
      case "keyword":
      case "negative_keyword": {
        const [adGroupId, criterionId] = id.split("~");
        const set = { ...(status ? { status } : {}), ...(bid !== undefined ? { cpc_bid_micros: bid } : {}) };
        if (Object.keys(set).length) {
          await db
            .updateTable("ads_keywords")
            .set(set)
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", adGroupId)
            .where("criterion_id", "=", criterionId)
            .execute();
        }
        break;
      }
      case "campaign_negative_keyword": {
        const [campaignId, criterionId] = id.split("~");
        if (status) {
          await db
            .updateTable("ads_campaign_negative_keywords")
            .set({ status })
            .where("customer_id", "=", customerId)
            .where("campaign_id", "=", campaignId)
            .where("criterion_id", "=", criterionId)
            .execute();
        }
        break;
      }
      case "ad": {
        const [adGroupId, adId] = id.split("~");
        if (status)
          await db
            .updateTable("ads_ads")
            .set({ status })
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", adGroupId)
            .where("ad_id", "=", adId)
            .execute();
        break;
      }
    }
  }
  return { needsSync };
}
