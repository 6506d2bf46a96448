import { sql, type Kysely } from "kysely";

// Issue 25 point 4: which accounts a user may read is re-checked with Google
// on every refresh of their token and at least daily (ads/access-check.server.ts).
// `access_checked_at` is when the last check started: the claim that lets one
// instance (of several on one database) run the daily check.
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("google_connections").addColumn("access_checked_at", "text").execute();
  await sql`update google_connections set access_checked_at = accounts_synced_at`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable("google_connections").dropColumn("access_checked_at").execute();
}
