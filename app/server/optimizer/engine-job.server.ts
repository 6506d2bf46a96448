import { z } from "zod";
import type { DB } from "../db/db.server";
import { getDb } from "../db/db.server";
import { defineJob, enqueue } from "../jobs/jobs.server";
import { log } from "../log.server";
import { endAnalysis } from "./in-flight.server";
import { runOptimizerOffThread } from "./run.server";
import { queueImpactRecords } from "../impact/job.server";
import { queueAlertCheck } from "../agency/alert-job.server";

/**
 * The recommendations engine after a sync, as a job (issue 27 point 1): one
 * running per account across every instance, and one more queued when a sync
 * brings new data while it runs (it did not see that data). The sync queues it
 * right after switching its data in; the run happens in this process's
 * background worker thread. A failing engine never fails the sync that
 * succeeded: the job retries, and its in-flight record ends either way.
 */
const EngineRun = z.object({
  customerId: z.string().min(1),
  /** The "Analysing your data…" record the sync wrote with its data (in-flight.server.ts). */
  inFlightId: z.string().min(1).nullable(),
  /** The engine's "now": the sync's clock when it finished (tests and the bench pin it). */
  nowMs: z.number().int(),
});

defineJob("engine-run", {
  schema: EngineRun,
  singletonKey: (d) => d.customerId,
  whileRunning: "queue",
  handler: async ({ customerId, inFlightId, nowMs }) => {
    await runOptimizerOffThread(customerId, { now: new Date(nowMs), inFlightId: inFlightId ?? undefined });
  },
  onFailed: async ({ customerId, inFlightId }, reason) => {
    log.warn(`The recommendations engine for ${customerId} failed after every retry: ${reason}`);
    if (inFlightId) await endAnalysis(getDb(), customerId, inFlightId);
  },
});

/** Queues the engine over the data a sync just switched in. One already queued covers this data too: this run's record goes. */
export async function queueEngineRun(db: DB, customerId: string, inFlightId: string, now: Date): Promise<void> {
  // The changes' measured effects follow the same new data (impact/job.server.ts).
  await queueImpactRecords(customerId, db);
  // So do the anomaly checks (agency/alert-job.server.ts): alerts for accounts nobody opened.
  await queueAlertCheck(db, customerId, now);
  const id = await enqueue("engine-run", { customerId, inFlightId, nowMs: now.getTime() }, { db });
  if (!id) await endAnalysis(db, customerId, inFlightId);
}
