import { z } from "zod";
import { getDb } from "~/server/db/db.server";
import { defineJob, startJobs } from "~/server/jobs/jobs.server";

/**
 * Test support only (jobs.server.test.ts runs it with tsx and SIGKILLs it): an
 * instance that works on the "engine-run" queue, says which job it started,
 * and never finishes it. Config (the database) comes from the environment.
 */
defineJob("engine-run", {
  schema: z.object({ customerId: z.string() }),
  handler: async (_data, ctx) => {
    process.stdout.write(`started ${ctx.jobId} ${ctx.attempt}\n`);
    await new Promise(() => {});
  },
});
await startJobs({ db: getDb(), pollMs: 100, leaseSeconds: Number(process.env.JOB_LEASE_SECONDS), beatMs: 300 });
process.stdout.write("ready\n");
