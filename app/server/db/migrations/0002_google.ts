import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("google_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("google_sub", "text", (c) => c.notNull())
    .addColumn("google_email", "text", (c) => c.notNull())
    .addColumn("refresh_token_enc", "text", (c) => c.notNull())
    .addColumn("access_token_enc", "text")
    .addColumn("access_token_expires_at", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("accounts_error", "text")
    .addColumn("accounts_synced_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("google_connections_sub_idx").on("google_connections").column("google_sub").execute();

  await db.schema
    .createTable("ads_accounts")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("connection_id", "text", (c) => c.notNull().references("google_connections.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("manager", "integer", (c) => c.notNull())
    .addColumn("login_customer_id", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("ads_accounts_pk", ["user_id", "customer_id"])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("ads_accounts").execute();
  await db.schema.dropTable("google_connections").execute();
}
