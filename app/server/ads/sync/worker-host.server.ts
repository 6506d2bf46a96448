import { Worker } from "node:worker_threads";
import { getConfig } from "../../env.server";
import type { FromWorker, JobInput, OptimizeInput, OptimizeSummary, ToWorker } from "./worker.server";

/**
 * The server thread's side of the background worker thread (worker.server.ts):
 * syncs and recommendations-engine runs are posted to it, so parsing, SQL
 * aggregation over a million rows and the rules never hold up the requests
 * this thread serves (ADR 013). One thread for the process, started on first
 * use (its modules take a moment to load), let go after a minute without jobs.
 */

interface PendingJob {
  onStep?: () => Promise<void>;
  acks: boolean;
  resolve: (summary: OptimizeSummary | undefined) => void;
  reject: (error: Error) => void;
}

const WORKER_IDLE_MS = 60_000;
const WORKER_HEAP_MB = 256;
const WORKER_YOUNG_MB = 32;
let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextJobId = 1;
const jobs = new Map<number, PendingJob>();

/** Where the worker's code is: beside this module in development and tests (run through tsx), beside the server bundle in a build. */
function workerUrl(): URL {
  const here = import.meta.url;
  // Names in variables: Vite would otherwise take `new URL("…", import.meta.url)` for an asset to bundle.
  const source = "./worker-dev.mjs";
  const built = "./sync-worker.js";
  return new URL(here.endsWith(".ts") ? source : built, here);
}

function backgroundWorker(): Worker {
  clearTimeout(idleTimer);
  if (worker) return worker;
  // A sync holds one batch at a time; a capped heap makes V8 collect instead of growing (peak RSS).
  // The young generation is sized for a batch: a searchStream element (up to 10,000 rows) parses
  // into objects that die once the batch is staged. With 16 MB they outlived the young generation
  // and were promoted, to be collected by full GCs. The 100k-keyword sync, alternating runs: 16 MB
  // 17.0 s at 262-269 MB peak RSS, 48 MB 15.2 s at 278-284 MB, 64 MB 14.2 s at 310-331 MB; 64 MB
  // took the server's own peak during that sync (the bench's during-sync part) to 401 MB.
  // 2026-11-26: with the batch decoder and the marker splitter a batch leaves far less garbage, and
  // the summed window totals (~13 MB for that account) live through the sync; at 48 MB the server's
  // peak reached 409-414 MB, at 32 MB 385-398 MB, the sync's time within the VM's noise.
  const w = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
  // Never the reason the process stays up (tests, shutdown).
  w.unref();
  w.on("message", (message: FromWorker) => {
    const job = jobs.get(message.jobId);
    if (!job) return;
    if (message.type === "step") {
      void (job.onStep?.() ?? Promise.resolve()).finally(() => {
        if (job.acks) w.postMessage({ type: "ack", jobId: message.jobId } satisfies ToWorker);
      });
      return;
    }
    jobs.delete(message.jobId);
    if (message.type === "done") job.resolve(message.summary);
    else job.reject(new Error(message.message));
    if (jobs.size === 0) idleTimer = setTimeout(() => void w.terminate(), WORKER_IDLE_MS).unref();
  });
  const fail = (error: Error) => {
    if (worker === w) worker = undefined;
    for (const job of jobs.values()) job.reject(error);
    jobs.clear();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`the background worker exited with code ${code}`)));
  worker = w;
  return w;
}

function post(job: PendingJob, message: (jobId: number) => ToWorker): void {
  const w = backgroundWorker();
  const jobId = nextJobId++;
  jobs.set(jobId, job);
  w.postMessage(message(jobId));
}

/** Runs a sync job in the worker; resolves once its outcome is stored (the engine included, after a success). */
export function syncInWorker(input: Omit<JobInput, "config">, onStep: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    post({ onStep, acks: input.acks, resolve: () => resolve(), reject }, (jobId) => ({ type: "run", jobId, input: { ...input, config: getConfig() } }));
  });
}

/** Runs the recommendations engine for one account in the worker. */
export function optimizeInWorker(input: Omit<OptimizeInput, "config">): Promise<OptimizeSummary> {
  return new Promise<OptimizeSummary>((resolve, reject) => {
    post({ acks: false, resolve: (summary) => (summary ? resolve(summary) : reject(new Error("the engine run returned no summary"))), reject }, (jobId) => ({
      type: "optimize",
      jobId,
      input: { ...input, config: getConfig() },
    }));
  });
}

/**
 * Starts the worker ahead of a sync that is about to come (Google sign-in's
 * callback: the first sync follows at once), so its modules load while the
 * callback talks to Google instead of after. Let go after the idle minute if
 * no job comes. Only for the built server: in development and tests the worker
 * runs through tsx, where loading it costs seconds of CPU a test that never
 * syncs should not pay.
 */
export function warmWorker(): void {
  if (worker || import.meta.url.endsWith(".ts")) return;
  const w = backgroundWorker();
  if (jobs.size === 0) idleTimer = setTimeout(() => void w.terminate(), WORKER_IDLE_MS).unref();
}

/**
 * Starts the worker if it is not running and resolves once its modules have
 * loaded, in development and tests too (the benchmark: a sync's time is the
 * sync's, as after the sign-in callback's warmWorker in production).
 */
export function workerReady(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    post({ acks: false, resolve: () => resolve(), reject }, (jobId) => ({ type: "ping", jobId }));
  });
}

/** Shutdown: stops the worker and whatever it runs now. */
export async function stopWorker(): Promise<void> {
  clearTimeout(idleTimer);
  await worker?.terminate();
}
