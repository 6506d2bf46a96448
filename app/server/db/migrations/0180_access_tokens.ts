import type { Kysely } from "kysely";

// Issue 34: personal access tokens for the JSON API and the MCP server
// (auth/access-tokens.server.ts, ADR 028). A person creates one in /settings
// with a name, scopes and an expiry; the token is shown once and only its
// SHA-256 is stored. Revoking deletes the row; ending every sign-in (password
// reset, "Sign out everywhere", a takeover) deletes them all.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("access_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    /** Space-separated: "read", "propose" or "read propose". */
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("access_tokens_user_idx").on("access_tokens").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("access_tokens_user_name_idx").on("access_tokens").columns(["user_id", "name"]).unique().execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("access_tokens").ifExists().execute();
}
