import type { Kysely } from "kysely";

// Issue 31 point 4, by webhook: a person's webhook per client account, one
// delivery per alert and webhook (retried by its job), and every attempt kept
// for the delivery log in /settings.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("alert_webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    /** The signing secret (HMAC-SHA256); kept readable because every delivery is signed with it. */
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("alert_webhooks_user_account", ["user_id", "customer_id"])
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("webhook_id", "text", (c) => c.notNull().references("alert_webhooks.id").onDelete("cascade"))
    .addColumn("alert_id", "text", (c) => c.notNull().references("alerts.id").onDelete("cascade"))
    /** The JSON body, fixed when queued so every retry sends (and signs) the same bytes. */
    .addColumn("payload", "text", (c) => c.notNull())
    /** pending | delivered | failed */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("webhook_deliveries_once", ["webhook_id", "alert_id"])
    .execute();
  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    /** The receiver's HTTP status; null when there was no answer (then error says why). */
    .addColumn("http_status", "integer")
    .addColumn("error", "text")
    .addColumn("at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery_idx").on("webhook_attempts").columns(["delivery_id", "at"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("webhook_attempts").ifExists().execute();
  await db.schema.dropTable("webhook_deliveries").ifExists().execute();
  await db.schema.dropTable("alert_webhooks").ifExists().execute();
}
