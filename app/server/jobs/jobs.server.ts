import { randomUUID } from "node:crypto";
import os from "node:os";
import parser from "cron-parser";
import { PostgresAdapter, type Kysely } from "kysely";
import type PgBoss from "pg-boss";
import { getDb, type DB } from "../db/db.server";
import type { Database } from "../db/schema";
import { errorMessage, log } from "../log.server";
import type { CheckResult } from "../lifecycle/readiness.server";
import { definedQueues, jobDefinition } from "./definitions.server";
import { newPgBoss, pgEnqueue, PgBossStore } from "./pg-boss-store.server";
import { QUEUES, type QueueName, type QueueSettings } from "./queues.server";
import { SqliteStore, sqliteEnqueue } from "./sqlite-store.server";
import { failedForGood, WorkerPool, type Outcome } from "./worker-pool.server";

/**
 * Background work (ADR 022): one interface, two back ends. On PostgreSQL jobs
 * run on pg-boss across every instance (one running job per singleton key,
 * cron once per schedule, a dead instance's jobs handed to another); on SQLite
 * (one instance) the same interface runs in this process from the `jobs`
 * table. Every job ends completed, or failed with its reason.
 *
 *   queues.server.ts        every queue and its retry policy
 *   definitions.server.ts   defineJob: a kind's data schema, handler, failure hook
 *   catalog.server.ts       the handlers this app registers
 *   worker-pool.server.ts   polling, running, recording outcomes (both back ends)
 *   pg-boss-store.server.ts / sqlite-store.server.ts  the two back ends
 */
export { defineJob, RetryLater, type JobContext, type JobDefinition } from "./definitions.server";
export { QUEUES, type QueueName } from "./queues.server";

export interface EnqueueOptions {
  /** Defaults to the kind's own singletonKey(data). */
  singletonKey?: string;
  startAfter?: Date;
  /** A transaction: the job is queued only if it commits (the write that needs the job and the job, together). */
  db?: Kysely<Database>;
}

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Queues a job. Returns its id, or null when a job with the same singleton key
 * is already queued, or running and the kind says "skip" while running (that
 * one does the work). The data must match the kind's schema (a ZodError
 * otherwise, and nothing is queued).
 */
export async function enqueue<T>(name: QueueName, data: T, opts: EnqueueOptions = {}): Promise<string | null> {
  const definition = jobDefinition(name);
  const parsed = definition.schema.parse(data);
  const key = opts.singletonKey ?? definition.singletonKey?.(parsed) ?? null;
  const db = opts.db ?? getDb();
  const skipWhileRunning = (definition.whileRunning ?? "skip") === "skip";
  const id = isPostgres(db)
    ? await pgEnqueue(db, name, parsed, key, skipWhileRunning, opts.startAfter)
    : await sqliteEnqueue(db, name, parsed, key, skipWhileRunning, opts.startAfter);
  if (id) engine?.pool.notify(name);
  return id;
}

/** Jobs were queued from another thread (the sync's worker): this process's workers look now, not at their next poll. */
export function wakeJobs(name: QueueName) {
  engine?.pool.notify(name);
}

export interface StartOptions {
  db?: DB;
  /** How often an idle queue looks for new jobs (a job queued in this process is seen at once). */
  pollMs?: number;
  /** PostgreSQL: a running job's lease lasts this long without a heartbeat before another instance takes the job over. */
  leaseSeconds?: number;
  /** PostgreSQL: heartbeat (and dead-lease check) interval. */
  beatMs?: number;
}

interface Engine {
  backend: "postgres" | "sqlite";
  pool: WorkerPool;
  depth(): Promise<Map<string, { queued: number; active: number }>>;
  stop(graceMs: number): Promise<void>;
}

let engine: Engine | undefined;
let startError: string | null = null;
/** Failed attempts per queue since start (metrics). */
const observers: Array<(queue: QueueName, outcome: Outcome["state"], seconds: number) => void> = [];

export const DEFAULT_LEASE_SECONDS = 30;
const POLL_MS = 2_000;

/** Starts working on jobs (every queue with a handler) and the cron schedules. Once per process, at boot. */
export async function startJobs(opts: StartOptions = {}): Promise<void> {
  if (engine) return;
  const db = opts.db ?? getDb();
  const pollMs = opts.pollMs ?? POLL_MS;
  const hooks = {
    requeue: (queue: QueueName, data: unknown, singletonKey: string | null, at: Date) =>
      enqueue(queue, data, { singletonKey: singletonKey ?? undefined, startAfter: at, db }),
    observed: (queue: QueueName, outcome: Outcome["state"], seconds: number) => observers.forEach((o) => o(queue, outcome, seconds)),
  };
  try {
    engine = isPostgres(db)
      ? await startPostgres(db, pollMs, opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS, opts.beatMs ?? 10_000, hooks)
      : await startSqlite(db, pollMs, hooks);
    startError = null;
  } catch (error) {
    startError = errorMessage(error);
    throw error;
  }
}

type Hooks = ConstructorParameters<typeof WorkerPool>[2];

async function startPostgres(db: DB, pollMs: number, leaseSeconds: number, beatMs: number, hooks: Hooks): Promise<Engine> {
  const boss = newPgBoss(db, { work: true });
  boss.on("error", (error: Error) => log.warn(`pg-boss: ${error.message}`));
  await boss.start();
  await applySchedules(boss);
  const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const store = new PgBossStore(db, boss, holder);
  const pool = new WorkerPool(store, definedQueues(), hooks, pollMs, "postgres");
  pool.start();
  let beating: Promise<void> | undefined;
  const beat = async () => {
    for (const id of await store.beat()) pool.abandon(id, "its lease was taken over by another instance");
    for (const dead of await store.reap(leaseSeconds)) await failedForGood(dead.queue, dead.data, dead.reason);
  };
  const timer = setInterval(() => {
    beating ??= beat()
      .catch((error: unknown) => log.warn(`Job leases: heartbeat failed (will retry): ${errorMessage(error)}`))
      .finally(() => (beating = undefined));
  }, beatMs);
  timer.unref();
  return {
    backend: "postgres",
    pool,
    depth: () => store.depth(),
    stop: async (graceMs) => {
      await pool.stop(graceMs);
      clearInterval(timer);
      await beating;
      await boss.stop({ graceful: false, close: false });
    },
  };
}

/** Cron queues with a handler here are scheduled (pg-boss runs each once per minute slot across instances); the others are not. */
async function applySchedules(boss: PgBoss) {
  const defined = new Set(definedQueues());
  for (const [name, settings] of Object.entries(QUEUES) as Array<[QueueName, QueueSettings]>) {
    if (!settings.cron) continue;
    if (defined.has(name)) await boss.schedule(name, settings.cron, {}, { tz: "UTC", singletonKey: name });
    else await boss.unschedule(name);
  }
}

async function startSqlite(db: DB, pollMs: number, hooks: Hooks): Promise<Engine> {
  const store = new SqliteStore(db);
  for (const left of await store.recover("the server stopped while it ran")) {
    await failedForGood(left.queue, left.data, "the server stopped while it ran");
  }
  const pool = new WorkerPool(store, definedQueues(), hooks, pollMs, "sqlite");
  pool.start();
  const timers: NodeJS.Timeout[] = [];
  for (const name of definedQueues()) {
    const { cron } = QUEUES[name];
    if (cron) cronTimer(name, cron, db, timers);
  }
  const prune = setInterval(
    () => void store.prune(new Date(Date.now() - 7 * 86_400_000)).catch((e: unknown) => log.warn(`Pruning old jobs: ${errorMessage(e)}`)),
    3_600_000,
  );
  prune.unref();
  timers.push(prune);
  return {
    backend: "sqlite",
    pool,
    depth: () => store.depth(),
    stop: async (graceMs) => {
      for (const t of timers) clearTimeout(t);
      await pool.stop(graceMs);
    },
  };
}

/** In process: the next minute slot of the schedule (UTC), then the next, … */
function cronTimer(queue: QueueName, cron: string, db: DB, timers: NodeJS.Timeout[]) {
  const next = parser.parseExpression(cron, { tz: "UTC" }).next().getTime();
  const timer = setTimeout(
    () => {
      void enqueue(queue, {}, { singletonKey: queue, db }).catch((e: unknown) => log.warn(`Scheduling ${queue}: ${errorMessage(e)}`));
      cronTimer(queue, cron, db, timers);
    },
    Math.max(0, next - Date.now()),
  );
  timer.unref();
  timers.push(timer);
}

/** Shutdown: stops taking jobs; running ones get `graceMs` to finish, then are failed with that reason (and retried). */
export async function stopJobs(graceMs = 5_000): Promise<void> {
  const current = engine;
  engine = undefined;
  await current?.stop(graceMs);
}

/** /readyz's "jobs" check: started, and its queues are being polled. */
export function jobsReadiness(): CheckResult {
  if (!engine) return { ok: false, reason: startError ? `could not start: ${startError}` : "not started" };
  const { pool } = engine;
  if (pool.lastPollError) return { ok: false, reason: `cannot fetch jobs: ${pool.lastPollError}` };
  return { ok: true };
}

/** Jobs queued (waiting, or waiting for a retry) and running, per queue; empty before start. */
export async function queueDepth(): Promise<Map<string, { queued: number; active: number }>> {
  return engine ? engine.depth() : new Map();
}

export function onJobAttempt(observer: (queue: QueueName, outcome: Outcome["state"], seconds: number) => void) {
  observers.push(observer);
}

export function jobBackend(): "postgres" | "sqlite" | null {
  return engine?.backend ?? null;
}
