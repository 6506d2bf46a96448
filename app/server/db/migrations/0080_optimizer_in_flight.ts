import type { Kysely } from "kysely";

// Engine runs in flight (optimizer/in-flight.server.ts), so the screens and
// the API can say "Analysing your data…" between a sync's switch-over and the
// end of the engine run that follows it, instead of "No analysis yet". One
// row per run (a sync's and an on-demand one may overlap), written before the
// run starts and deleted when it ends; a row whose heartbeat stopped belongs
// to a run that died (crash, restart) and reads as not running.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("optimizer_in_flight")
    .addColumn("run_id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** "sync" (after a sync's switch-over) or "on-demand" (Run analysis, new targets). */
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("heartbeat_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("optimizer_in_flight_customer_idx").on("optimizer_in_flight").column("customer_id").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("optimizer_in_flight").ifExists().execute();
}
