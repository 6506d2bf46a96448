import { PostgresAdapter, sql, type Kysely } from "kysely";

// Background work as jobs (app/server/jobs, ADR 022). On PostgreSQL the queue
// is pg-boss's, in its own schema (installed and upgraded by pg-boss itself);
// this adds the leases its workers hold while a job runs: one row per running
// job, beaten every few seconds, so a job whose instance died (its lease
// expired) is handed to another instance, and one running job per singleton
// key (an account's sync, a change set's settling) across every instance. On
// SQLite (one instance) the queue is this database's `jobs` table, run in process.
export async function up(db: Kysely<unknown>) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema
      .createTable("job_leases")
      .addColumn("job_id", "text", (c) => c.primaryKey())
      .addColumn("queue", "text", (c) => c.notNull())
      .addColumn("singleton_key", "text")
      /** The instance running it (jobs.server.ts's instance id). */
      .addColumn("holder", "text", (c) => c.notNull())
      /** pg-boss's retry count when it was fetched: a completion must come from this attempt. */
      .addColumn("attempt", "integer", (c) => c.notNull())
      // The database's clock, not each instance's: leases are compared across instances.
      .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("beat_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex("job_leases_one_per_key")
      .on("job_leases")
      .columns(["queue", "singleton_key"])
      .unique()
      .where(sql.ref("singleton_key"), "is not", null)
      .execute();
    await db.schema.createIndex("job_leases_beat_idx").on("job_leases").column("beat_at").execute();
    return;
  }
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("queue", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    /** created, retry (waiting for its next attempt), active, completed, failed. */
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("singleton_key", "text")
    /** Attempts before the current (or next) one: raised when a retry starts, as pg-boss does. */
    .addColumn("retry_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("retry_limit", "integer", (c) => c.notNull())
    .addColumn("retry_delay_seconds", "integer", (c) => c.notNull())
    .addColumn("retry_backoff", "integer", (c) => c.notNull())
    .addColumn("start_after", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("completed_at", "text")
    /** Why it failed (the last attempt's reason), or what it reported when it completed. */
    .addColumn("output", "text")
    .execute();
  // One queued job per key (as pg-boss's "short" policy); the running one is kept single in process.
  await db.schema
    .createIndex("jobs_one_queued_per_key")
    .on("jobs")
    .columns(["queue", "singleton_key"])
    .unique()
    .where(sql<boolean>`singleton_key IS NOT NULL AND state IN ('created', 'retry')`)
    .execute();
  await db.schema.createIndex("jobs_next_idx").on("jobs").columns(["queue", "state", "start_after"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("job_leases").ifExists().execute();
  await db.schema.dropTable("jobs").ifExists().execute();
}
