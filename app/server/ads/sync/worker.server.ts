import { parentPort } from "node:worker_threads";
import { adoptConfig, type AppConfig } from "../../env.server";
import { runSyncJob } from "./job.server";

/**
 * Entry of the sync worker thread (runner.server.ts starts it; the build
 * bundles it as build/server/sync-worker.js). Parsing, validation and the
 * database writes of syncs run here, so the server's thread keeps answering.
 * One thread serves every sync of the process, started on first use.
 */

export interface JobInput {
  config: AppConfig;
  userId: string;
  customerId: string;
  runId: string;
  /** The time the runner's injected clock gave (tests pin it); null: the real clock. */
  fixedNowMs: number | null;
  /** Wait for the runner's acknowledgement after each step (it reports progress to a caller). */
  acks: boolean;
}

export type ToWorker = { type: "run"; jobId: number; input: JobInput } | { type: "ack"; jobId: number };
export type FromWorker = { type: "step"; jobId: number } | { type: "done"; jobId: number } | { type: "error"; jobId: number; message: string };

const port = parentPort!;
const acks = new Map<number, () => void>();
const post = (message: FromWorker) => port.postMessage(message);

port.on("message", (message: ToWorker) => {
  if (message.type === "ack") {
    acks.get(message.jobId)?.();
    return;
  }
  const { jobId, input } = message;
  adoptConfig(input.config);
  runSyncJob({
    userId: input.userId,
    customerId: input.customerId,
    runId: input.runId,
    clock: () => new Date(input.fixedNowMs ?? Date.now()),
    onStep: async () => {
      if (!input.acks) return post({ type: "step", jobId });
      await new Promise<void>((resolve) => {
        acks.set(jobId, resolve);
        post({ type: "step", jobId });
      });
      acks.delete(jobId);
    },
  }).then(
    () => post({ type: "done", jobId }),
    (error: unknown) => post({ type: "error", jobId, message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
