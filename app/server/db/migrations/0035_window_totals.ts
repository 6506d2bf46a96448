import type { Kysely } from "kysely";

// Issue 11 (engine < 2 s on 100,000 keywords): each entity's window totals
// (optimizer/window-totals.server.ts), written by the sync's switch-over in
// the same transaction as the rows they sum, so the engine reads ~20,000
// totals instead of aggregating a million daily rows on every run.
// ads_sync_state.window_totals_for says which data window they were computed
// for ("from/to"); the engine aggregates the daily rows itself when it does
// not match (an account synced before this migration).

const WINDOWS = ["w30", "w60", "all", "l30"];
const METRICS: Array<[string, "bigint" | "double precision"]> = [
  ["impressions", "bigint"],
  ["clicks", "bigint"],
  ["cost_micros", "bigint"],
  ["conversions", "double precision"],
  ["conversions_value", "double precision"],
];

export async function up(db: Kysely<unknown>) {
  let table = db.schema
    .createTable("ads_window_totals")
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** "campaign" | "ad_group" | "keyword" | "search_term" | "ad" */
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text")
    .addColumn("ad_group_id", "text")
    /** criterion_id (keyword), ad_id (ad) or search_term (search term). */
    .addColumn("item_id", "text")
    .addColumn("status", "text")
    .addColumn("keyword_criterion_id", "text")
    .addColumn("keyword_text", "text");
  for (const w of WINDOWS) for (const [m, type] of METRICS) table = table.addColumn(`${w}_${m}`, type);
  await table.addColumn("first_date", "text").addColumn("last_date", "text").execute();
  await db.schema.createIndex("ads_window_totals_entity_idx").on("ads_window_totals").columns(["customer_id", "entity"]).execute();
  await db.schema.alterTable("ads_sync_state").addColumn("window_totals_for", "text").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable("ads_sync_state").dropColumn("window_totals_for").execute();
  await db.schema.dropTable("ads_window_totals").ifExists().execute();
}
