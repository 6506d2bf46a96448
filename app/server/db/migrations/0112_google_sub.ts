import { sql, type Kysely } from "kysely";

// Issue 25 point 9: a Google sign-in finds its user by Google's stable account
// id (`sub`), not by the email address, which a Google account can change and
// an address can pass to another Google account. `users.google_sub` is the
// Google account that signs in as this user (at most one user per account).
// Existing rows: a user whose Google connection's address is the user's own
// address was signed in (or joined) by that Google account; users who
// connected a Google account under another address were never signed in by it.
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("users").addColumn("google_sub", "text").execute();
  await sql`
    update users set google_sub = (
      select c.google_sub from google_connections c where c.user_id = users.id and lower(c.google_email) = users.email
    )
    where exists (select 1 from google_connections c where c.user_id = users.id and lower(c.google_email) = users.email)`.execute(db);
  await db.schema.createIndex("users_google_sub_idx").on("users").column("google_sub").unique().execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropIndex("users_google_sub_idx").execute();
  await db.schema.alterTable("users").dropColumn("google_sub").execute();
}
