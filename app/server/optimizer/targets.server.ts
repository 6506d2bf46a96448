import type { DB } from "../db/db.server";

// The per-account target a person sets in /settings: used for campaigns whose
// bidding strategy has none (before the "account reference": the other campaigns' blend).

export interface AccountTargets {
  targetCpa: number | null;
  /** Percent (300 = 300 %), as people write it. */
  targetRoasPercent: number | null;
}

export async function getAccountTargets(db: DB, customerId: string): Promise<AccountTargets> {
  const row = await db.selectFrom("account_targets").selectAll().where("customer_id", "=", customerId).executeTakeFirst();
  return {
    targetCpa: row?.target_cpa_micros != null ? Number(row.target_cpa_micros) / 1e6 : null,
    targetRoasPercent: row?.target_roas != null ? Math.round(Number(row.target_roas) * 10000) / 100 : null,
  };
}

export async function setAccountTargets(db: DB, customerId: string, userId: string, t: AccountTargets): Promise<void> {
  const values = {
    target_cpa_micros: t.targetCpa === null ? null : Math.round(t.targetCpa * 100) * 10_000,
    target_roas: t.targetRoasPercent === null ? null : t.targetRoasPercent / 100,
    updated_at: new Date().toISOString(),
    updated_by: userId,
  };
  await db
    .insertInto("account_targets")
    .values({ customer_id: customerId, ...values })
    .onConflict((oc) => oc.column("customer_id").doUpdateSet(values))
    .execute();
}

/**
 * Whether anything gives this account a target: the account's own in Settings, or a bidding
 * strategy's target on one of its campaigns. Without one, recommendations compare campaigns
 * with each other (issue 28 point 2) and the panel says that a target would sharpen them.
 */
export async function hasAnyTarget(db: DB, customerId: string): Promise<boolean> {
  const own = await getAccountTargets(db, customerId);
  if (own.targetCpa !== null || own.targetRoasPercent !== null) return true;
  const campaign = await db
    .selectFrom("ads_campaigns")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("status", "!=", "REMOVED")
    .where((eb) => eb.or([eb("target_cpa_micros", ">", 0), eb("target_roas", ">", 0)]))
    .limit(1)
    .executeTakeFirst();
  return campaign !== undefined;
}
