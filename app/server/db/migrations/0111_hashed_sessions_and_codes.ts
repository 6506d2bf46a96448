import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";

// Issue 25 point 9.
// - Session ids are stored hashed, like the API tokens: the cookie carries the
//   id, the database its SHA-256, so a copy of the database (a backup, a
//   leaked dump) signs nobody in. Existing sessions keep working: their ids
//   are hashed in place.
// - One-time codes (`auth_codes`): the code that carries a Google sign-in
//   through `/dashboard?token=` and the password-reset link's code. Only the
//   hash is stored; taking a code deletes it (single use); each expires.
export async function up(db: Kysely<unknown>) {
  const rows = await sql<{ id: string }>`select id from sessions`.execute(db);
  for (const { id } of rows.rows) {
    const hashed = createHash("sha256").update(id).digest("hex");
    await sql`update sessions set id = ${hashed} where id = ${id}`.execute(db);
  }

  await db.schema
    .createTable("auth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    /** "sign-in" (Google sign-in's hop through /dashboard?token=) or "password-reset". */
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_codes_user_idx").on("auth_codes").columns(["user_id", "purpose"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("auth_codes").ifExists().execute();
  // Hashed ids cannot be turned back: every session ends.
  await sql`delete from sessions`.execute(db);
}
