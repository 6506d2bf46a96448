import type { Kysely } from "kysely";

// Outgoing mail as an outbox (issue 27 point 1): a mail is a row, written with
// the request that causes it, and sent (and retried) by a "send-mail" job. The
// body (it may hold a confirmation link) is cleared once the mail is sent or
// has failed for good; the row stays as the record of what was sent and why
// not.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    /** pending, sent, failed. */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_status_idx").on("mail_outbox").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("mail_outbox").execute();
}
