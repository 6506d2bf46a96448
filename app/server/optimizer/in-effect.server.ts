import type { Action } from "~/lib/change-actions";
import { getDb } from "../db/db.server";

/**
 * Whether a recommendation's actions are already what the account has: the
 * keyword it would pause is paused, the budget it would set is set, the
 * negatives it would add exist. The engine runs after each sync, so a change
 * applied since (from the chat, a ticked row, a revert) leaves its advice
 * standing until the next one; the read model writes an apply's result at
 * once, so this reads the truth a minute after Apply.
 */
export async function alreadyInEffect(customerId: string, actions: Action[]): Promise<boolean> {
  if (actions.length === 0) return false;
  for (const a of actions) if (!(await actionInEffect(customerId, a))) return false;
  return true;
}

const micros = (units: number) => Math.round(units * 1_000_000);

/** A keyword by its change-set id (adGroupId~criterionId). */
function keywordRow(customerId: string, id: string) {
  const [adGroupId, criterionId] = id.split("~");
  return getDb()
    .selectFrom("ads_keywords")
    .select(["status", "cpc_bid_micros"])
    .where("customer_id", "=", customerId)
    .where("ad_group_id", "=", adGroupId)
    .where("criterion_id", "=", criterionId)
    .executeTakeFirst();
}

async function actionInEffect(customerId: string, a: Action): Promise<boolean> {
  const db = getDb();
  switch (a.type) {
    case "status": {
      if (a.kind === "campaign" || a.kind === "ad_group") {
        const table = a.kind === "campaign" ? "ads_campaigns" : "ads_ad_groups";
        const rows = await db.selectFrom(table).select("status").where("customer_id", "=", customerId).where("id", "in", a.ids).execute();
        return rows.length === a.ids.length && rows.every((r) => r.status === a.status);
      }
      for (const id of a.ids) {
        const [parent, child] = id.split("~");
        const row =
          a.kind === "keyword"
            ? await keywordRow(customerId, id)
            : await db
                .selectFrom("ads_ads")
                .select("status")
                .where("customer_id", "=", customerId)
                .where("ad_group_id", "=", parent)
                .where("ad_id", "=", child)
                .executeTakeFirst();
        if (row?.status !== a.status) return false;
      }
      return true;
    }
    case "budget": {
      const row = await db
        .selectFrom("ads_campaigns")
        .select("budget_amount_micros")
        .where("customer_id", "=", customerId)
        .where("id", "=", a.campaignId)
        .executeTakeFirst();
      return row?.budget_amount_micros !== undefined && Number(row.budget_amount_micros) === micros(a.amount);
    }
    case "bid": {
      for (const item of a.items) {
        const row =
          a.kind === "keyword"
            ? await keywordRow(customerId, item.id)
            : await db.selectFrom("ads_ad_groups").select("cpc_bid_micros").where("customer_id", "=", customerId).where("id", "=", item.id).executeTakeFirst();
        if (row?.cpc_bid_micros === undefined || row.cpc_bid_micros === null || Number(row.cpc_bid_micros) !== micros(item.cpc)) return false;
      }
      return true;
    }
    case "target_cpa": {
      const row = await db
        .selectFrom("ads_ad_groups")
        .select("target_cpa_micros")
        .where("customer_id", "=", customerId)
        .where("id", "=", a.adGroupId)
        .executeTakeFirst();
      if (!row) return false;
      return a.targetCpa === null ? row.target_cpa_micros === null : Number(row.target_cpa_micros) === micros(a.targetCpa);
    }
    case "add_negatives":
      return negativesExist(customerId, a);
    default:
      return false;
  }
}

/** Every negative exists: synced, or created by an applied change set since (creates reach the synced copy only with the next sync). */
async function negativesExist(customerId: string, a: Extract<Action, { type: "add_negatives" }>): Promise<boolean> {
  const db = getDb();
  const key = (text: string, matchType: string) => `${matchType}:${text.trim().toLowerCase()}`;
  const synced =
    a.level === "campaign"
      ? await db
          .selectFrom("ads_campaign_negative_keywords")
          .select(["text", "match_type"])
          .where("customer_id", "=", customerId)
          .where("campaign_id", "=", a.parentId)
          .execute()
      : await db
          .selectFrom("ads_keywords")
          .select(["text", "match_type"])
          .where("customer_id", "=", customerId)
          .where("ad_group_id", "=", a.parentId)
          .where("negative", "=", 1)
          .where("status", "!=", "REMOVED")
          .execute();
  const parent = `customers/${customerId}/${a.level === "campaign" ? "campaigns" : "adGroups"}/${a.parentId}`;
  const created = await db
    .selectFrom("changes")
    .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
    .select("changes.after_json")
    .where("change_sets.customer_id", "=", customerId)
    .where("changes.resource_kind", "=", a.level === "campaign" ? "campaign_negative_keyword" : "negative_keyword")
    .where("changes.operation", "=", "create")
    .where("changes.status", "=", "applied")
    .execute();
  const have = new Set([
    ...synced.map((r) => key(r.text, r.match_type)),
    ...created
      .map((r) => JSON.parse(r.after_json ?? "{}") as { campaign?: string; adGroup?: string; text?: string; matchType?: string })
      .filter((r) => (a.level === "campaign" ? r.campaign : r.adGroup) === parent && r.text && r.matchType)
      .map((r) => key(r.text!, r.matchType!)),
  ]);
  return a.keywords.every((k) => have.has(key(k.text, k.matchType)));
}
