import type { DB } from "../db/db.server";

// The per-account target a person sets in /settings: used for campaigns whose
// bidding strategy has none (before the 90-day "assumed target").

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
