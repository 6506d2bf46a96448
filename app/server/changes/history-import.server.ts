import { z } from "zod";
import { getDb } from "../db/db.server";
import { defineJob, enqueue } from "../jobs/jobs.server";
import { importChangeEvents, IMPORT_EVERY_MS } from "./history.server";

/**
 * The import of changes made outside the product (Google's change_event) as a
 * job (issue 27 point 1): /history queues one when the account's last import
 * is older than IMPORT_EVERY_MS and shows what was imported so far; the job
 * asks Google (one query per 10,000 changes), on whichever instance takes it, and records when
 * it succeeded or why it failed, for every instance's next page view.
 */
const UNAVAILABLE = "Changes made outside Ads AI Manager could not be loaded from Google just now; showing what was imported before.";

defineJob("history-import", {
  schema: z.object({ userId: z.string().min(1), customerId: z.string().min(1) }),
  singletonKey: (d) => d.customerId,
  handler: async ({ userId, customerId }) => {
    await importChangeEvents(userId, customerId);
    await getDb()
      .updateTable("history_import_state")
      .set({ imported_at: new Date().toISOString(), error: null })
      .where("customer_id", "=", customerId)
      .execute();
  },
  onFailed: async ({ customerId }, reason) => {
    await getDb().updateTable("history_import_state").set({ error: reason }).where("customer_id", "=", customerId).execute();
  },
});

/**
 * Queues an import of the account's outside changes unless one was queued in
 * the last IMPORT_EVERY_MS (in any instance). Returns the notice to show when
 * the last import failed; the history shows what was imported before.
 */
export async function refreshOutsideChanges(userId: string, customerId: string, now = new Date()): Promise<string | null> {
  const db = getDb();
  const dueBefore = new Date(now.getTime() - IMPORT_EVERY_MS).toISOString();
  const at = now.toISOString();
  const state = await db.selectFrom("history_import_state").select(["requested_at", "error"]).where("customer_id", "=", customerId).executeTakeFirst();
  // One page view claims the slot (a conditional write): concurrent views queue one import.
  const claimed = state
    ? Number(
        (
          await db
            .updateTable("history_import_state")
            .set({ requested_at: at })
            .where("customer_id", "=", customerId)
            .where("requested_at", "<", dueBefore)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) === 1
    : Number(
        (
          await db
            .insertInto("history_import_state")
            .values({ customer_id: customerId, requested_at: at, imported_at: null, error: null })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst()
        ).numInsertedOrUpdatedRows ?? 0,
      ) === 1;
  if (claimed) await enqueue("history-import", { userId, customerId });
  return state?.error ? UNAVAILABLE : null;
}

/**
 * Whether an import queued by a page view has not ended yet: the history then
 * says it is loading outside changes and looks again until the job is done.
 */
export async function outsideChangesImporting(customerId: string): Promise<boolean> {
  const state = await getDb()
    .selectFrom("history_import_state")
    .select(["requested_at", "imported_at", "error"])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return !!state && state.error === null && state.requested_at > (state.imported_at ?? "");
}
