import type { Kysely } from "kysely";

// Issue 26 point 3: the install's Google Ads API budget, shared by every
// instance (ads/quota.server.ts, ADR 021).
//   google_ads_operations  one row per request sent to Google (or refused
//                          before it was sent: never written), with the
//                          operations Google counts for it; the rolling 24
//                          hours are summed from here; rows older than two
//                          days are pruned
//   google_ads_pause       while a row's `until` is ahead, no request goes to
//                          Google (the daily cap was hit: kind "daily"; Google
//                          asked for a pause: "retry"); "temporary" holds back
//                          scheduled refreshes only, after short-term rate limiting
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("google_ads_operations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("operations", "integer", (c) => c.notNull())
    /** search, searchStream, mutate, listAccessibleCustomers, … */
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("customer_id", "text")
    /** "background" (scheduled refreshes) or "interactive" (what a person started). */
    .addColumn("purpose", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("google_ads_operations_at_idx").on("google_ads_operations").columns(["at", "operations"]).execute();

  await db.schema
    .createTable("google_ads_pause")
    .addColumn("kind", "text", (c) => c.primaryKey())
    .addColumn("until", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("set_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("google_ads_pause").ifExists().execute();
  await db.schema.dropTable("google_ads_operations").ifExists().execute();
}
