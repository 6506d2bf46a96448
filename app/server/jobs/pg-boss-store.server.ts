import PgBoss from "pg-boss";
import { CompiledQuery, sql, type Kysely } from "kysely";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";
import { isUniqueViolation } from "../db/unique-violation.server";
import { QUEUE_NAMES, QUEUES, type QueueName } from "./queues.server";
import type { FetchedJob, Outcome, QueueStore } from "./worker-pool.server";

/**
 * The PostgreSQL back end: pg-boss 10 (its queue in the `pgboss` schema of the
 * app's database, through the app's own connection pool) plus leases
 * (job_leases, 0130) for what pg-boss 10 lacks (ADR 022):
 * - a heartbeat: a running job's lease is beaten every few seconds; a lease
 *   not beaten for LEASE seconds belongs to a dead instance, and any instance
 *   fails that attempt with the reason, so pg-boss retries it elsewhere;
 * - one running job per singleton key across instances (a unique index on the
 *   leases; pg-boss's singleton/stately policies stop the whole queue when the
 *   next job's key is busy);
 * - fenced completion: an attempt's outcome is written only while its lease
 *   is still its own, in the same transaction as pg-boss's complete/fail.
 * Queues use pg-boss's "short" policy (one queued job per key); enqueue also
 * refuses a key whose job waits for a retry (and one that runs, for kinds that
 * skip while running), as on SQLite.
 */
export const PG_BOSS_SCHEMA = "pgboss";

/** pg-boss's connection: queries on the app's Kysely (a transaction, to queue a job with the write that needs it). */
export function executorOf(db: Kysely<Database>): PgBoss.Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

function queueOptions(name: QueueName): PgBoss.Queue {
  const s = QUEUES[name];
  return {
    name,
    policy: "short",
    retryLimit: s.retryLimit,
    retryDelay: s.retryDelaySeconds,
    retryBackoff: s.retryBackoff,
    // pg-boss's own expiry is only the backstop: the worker stops a run at its timeout.
    expireInSeconds: s.timeoutSeconds + 300,
  };
}

export function newPgBoss(db: DB, opts: { work: boolean }): PgBoss {
  return new PgBoss({
    db: executorOf(db),
    schema: PG_BOSS_SCHEMA,
    migrate: true,
    // Maintenance (expiry, archiving) and cron only where jobs are worked on; a sender needs neither.
    supervise: opts.work,
    schedule: opts.work,
  });
}

/**
 * Installs (or upgrades) pg-boss's schema and creates every queue: idempotent, safe from several
 * instances at once. Part of migrating the database (db.server.ts's migrateToLatest).
 */
export async function installQueues(boss: PgBoss): Promise<void> {
  await boss.start();
  const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
  for (const name of QUEUE_NAMES) {
    const wanted = queueOptions(name);
    const found = existing.get(name);
    if (!found) await boss.createQueue(name, wanted);
    // A queue created by an older build keeps its old settings otherwise.
    else if ((["policy", "retryLimit", "retryDelay", "retryBackoff", "expireInSeconds"] as const).some((k) => found[k] !== wanted[k]))
      await boss.updateQueue(name, wanted);
  }
}

export async function pgEnqueue(
  db: Kysely<Database>,
  queue: QueueName,
  data: unknown,
  singletonKey: string | null,
  skipWhileRunning: boolean,
  startAfter?: Date,
) {
  if (singletonKey !== null) {
    // "short" refuses a second job in state created; one waiting for its retry is queued too, and a running one may count.
    const states = skipWhileRunning ? ["retry", "active"] : ["retry"];
    const busy = await sql`SELECT 1 FROM ${sql.table(`${PG_BOSS_SCHEMA}.job`)}
      WHERE name = ${queue} AND singleton_key = ${singletonKey} AND state::text = ANY(${states}) LIMIT 1`.execute(db);
    if (busy.rows.length > 0) return null;
  }
  // Sending needs no started pg-boss: its schema and queues are installed with the migrations (db.server.ts).
  const boss = new PgBoss({ db: executorOf(db), schema: PG_BOSS_SCHEMA });
  return boss.send(queue, data as object, { singletonKey: singletonKey ?? undefined, startAfter });
}

export class PgBossStore implements QueueStore {
  /** Jobs whose lease this instance holds. */
  readonly held = new Map<string, { queue: QueueName; job: FetchedJob }>();

  constructor(
    private readonly db: DB,
    private readonly boss: PgBoss,
    private readonly holder: string,
  ) {}

  async fetch(queue: QueueName): Promise<FetchedJob | null> {
    const [job] = await this.boss.fetch<unknown>(queue, { batchSize: 1, includeMetadata: true });
    if (!job) return null;
    return { id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit, singletonKey: job.singletonKey };
  }

  async claim(queue: QueueName, job: FetchedJob): Promise<boolean> {
    try {
      await this.db
        .insertInto("job_leases")
        .values({ job_id: job.id, queue, singleton_key: job.singletonKey, holder: this.holder, attempt: job.retryCount })
        .execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return false;
    }
    this.held.set(job.id, { queue, job });
    return true;
  }

  /** A job fetched but not run (its key was busy): completed with why. */
  async release(queue: QueueName, job: FetchedJob, output: Record<string, string>): Promise<void> {
    await this.boss.complete(queue, job.id, output);
  }

  async finish(queue: QueueName, job: FetchedJob, outcome: Outcome): Promise<{ recorded: boolean; final: boolean }> {
    this.held.delete(job.id);
    return this.db.transaction().execute(async (trx) => {
      const released = await trx
        .deleteFrom("job_leases")
        .where("job_id", "=", job.id)
        .where("holder", "=", this.holder)
        .where("attempt", "=", job.retryCount)
        .executeTakeFirst();
      if (Number(released.numDeletedRows) !== 1) return { recorded: false, final: false };
      const db = executorOf(trx);
      // Which instance ran it, beside the outcome (an operator's question after a takeover).
      if (outcome.state === "failed") {
        await this.boss.fail(queue, job.id, { message: outcome.reason, instance: this.holder }, { db });
        return { recorded: true, final: job.retryCount >= job.retryLimit };
      }
      // The output argument is not optional: with three arguments pg-boss would take { db } for the output.
      await this.boss.complete(queue, job.id, { ...(outcome.state === "retry-later" ? { retryLater: outcome.reason } : {}), instance: this.holder }, { db });
      return { recorded: true, final: false };
    });
  }

  /** Beats this instance's leases; returns the ids of held jobs whose lease is gone (taken over elsewhere). */
  async beat(): Promise<string[]> {
    // Only the jobs still held: a lease whose outcome could not be written is left to expire, so its job runs again.
    const ids = [...this.held.keys()];
    if (ids.length === 0) return [];
    const rows = await sql<{ job_id: string }>`
      UPDATE job_leases SET beat_at = now() WHERE holder = ${this.holder} AND job_id = ANY(${ids}) RETURNING job_id`.execute(this.db);
    const alive = new Set(rows.rows.map((r) => r.job_id));
    return ids.filter((id) => !alive.has(id));
  }

  /**
   * Fails the attempts whose instance stopped beating for `leaseSeconds`
   * (pg-boss retries them, here or elsewhere). Returns those that failed for
   * good. Any instance may run it; each lease is taken by one.
   */
  async reap(leaseSeconds: number): Promise<Array<{ queue: QueueName; data: unknown; reason: string }>> {
    const reason = `the instance running it stopped (no heartbeat for ${leaseSeconds} s); handed to another instance`;
    const reaped = await this.db.transaction().execute(async (trx) => {
      const dead = await sql<{ job_id: string; queue: QueueName }>`
        DELETE FROM job_leases WHERE beat_at < now() - make_interval(secs => ${leaseSeconds}) RETURNING job_id, queue`.execute(trx);
      for (const lease of dead.rows) await this.boss.fail(lease.queue, lease.job_id, { message: reason }, { db: executorOf(trx) });
      // Nothing was wrong with the job itself: its retry starts at once, not after the queue's backoff.
      const ids = dead.rows.map((r) => r.job_id);
      if (ids.length > 0)
        await sql`UPDATE ${sql.table(`${PG_BOSS_SCHEMA}.job`)} SET start_after = now() WHERE id = ANY(${ids}::uuid[]) AND state = 'retry'`.execute(trx);
      return dead.rows;
    });
    const finalFailures: Array<{ queue: QueueName; data: unknown; reason: string }> = [];
    for (const lease of reaped) {
      const job = await this.boss.getJobById<unknown>(lease.queue, lease.job_id);
      if (job?.state === "failed") finalFailures.push({ queue: lease.queue, data: job.data, reason });
    }
    return finalFailures;
  }

  async depth(): Promise<Map<string, { queued: number; active: number }>> {
    const rows = await sql<{ name: string; state: string; n: number }>`
      SELECT name, state::text AS state, count(*)::int AS n FROM ${sql.table(`${PG_BOSS_SCHEMA}.job`)}
      WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`.execute(this.db);
    const out = new Map<string, { queued: number; active: number }>();
    for (const r of rows.rows) {
      if (r.name.startsWith("__pgboss")) continue;
      const entry = out.get(r.name) ?? { queued: 0, active: 0 };
      if (r.state === "active") entry.active += r.n;
      else entry.queued += r.n;
      out.set(r.name, entry);
    }
    return out;
  }
}
