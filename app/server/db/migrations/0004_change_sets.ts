import type { Kysely } from "kysely";

// Every write to Google Ads is a change set of ordered changes. The intent
// (status "applying" plus the exact mutate operation) is committed before the
// call to Google, so a crash mid-apply can be reconciled against live state.
// JSON columns are text on both databases; timestamps are ISO-8601 UTC text.

export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("change_sets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("source_detail", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("atomic", "integer", (c) => c.notNull())
    .addColumn("needs_confirmation", "integer", (c) => c.notNull())
    .addColumn("revert_of", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("validated_at", "text")
    .addColumn("approved_at", "text")
    .addColumn("applied_at", "text")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("change_sets_user_idx").on("change_sets").columns(["user_id", "customer_id", "created_at"]).execute();
  await db.schema.createIndex("change_sets_status_idx").on("change_sets").column("status").execute();

  await db.schema
    .createTable("changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("change_set_id", "text", (c) => c.notNull().references("change_sets.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("resource_kind", "text", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("resource_name", "text")
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("before_json", "text")
    .addColumn("after_json", "text")
    .addColumn("operation_json", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("field_path", "text")
    .addColumn("result_resource_name", "text")
    .addColumn("request_id", "text")
    .addColumn("applied_at", "text")
    .addUniqueConstraint("changes_set_seq_uq", ["change_set_id", "seq"])
    .execute();
  // reconcileInFlight looks up "applying" changes at every start.
  await db.schema.createIndex("changes_status_idx").on("changes").column("status").execute();
  await db.schema.createIndex("changes_resource_idx").on("changes").column("resource_name").execute();

  await db.schema
    .createTable("history_imports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** As Google reports it ("yyyy-MM-dd HH:mm:ss.ssssss", account time zone). */
    .addColumn("change_date_time", "text", (c) => c.notNull())
    /** UTC ISO, derived with the account time zone, for filtering and merging with our own changes. */
    .addColumn("changed_at", "text", (c) => c.notNull())
    .addColumn("resource_type", "text", (c) => c.notNull())
    .addColumn("resource_name", "text", (c) => c.notNull())
    .addColumn("client_type", "text", (c) => c.notNull())
    .addColumn("user_email", "text")
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("changed_fields", "text")
    .addColumn("old_json", "text")
    .addColumn("new_json", "text")
    .addColumn("imported_at", "text", (c) => c.notNull())
    .addUniqueConstraint("history_imports_uq", ["customer_id", "resource_name", "change_date_time"])
    .execute();
  await db.schema.createIndex("history_imports_time_idx").on("history_imports").columns(["customer_id", "changed_at"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("history_imports").ifExists().execute();
  await db.schema.dropTable("changes").ifExists().execute();
  await db.schema.dropTable("change_sets").ifExists().execute();
}
