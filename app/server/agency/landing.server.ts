import { sql } from "kysely";
import { getDb, type DB } from "../db/db.server";

/**
 * Where "/" lands (issue 31 point 1): with more than one client account the
 * day starts on the overview of all of them; with one or none (the seed's
 * state) on the dashboard, as before.
 */
export async function landingPath(userId: string, db: DB = getDb()): Promise<"/accounts" | "/dashboard"> {
  const row = await db
    .selectFrom("ads_accounts")
    .select(sql<number>`COUNT(*)`.as("n"))
    .where("user_id", "=", userId)
    .where("manager", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.n) > 1 ? "/accounts" : "/dashboard";
}
