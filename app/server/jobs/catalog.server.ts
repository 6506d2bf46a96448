import { z } from "zod";
import { syncAccount } from "../ads/sync.server";
import { defineJob } from "./jobs.server";
// Kinds defined beside the code that queues them (imported for their registration).
import "../changes/settle-jobs.server";
import "../email/outbox.server";
import "../optimizer/engine-job.server";
import "../changes/history-import.server";

/**
 * Every kind of job this app runs, registered at boot (boot.server.ts imports
 * this module before startJobs). The queues and their retry policies are in
 * queues.server.ts.
 */

// The sync scheduler's job (issue 26 owns it; /work/notes/jobs-contract.md): one account's sync,
// one at a time per account across every instance.
defineJob("sync-account", {
  schema: z.object({ userId: z.string().min(1), customerId: z.string().min(1) }),
  singletonKey: (d) => d.customerId,
  handler: async ({ userId, customerId }) => {
    const state = await syncAccount(userId, customerId);
    // The sync stores its own failure (the page shows it); the job says the same.
    if (state.status === "failed") throw new Error(state.lastError ?? "the sync failed");
  },
});
