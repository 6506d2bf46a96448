import { errorMessage, log } from "../log.server";
import { jobDefinition, RetryLater } from "./definitions.server";
import { QUEUES, type QueueName } from "./queues.server";

/**
 * Runs jobs taken from a queue store (pg-boss on PostgreSQL, the `jobs` table
 * on SQLite): one polling loop per queue, up to the queue's concurrency at a
 * time, each run bounded by its timeout, every outcome recorded with its
 * reason. The stores differ only in how they fetch, hold and finish a job.
 */
export interface FetchedJob {
  id: string;
  data: unknown;
  /** Failed attempts before this one. */
  retryCount: number;
  retryLimit: number;
  singletonKey: string | null;
}

export type Outcome = { state: "completed" } | { state: "retry-later"; reason: string; at: Date } | { state: "failed"; reason: string };

export interface QueueStore {
  fetch(queue: QueueName): Promise<FetchedJob | null>;
  /** Takes the job's lease before it runs; false when another run holds its key. */
  claim(queue: QueueName, job: FetchedJob): Promise<boolean>;
  /** Completes a job that was fetched but not run, with why. */
  release(queue: QueueName, job: FetchedJob, output: Record<string, string>): Promise<void>;
  /** Records the outcome unless the lease was lost meanwhile (then `recorded` is false and nothing is written). */
  finish(queue: QueueName, job: FetchedJob, outcome: Outcome): Promise<{ recorded: boolean; final: boolean }>;
}

export interface PoolHooks {
  /** A job to queue again later (RetryLater), once this one is finished. */
  requeue(queue: QueueName, data: unknown, singletonKey: string | null, at: Date): Promise<unknown>;
  /** Every attempt's end (metrics). */
  observed?(queue: QueueName, outcome: Outcome["state"], seconds: number): void;
}

interface Running {
  queue: QueueName;
  job: FetchedJob;
  abort: AbortController;
  done: Promise<void>;
}

const SHUTDOWN_REASON = "the server shut down while it ran";
/** A job whose key is busy and that must still run comes back this much later. */
const KEY_BUSY_RETRY_MS = 5_000;

export class WorkerPool {
  private stopped = true;
  private readonly running = new Map<string, Running>();
  private readonly wakers = new Map<QueueName, () => void>();
  private loops: Promise<void>[] = [];
  /** When a fetch last succeeded (readiness: the engine is polling). */
  lastPollAt = 0;
  lastPollError: string | null = null;

  constructor(
    private readonly store: QueueStore,
    private readonly queues: QueueName[],
    private readonly hooks: PoolHooks,
    private readonly pollMs: number,
    private readonly backend: "postgres" | "sqlite",
  ) {}

  start() {
    this.stopped = false;
    this.loops = this.queues.map((queue) => this.loop(queue));
  }

  /** A job was queued in this process: look now rather than at the next poll. */
  notify(queue: QueueName) {
    this.wakers.get(queue)?.();
  }

  runningJobs(): Array<{ queue: QueueName; job: FetchedJob }> {
    return [...this.running.values()].map(({ queue, job }) => ({ queue, job }));
  }

  /** The lease of a running job was lost (another instance took it over): stop it; its result will not be recorded. */
  abandon(jobId: string, reason: string) {
    this.running.get(jobId)?.abort.abort(new Error(reason));
  }

  /**
   * Stops taking jobs, lets running ones finish for up to `graceMs`, then
   * stops them and records them as failed (retried, on another instance if
   * one is up).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    for (const wake of this.wakers.values()) wake();
    await Promise.all(this.loops);
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    if (await settlesWithin(all(), graceMs)) return;
    for (const r of this.running.values()) r.abort.abort(new Error(SHUTDOWN_REASON));
    if (await settlesWithin(all(), 2_000)) return;
    // Handlers that ignore their signal: their attempt is recorded as failed now; whatever they do later is not.
    await Promise.all(
      [...this.running.values()].map((r) =>
        this.store.finish(r.queue, r.job, { state: "failed", reason: SHUTDOWN_REASON }).catch((error: unknown) => {
          log.warn(`Job ${r.queue} ${r.job.id}: could not record that the server shut down: ${errorMessage(error)}`);
        }),
      ),
    );
  }

  private async loop(queue: QueueName) {
    const setting = QUEUES[queue].concurrency;
    const concurrency = typeof setting === "number" ? setting : setting[this.backend];
    while (!this.stopped) {
      if (this.countRunning(queue) >= concurrency) {
        await this.sleep(queue);
        continue;
      }
      let job: FetchedJob | null;
      try {
        job = await this.store.fetch(queue);
        this.lastPollAt = Date.now();
        this.lastPollError = null;
      } catch (error) {
        this.lastPollError = errorMessage(error);
        log.warn(`Job queue ${queue}: could not fetch (will retry): ${this.lastPollError}`);
        await this.sleep(queue);
        continue;
      }
      if (!job) {
        await this.sleep(queue);
        continue;
      }
      this.execute(queue, job);
    }
  }

  private countRunning(queue: QueueName) {
    let n = 0;
    for (const r of this.running.values()) if (r.queue === queue) n += 1;
    return n;
  }

  private sleep(queue: QueueName): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(queue, done);
    });
  }

  private execute(queue: QueueName, job: FetchedJob) {
    const abort = new AbortController();
    const entry = { queue, job, abort } as Running;
    entry.done = this.runOne(queue, job, abort).finally(() => {
      this.running.delete(job.id);
      this.notify(queue);
    });
    this.running.set(job.id, entry);
  }

  private async runOne(queue: QueueName, job: FetchedJob, abort: AbortController) {
    const started = performance.now();
    try {
      if (!(await this.store.claim(queue, job))) {
        // Queued in the instant the key's previous job started (or, for "queue" kinds, while it ran).
        const queueAfter = jobDefinition(queue).whileRunning === "queue";
        await this.store.release(queue, job, { skipped: `another ${queue} job for ${job.singletonKey} was running` });
        if (queueAfter) await this.hooks.requeue(queue, job.data, job.singletonKey, new Date(Date.now() + KEY_BUSY_RETRY_MS));
        return;
      }
      const outcome = await runAttempt(queue, job, abort);
      const { recorded, final } = await this.store.finish(queue, job, outcome);
      this.hooks.observed?.(queue, outcome.state, (performance.now() - started) / 1000);
      if (!recorded) {
        log.warn(`Job ${queue} ${job.id}: its lease was lost while it ran (another instance took it over); this run's outcome is not recorded`);
        return;
      }
      if (outcome.state === "retry-later") {
        await this.hooks.requeue(queue, job.data, job.singletonKey, outcome.at);
      } else if (outcome.state === "failed") {
        const attempt = job.retryCount + 1;
        log.warn(`Job ${queue} ${job.id} failed (attempt ${attempt} of ${job.retryLimit + 1}${final ? ", the last" : ""}): ${outcome.reason}`);
        if (final) await failedForGood(queue, job.data, outcome.reason);
      }
    } catch (error) {
      // The database is unreachable: the job stays active; its lease expires and it is run again (ADR 022).
      log.warn(`Job ${queue} ${job.id}: could not record its outcome: ${errorMessage(error)}`);
    }
  }
}

/** One attempt: the data checked against the kind's schema, the handler bounded by the queue's timeout and the abort signal. */
export async function runAttempt(queue: QueueName, job: FetchedJob, abort: AbortController): Promise<Outcome> {
  const definition = jobDefinition(queue);
  const parsed = definition.schema.safeParse(job.data);
  if (!parsed.success) return { state: "failed", reason: `invalid job data: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}` };
  const seconds = QUEUES[queue].timeoutSeconds;
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<Outcome>((resolve) => {
    const onAbort = () => resolve({ state: "failed", reason: errorMessage(abort.signal.reason) });
    if (abort.signal.aborted) onAbort();
    else abort.signal.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(() => abort.abort(new Error(`it ran longer than ${seconds} s and was stopped`)), seconds * 1000);
    timer.unref?.();
  });
  const ran = definition.handler(parsed.data, { jobId: job.id, attempt: job.retryCount + 1, signal: abort.signal }).then(
    (): Outcome => ({ state: "completed" }),
    (error: unknown): Outcome =>
      error instanceof RetryLater ? { state: "retry-later", reason: error.message, at: error.at } : { state: "failed", reason: errorMessage(error) },
  );
  try {
    return await Promise.race([ran, stopped]);
  } finally {
    clearTimeout(timer);
  }
}

/** Retries used up: the kind records why where people see it. */
export async function failedForGood(queue: QueueName, data: unknown, reason: string) {
  const definition = jobDefinition(queue);
  const parsed = definition.schema.safeParse(data);
  if (!definition.onFailed || !parsed.success) return;
  await definition.onFailed(parsed.data, reason).catch((error: unknown) => {
    log.warn(`Job ${queue}: could not record its final failure ("${reason}"): ${errorMessage(error)}`);
  });
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
