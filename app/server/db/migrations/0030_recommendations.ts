import type { Kysely } from "kysely";

// The recommendations engine's stored results (app/server/optimizer/).
// One row per account and finding, keyed by a stable `key` (rule + resource):
// each run updates the figures in place, so a person's dismissal or snooze
// survives the next run. `present` says whether the last run still found it.
// Targets a person sets per account (/settings) live beside them, and change
// sets learn which recommendation they came from.

export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("recommendations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    /** open | dismissed | snoozed | applied (a snooze past snoozed_until reads as open). */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("present", "integer", (c) => c.notNull())
    .addColumn("confidence", "double precision", (c) => c.notNull())
    /** Estimated monthly impact in the sort's common unit (account currency), for ordering. */
    .addColumn("impact_amount", "double precision", (c) => c.notNull())
    .addColumn("impact_json", "text", (c) => c.notNull())
    .addColumn("evidence_json", "text", (c) => c.notNull())
    .addColumn("actions_json", "text", (c) => c.notNull())
    .addColumn("resources_json", "text", (c) => c.notNull())
    .addColumn("dismissed_reason", "text")
    .addColumn("snoozed_until", "text")
    .addColumn("status_changed_at", "text")
    .addColumn("first_seen_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addUniqueConstraint("recommendations_key_uq", ["customer_id", "key"])
    .execute();
  await db.schema.createIndex("recommendations_list_idx").on("recommendations").columns(["customer_id", "present", "status"]).execute();

  await db.schema
    .createTable("optimizer_runs")
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    .addColumn("ran_at", "text", (c) => c.notNull())
    .addColumn("synced_at", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    /** JSON: the Performance Score and its breakdown at this run. */
    .addColumn("score_json", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("account_targets")
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    .addColumn("target_cpa_micros", "bigint")
    .addColumn("target_roas", "double precision")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();

  await db.schema.alterTable("change_sets").addColumn("recommendation_id", "text").execute();
  await db.schema.createIndex("change_sets_recommendation_idx").on("change_sets").column("recommendation_id").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropIndex("change_sets_recommendation_idx").ifExists().execute();
  await db.schema.alterTable("change_sets").dropColumn("recommendation_id").execute();
  await db.schema.dropTable("account_targets").ifExists().execute();
  await db.schema.dropTable("optimizer_runs").ifExists().execute();
  await db.schema.dropTable("recommendations").ifExists().execute();
}
