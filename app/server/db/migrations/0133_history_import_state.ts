import type { Kysely } from "kysely";

// The import of changes made outside the product (Google's change_event) runs
// as a job (issue 27 point 1), no longer inside the /history page's loader:
// when each account was last imported, and why the last attempt failed,
// shared by every instance (it was a per-process map).
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("history_import_state")
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    /** When an import was last queued (at most one per IMPORT_EVERY_MS). */
    .addColumn("requested_at", "text", (c) => c.notNull())
    .addColumn("imported_at", "text")
    /** Why the last import failed; null once one succeeds. */
    .addColumn("error", "text")
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("history_import_state").execute();
}
