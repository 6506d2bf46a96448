import { createSession } from "../auth/session.server";
import { closeDb, getDb } from "../db/db.server";
import { getConfig } from "../env.server";
import { approvalFromApiRequest } from "./approval.server";
import { applyChangeSet } from "./pipeline.server";

/**
 * Test support only (crash.server.test.ts runs it with tsx and SIGKILLs it):
 * applies every validated change set of CRASH_USER_ID, oldest first, as the
 * app would after each person's click. Config comes from the environment.
 */
const userId = process.env.CRASH_USER_ID;
if (!userId) throw new Error("CRASH_USER_ID is required");
const sets = await getDb()
  .selectFrom("change_sets")
  .select("id")
  .where("user_id", "=", userId)
  .where("status", "=", "validated")
  .orderBy("created_at")
  .orderBy("id")
  .execute();
process.stdout.write("ready\n");
// Each apply carries a person's approval, minted the only way there is: a signed-in POST to the apply endpoint.
const { accessToken } = await createSession(userId, new Request("http://localhost/"));
for (const { id } of sets) {
  const request = new Request(`${getConfig().APP_URL}/api/v1/change-sets/${id}/apply`, { method: "POST", headers: { Authorization: `Bearer ${accessToken}` } });
  await applyChangeSet(userId, id, { approval: await approvalFromApiRequest(request, id), confirmLargeMoves: true });
  process.stdout.write("set\n");
}
process.stdout.write("done\n");
await closeDb();
