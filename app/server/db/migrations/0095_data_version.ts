import type { Kysely } from "kysely";

// A counter per account, raised by every write to its synced tables (a sync's
// switch-over, in the same transaction; the read model after an apply, once
// its writes are done). The report pages keep what they read from those tables
// under the version they read it at (ads/report-cache.server.ts): a new version
// is a new key, in every process that reads the row.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable("ads_sync_state")
    .addColumn("data_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable("ads_sync_state").dropColumn("data_version").execute();
}
