import { z } from "zod";
import type { DB } from "../db/db.server";
import { defineJob, enqueue } from "../jobs/jobs.server";
import { log } from "../log.server";
import { checkAlerts } from "./alerts.server";

/**
 * The anomaly checks after a refresh (issue 31 point 3), as a job: queued by
 * every sync that switched new data in (beside the recommendations engine),
 * one per account at a time, so alerts come for accounts nobody opened.
 */
const AlertCheck = z.object({
  customerId: z.string().min(1),
  /** The sync's clock when it finished (tests pin it). */
  nowMs: z.number().int(),
});

defineJob("alert-check", {
  schema: AlertCheck,
  singletonKey: (d) => d.customerId,
  whileRunning: "queue",
  handler: async ({ customerId, nowMs }) => {
    const found = await checkAlerts(customerId, new Date(nowMs));
    if (found.length) log.info({ customerId, rules: found.map((f) => f.rule) }, `Anomaly checks found ${found.length} condition(s)`);
  },
  onFailed: ({ customerId }, reason) => {
    log.warn(`The anomaly checks for ${customerId} failed after every retry: ${reason}`);
    return Promise.resolve();
  },
});

export async function queueAlertCheck(db: DB, customerId: string, now: Date): Promise<void> {
  await enqueue("alert-check", { customerId, nowMs: now.getTime() }, { db });
}
