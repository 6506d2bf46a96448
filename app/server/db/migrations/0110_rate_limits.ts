import type { Kysely } from "kysely";

// Issue 27 point 3: rate limits live in the database, so every instance on one
// PostgreSQL (or one SQLite file) counts against the same limit and a lockout
// made on one holds on the others. The table is rate-limiter-flexible's own
// layout for its PostgreSQL and SQLite stores (key, points, expire in epoch
// ms), created here rather than by the library at run time; every limiter
// shares it, its key prefixed with the limiter's name.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
  await db.schema.createIndex("rate_limits_expire_idx").on("rate_limits").column("expire").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("rate_limits").ifExists().execute();
}
