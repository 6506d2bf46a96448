import { closeDb, getDb } from "../db/db.server";
import { applyChangeSet } from "./pipeline.server";

/**
 * Test support only (crash.server.test.ts runs it with tsx and SIGKILLs it):
 * applies every validated change set of CRASH_USER_ID, oldest first, as the
 * app would after each person's click. Config comes from the environment.
 */
const userId = process.env.CRASH_USER_ID;
if (!userId) throw new Error("CRASH_USER_ID is required");
const sets = await getDb().selectFrom("change_sets").select("id").where("user_id", "=", userId).where("status", "=", "validated").orderBy("created_at").orderBy("id").execute();
process.stdout.write("ready\n");
for (const { id } of sets) {
  await applyChangeSet(userId, id, { confirmLargeMoves: true });
  process.stdout.write("set\n");
}
process.stdout.write("done\n");
await closeDb();
