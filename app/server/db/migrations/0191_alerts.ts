import type { Kysely } from "kysely";

// Issue 31 point 3: anomaly alerts. An alert belongs to an account (shared,
// like its recommendations: the checks run after each scheduled refresh,
// whoever looks); reading and muting are each person's own.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** spend_spike | spend_drop | conversions_drop | cpa_spike | no_impressions | pacing_off | outside_change | auto_applied */
    .addColumn("rule", "text", (c) => c.notNull())
    /** What it is about within the account: a campaign id, "" for the whole account, a day for an event. */
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    /** 1 while the last check still saw the condition: the same episode, not a new alert. */
    .addColumn("ongoing", "integer", (c) => c.notNull())
    .addColumn("resolved_by", "text")
    .addColumn("title", "text", (c) => c.notNull())
    /** JSON: the figures, the baseline and how it was computed. */
    .addColumn("figures_json", "text", (c) => c.notNull())
    /** The day (account time zone) the condition started. */
    .addColumn("started_on", "text", (c) => c.notNull())
    .addColumn("evidence_path", "text", (c) => c.notNull())
    .addColumn("recommendation_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("resolved_at", "text")
    .execute();
  await db.schema.createIndex("alerts_key_idx").on("alerts").columns(["customer_id", "rule", "subject", "created_at"]).execute();
  await db.schema.createIndex("alerts_open_idx").on("alerts").columns(["customer_id", "status"]).execute();
  await db.schema
    .createTable("alert_reads")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("alert_id", "text", (c) => c.notNull().references("alerts.id").onDelete("cascade"))
    .addColumn("read_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_reads_pk", ["user_id", "alert_id"])
    .execute();
  await db.schema
    .createTable("alert_mutes")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** "*": every account. */
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** "*": every rule. */
    .addColumn("rule", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_mutes_pk", ["user_id", "customer_id", "rule"])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("alert_mutes").ifExists().execute();
  await db.schema.dropTable("alert_reads").ifExists().execute();
  await db.schema.dropTable("alerts").ifExists().execute();
}
