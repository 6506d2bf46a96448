import { parentPort } from "node:worker_threads";
import { createDb } from "../../db/db.server";
import { adoptConfig, getConfig, type AppConfig } from "../../env.server";
import { runOptimizer, type RunSummary } from "../../optimizer/run.server";
import { runSyncJob } from "./job.server";
import type { QuotaPurpose } from "../quota.server";

/**
 * Entry of the background worker thread (worker-host.server.ts starts it; the
 * build bundles it as build/server/sync-worker.js). Syncs (parsing,
 * validation, database writes) and engine runs (after a sync, as a job, and
 * on demand) happen here, so the server's thread keeps answering. One thread
 * serves the whole process, started on first use.
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
  /** Read everything rather than only what can have changed. */
  full: boolean;
  purpose: QuotaPurpose;
}

export interface OptimizeInput {
  config: AppConfig;
  customerId: string;
  /** The engine's "now" (tests and the bench pin it); null: the real clock. */
  nowMs: number | null;
  /** The in-flight record written for this run beforehand (a sync's); null: one is written for it. */
  inFlightId: string | null;
}

export type OptimizeSummary = RunSummary;

export type ToWorker =
  | { type: "run"; jobId: number; input: JobInput }
  | { type: "optimize"; jobId: number; input: OptimizeInput }
  | { type: "ack"; jobId: number }
  | { type: "ping"; jobId: number };
export type FromWorker =
  { type: "step"; jobId: number } | { type: "done"; jobId: number; summary?: OptimizeSummary } | { type: "error"; jobId: number; message: string };

const port = parentPort!;
const acks = new Map<number, () => void>();
const post = (message: FromWorker) => port.postMessage(message);
const failure = (jobId: number) => (error: unknown) =>
  post({ type: "error", jobId, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });

port.on("message", (message: ToWorker) => {
  if (message.type === "ack") {
    acks.get(message.jobId)?.();
    return;
  }
  const { jobId } = message;
  // Answered once this module (and so everything a job needs) has loaded.
  if (message.type === "ping") return post({ type: "done", jobId });
  adoptConfig(message.input.config);
  if (message.type === "optimize") {
    const { customerId, nowMs, inFlightId } = message.input;
    // A connection per run, like a sync's: the configuration (tests: the database) may differ between jobs.
    const config = getConfig();
    const { db } = createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    runOptimizer(customerId, { db, now: nowMs === null ? undefined : new Date(nowMs), inFlightId: inFlightId ?? undefined })
      .finally(() => db.destroy())
      .then((summary) => post({ type: "done", jobId, summary }), failure(jobId));
    return;
  }
  const { input } = message;
  runSyncJob({
    userId: input.userId,
    customerId: input.customerId,
    runId: input.runId,
    clock: () => new Date(input.fixedNowMs ?? Date.now()),
    full: input.full,
    purpose: input.purpose,
    onStep: async () => {
      if (!input.acks) return post({ type: "step", jobId });
      await new Promise<void>((resolve) => {
        acks.set(jobId, resolve);
        post({ type: "step", jobId });
      });
      acks.delete(jobId);
    },
  }).then(() => post({ type: "done", jobId }), failure(jobId));
});
