import { z } from "zod";
import { getDb, type DB } from "../db/db.server";
import { defineJob, enqueue, RetryLater } from "../jobs/jobs.server";
import { log } from "../log.server";

/**
 * Settling as jobs (issue 27 points 1 and 2). An apply queues a
 * "settle-change-set" job with its claim, due once the claim's lease could have
 * run out: if the applying worker finished, the job finds nothing to do; if it
 * died, the job settles the set (on whichever instance takes it); if it is
 * still working (its lease renewed), the job comes back when the lease would
 * end. A failure to reach Google is retried with backoff. "settle-sweep" (every
 * minute, once across instances) queues settling for any set left "applying"
 * with no live holder, whatever left it so.
 */
const SettleData = z.object({ changeSetId: z.string().min(1) });

/** Queues the settling of a set (in the caller's transaction when `db` is one); one per set at a time. */
export function enqueueSettling(db: DB, changeSetId: string, startAfter: Date) {
  return enqueue("settle-change-set", { changeSetId }, { db, startAfter });
}

defineJob("settle-change-set", {
  schema: SettleData,
  singletonKey: (d) => d.changeSetId,
  handler: async ({ changeSetId }) => {
    // Imported here: the apply pipeline queues this job, and this job runs the pipeline's settling.
    const { settleInFlightSet } = await import("./pipeline.server");
    const r = await settleInFlightSet(changeSetId);
    if (!r.settled) throw new RetryLater(`change set ${changeSetId} is still held or settling (until ${r.at.toISOString()})`, r.at);
    if (r.applied + r.failed > 0) log.info(`Settled change set ${changeSetId} with Google: ${r.applied} applied, ${r.failed} failed`);
  },
  onFailed: async ({ changeSetId }, reason) => {
    // The set stays "applying" ("Settling with Google…"); the sweep queues it again within a minute.
    log.warn(`Settling change set ${changeSetId} failed after every retry (the sweep will start again): ${reason}`);
  },
});

defineJob("settle-sweep", {
  schema: z.object({}),
  handler: async () => {
    const db = getDb();
    const now = new Date().toISOString();
    const orphans = await db
      .selectFrom("change_sets")
      .select("id")
      .where("status", "=", "applying")
      .where((eb) => eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", now)]))
      .execute();
    for (const { id } of orphans) await enqueueSettling(db, id, new Date());
  },
});
