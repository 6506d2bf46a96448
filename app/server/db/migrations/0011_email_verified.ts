import { sql, type Kysely } from "kysely";

// Issue 9 point 1: a password account's address counts as proved only once its
// owner followed the confirmation link (with the password). Accounts created
// by a Google sign-in were proved by Google when they were made.
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("users").addColumn("email_verified_at", "text").execute();
  await sql`update users set email_verified_at = created_at where password_hash is null`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
