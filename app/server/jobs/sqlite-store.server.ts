import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";
import { QUEUES, retryDelayMs, type QueueName } from "./queues.server";
import type { FetchedJob, Outcome, QueueStore } from "./worker-pool.server";

/**
 * The SQLite back end's queue: the `jobs` table (0130), run in this process
 * (SQLite serves one instance: boot refuses a second process on the same
 * file). The same semantics as the pg-boss back end: one queued job per
 * singleton key (a unique index) and one running (in memory: one process),
 * retries with pg-boss's backoff, a final
 * state with its reason. A job left "active" by a process that died is failed
 * with that reason at the next start, and retried if it has retries left.
 */
const iso = (ms: number) => new Date(ms).toISOString();

export async function sqliteEnqueue(
  db: DB,
  queue: QueueName,
  data: unknown,
  singletonKey: string | null,
  skipWhileRunning: boolean,
  startAfter?: Date,
): Promise<string | null> {
  const settings = QUEUES[queue];
  if (singletonKey !== null && skipWhileRunning) {
    const running = await db
      .selectFrom("jobs")
      .select("id")
      .where("queue", "=", queue)
      .where("singleton_key", "=", singletonKey)
      .where("state", "=", "active")
      .executeTakeFirst();
    if (running) return null;
  }
  const id = randomUUID();
  const now = Date.now();
  const r = await db
    .insertInto("jobs")
    .values({
      id,
      queue,
      data: JSON.stringify(data),
      state: "created",
      singleton_key: singletonKey,
      retry_count: 0,
      retry_limit: settings.retryLimit,
      retry_delay_seconds: settings.retryDelaySeconds,
      retry_backoff: settings.retryBackoff ? 1 : 0,
      start_after: iso(startAfter?.getTime() ?? now),
      created_at: iso(now),
      started_at: null,
      completed_at: null,
      output: null,
    })
    // One queued job per key (jobs_one_queued_per_key): a second is not queued.
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1 ? id : null;
}

export class SqliteStore implements QueueStore {
  constructor(private readonly db: DB) {}

  async fetch(queue: QueueName): Promise<FetchedJob | null> {
    const now = iso(Date.now());
    const row = await this.db
      .selectFrom("jobs")
      .selectAll()
      .where("queue", "=", queue)
      .where("state", "in", ["created", "retry"])
      .where("start_after", "<=", now)
      .orderBy("start_after")
      .orderBy("created_at")
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    const taken = await this.db
      .updateTable("jobs")
      // pg-boss's count: attempts before this one (a first run has none).
      .set((eb) => ({
        state: "active",
        started_at: now,
        retry_count: eb
          .case()
          .when("started_at", "is not", null)
          .then(eb("retry_count", "+", 1))
          .else(eb.ref("retry_count"))
          .end(),
      }))
      .where("id", "=", row.id)
      .where("state", "in", ["created", "retry"])
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return null;
    const retryCount = row.started_at === null ? row.retry_count : row.retry_count + 1;
    return { id: row.id, data: JSON.parse(row.data) as unknown, retryCount, retryLimit: row.retry_limit, singletonKey: row.singleton_key };
  }

  /** Keys running in this process (the only one on this database): one running job per key. */
  private readonly running = new Set<string>();

  async claim(queue: QueueName, job: FetchedJob): Promise<boolean> {
    if (job.singletonKey === null) return true;
    const key = `${queue}\u0000${job.singletonKey}`;
    if (this.running.has(key)) return false;
    this.running.add(key);
    return true;
  }

  async release(_queue: QueueName, job: FetchedJob, output: Record<string, string>): Promise<void> {
    await this.db
      .updateTable("jobs")
      .set({ state: "completed", completed_at: iso(Date.now()), output: JSON.stringify(output) })
      .where("id", "=", job.id)
      .where("state", "=", "active")
      .execute();
  }

  async finish(queue: QueueName, job: FetchedJob, outcome: Outcome): Promise<{ recorded: boolean; final: boolean }> {
    if (job.singletonKey !== null) this.running.delete(`${queue}\u0000${job.singletonKey}`);
    const now = Date.now();
    if (outcome.state !== "failed") {
      const output = outcome.state === "retry-later" ? JSON.stringify({ retryLater: outcome.reason }) : null;
      const r = await this.db
        .updateTable("jobs")
        .set({ state: "completed", completed_at: iso(now), output })
        .where("id", "=", job.id)
        .where("state", "=", "active")
        .executeTakeFirst();
      return { recorded: Number(r.numUpdatedRows) === 1, final: false };
    }
    return this.fail(job, outcome.reason, now);
  }

  private async fail(job: FetchedJob, reason: string, now: number): Promise<{ recorded: boolean; final: boolean }> {
    const row = await this.db
      .selectFrom("jobs")
      .select(["retry_count", "retry_limit", "retry_delay_seconds", "retry_backoff"])
      .where("id", "=", job.id)
      .executeTakeFirst();
    if (!row) return { recorded: false, final: false };
    const final = row.retry_count >= row.retry_limit;
    const delay = retryDelayMs({ retryDelaySeconds: row.retry_delay_seconds, retryBackoff: row.retry_backoff === 1 }, row.retry_count);
    const r = await this.db
      .updateTable("jobs")
      .set({
        state: final ? "failed" : "retry",
        start_after: iso(now + delay),
        completed_at: final ? iso(now) : null,
        output: JSON.stringify({ message: reason }),
      })
      .where("id", "=", job.id)
      .where("state", "=", "active")
      .executeTakeFirst();
    return { recorded: Number(r.numUpdatedRows) === 1, final };
  }

  /**
   * At start (this process holds the database alone): jobs a dead process left
   * "active" end their attempt as failed with that reason. Returns the ones
   * that failed for good.
   */
  async recover(reason: string): Promise<Array<{ queue: QueueName; data: unknown }>> {
    const left = await this.db.selectFrom("jobs").selectAll().where("state", "=", "active").execute();
    const finalFailures: Array<{ queue: QueueName; data: unknown }> = [];
    for (const row of left) {
      const job: FetchedJob = {
        id: row.id,
        data: JSON.parse(row.data),
        retryCount: row.retry_count,
        retryLimit: row.retry_limit,
        singletonKey: row.singleton_key,
      };
      const { final } = await this.fail(job, reason, Date.now());
      if (final) finalFailures.push({ queue: row.queue as QueueName, data: job.data });
    }
    return finalFailures;
  }

  /** Finished jobs are kept a week (what failed and why), then deleted. */
  async prune(olderThan: Date) {
    await this.db.deleteFrom("jobs").where("state", "in", ["completed", "failed"]).where("completed_at", "<", olderThan.toISOString()).execute();
  }

  async depth(): Promise<Map<string, { queued: number; active: number }>> {
    const rows = await this.db
      .selectFrom("jobs")
      .select(["queue", "state", (eb) => eb.fn.countAll<number>().as("n")])
      .where("state", "in", ["created", "retry", "active"])
      .groupBy(["queue", "state"])
      .execute();
    const out = new Map<string, { queued: number; active: number }>();
    for (const r of rows) {
      const entry = out.get(r.queue) ?? { queued: 0, active: 0 };
      if (r.state === "active") entry.active += Number(r.n);
      else entry.queued += Number(r.n);
      out.set(r.queue, entry);
    }
    return out;
  }
}
