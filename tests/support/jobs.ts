import { PostgresAdapter, sql } from "kysely";
import { expect, vi } from "vitest";
import { jobBackend, queueDepth, startJobs, stopJobs, type QueueName } from "~/server/jobs/jobs.server";
import type { DB } from "~/server/db/db.server";

/** A job's stored state, whichever back end holds it (pg-boss's table on PostgreSQL, `jobs` on SQLite). */
export interface StoredJob {
  state: string;
  /** Attempts before the current or next one (pg-boss's count: raised when a retry starts). */
  retryCount: number;
  output: unknown;
}

export async function storedJob(db: DB, id: string): Promise<StoredJob | undefined> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ state: string; retry_count: number; output: unknown }>`
      SELECT state::text AS state, retry_count, output FROM pgboss.job WHERE id = ${id}::uuid`.execute(db);
    return rows[0] && { state: rows[0].state, retryCount: rows[0].retry_count, output: rows[0].output };
  }
  const row = await db.selectFrom("jobs").select(["state", "retry_count", "output"]).where("id", "=", id).executeTakeFirst();
  return row && { state: row.state, retryCount: row.retry_count, output: row.output === null ? null : JSON.parse(row.output) };
}

/** Time passes for the queue: jobs waiting for their start time or their next retry may start now. */
export async function makeDue(db: DB, queue: string) {
  if (isPostgres(db)) await sql`UPDATE pgboss.job SET start_after = now() WHERE name = ${queue} AND state IN ('created', 'retry')`.execute(db);
  else
    await db
      .updateTable("jobs")
      .set({ start_after: new Date(0).toISOString() })
      .where("queue", "=", queue)
      .where("state", "in", ["created", "retry"])
      .execute();
}

const isPostgres = (db: DB) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Forgets every job (between tests that look at queue contents). */
export async function clearJobs(db: DB) {
  if (isPostgres(db)) await sql`DELETE FROM pgboss.job WHERE name NOT LIKE '__pgboss%'`.execute(db);
  else await db.deleteFrom("jobs").execute();
}

/**
 * Runs the jobs of these queues queued so far (the engine run a sync queued,
 * …) to the end, in this process, with the real engine: started here unless
 * the test already runs it.
 */
export async function drainJobs(db: DB, queues: QueueName[], timeoutMs = 60_000) {
  const startedHere = jobBackend() === null;
  if (startedHere) await startJobs({ db, pollMs: 50 });
  try {
    await vi.waitFor(
      async () => {
        const depth = await queueDepth();
        const left = queues.reduce((n, q) => n + (depth.get(q)?.queued ?? 0) + (depth.get(q)?.active ?? 0), 0);
        expect(left).toBe(0);
      },
      { timeout: timeoutMs, interval: 50 },
    );
  } finally {
    if (startedHere) await stopJobs();
  }
}
