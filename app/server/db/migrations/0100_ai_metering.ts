import { sql, type Kysely } from "kysely";

// The metered door to the language model (app/server/ai/metered.server.ts, ADR 019):
//
// - ai_usage: one row per model call (a retry is a call), with its tokens, for
//   /settings' figures per feature and the install's monthly budget. Kept when a
//   user is deleted: the budget counts what was spent.
// - ai_daily_uses: per user, feature and UTC day, how many uses (questions,
//   ad generations) the model served; reserved by one upsert that refuses at the
//   limit, so parallel requests cannot pass it on PostgreSQL.
// - ai_leases: a user's model requests in flight, one row per slot, taken by an
//   upsert that only overwrites an expired lease: the concurrency cap holds
//   across app instances sharing one database, and a crashed instance's slot
//   frees itself when its lease expires.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("ai_usage")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("feature", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("input_tokens", "integer", (c) => c.notNull())
    .addColumn("output_tokens", "integer", (c) => c.notNull())
    .addColumn("total_tokens", "integer", (c) => c.notNull())
    /** ok, error (the call failed; a retry is its own row) or aborted (the person pressed Stop). */
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ai_usage_created_idx").on("ai_usage").column("created_at").execute();
  await db.schema.createIndex("ai_usage_user_idx").on("ai_usage").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("ai_daily_uses")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("feature", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("ai_daily_uses_pk", ["user_id", "feature", "day"])
    .execute();

  await db.schema
    .createTable("ai_leases")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("slot", "integer", (c) => c.notNull())
    .addColumn("lease_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("ai_leases_pk", ["user_id", "slot"])
    .execute();

  // What the assistant spent before the door existed still counts this month.
  await sql`
    insert into ai_usage (id, user_id, feature, model, input_tokens, output_tokens, total_tokens, outcome, created_at)
    select id, user_id, 'chat', 'unknown', coalesce(input_tokens, 0), coalesce(output_tokens, 0), total_tokens, 'ok', created_at
    from chat_messages where role = 'assistant' and total_tokens is not null
  `.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("ai_leases").ifExists().execute();
  await db.schema.dropTable("ai_daily_uses").ifExists().execute();
  await db.schema.dropTable("ai_usage").ifExists().execute();
}
