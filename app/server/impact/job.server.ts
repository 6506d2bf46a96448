import { z } from "zod";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { defineJob, enqueue } from "../jobs/jobs.server";
import { errorMessage, log } from "../log.server";
import { impactRecords } from "./store.server";

/**
 * Impact records are computed in the background after each sync (the engine
 * run that follows it queues this job), one job per account across every
 * instance, so the pages read stored records instead of computing them. A
 * reader still computes a stale one itself (store.server.ts): a page is never
 * wrong for want of this job, only slower.
 */
defineJob("impact-records", {
  schema: z.object({ customerId: z.string().regex(/^\d{10}$/) }),
  singletonKey: (d) => d.customerId,
  handler: async ({ customerId }) => {
    await impactRecords(customerId);
  },
});

/** Queues the account's records for computing; a failure to queue is logged, never thrown (the readers compute what they need). */
export async function queueImpactRecords(customerId: string, db?: Kysely<Database>): Promise<void> {
  try {
    await enqueue("impact-records", { customerId }, { db });
  } catch (error) {
    log.warn(`Queueing the impact records of ${customerId}: ${errorMessage(error)}`);
  }
}
