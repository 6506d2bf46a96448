import type { DB } from "../../app/server/db/db.server";

/** Test support only: today's AI uses, the leases and the month's recorded tokens back to zero (ai/metered.server.ts). */
export async function clearAiMetering(db: DB) {
  await db.deleteFrom("ai_daily_uses").execute();
  await db.deleteFrom("ai_leases").execute();
  await db.deleteFrom("ai_usage").execute();
}
