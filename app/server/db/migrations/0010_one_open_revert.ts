import { sql, type Kysely } from "kysely";

// At most one open revert per change set (issue 9 point 5): concurrent Revert
// clicks used to create one revert set each. The partial unique index makes
// the database decide the race on SQLite and PostgreSQL alike; applied reverts
// leave the index, and proposeRevert refuses a second revert of an applied one.
const OPEN = "('proposed', 'validated', 'invalid', 'applying')";

export async function up(db: Kysely<unknown>) {
  // Duplicates made before this migration: the oldest open one stays, the others are discarded (never sent).
  const rows = await sql<{ id: string; revert_of: string }>`
    select id, revert_of from change_sets
    where revert_of is not null and status in ${sql.raw(OPEN)}
    order by created_at, id`.execute(db);
  const seen = new Set<string>();
  for (const row of rows.rows) {
    if (!seen.has(row.revert_of)) {
      seen.add(row.revert_of);
      continue;
    }
    await sql`update change_sets set status = 'discarded', error = 'Discarded: another revert of the same change set was already open'
      where id = ${row.id} and status in ('proposed', 'validated', 'invalid')`.execute(db);
  }
  await sql`create unique index change_sets_one_open_revert on change_sets (revert_of)
    where revert_of is not null and status in ${sql.raw(OPEN)}`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index change_sets_one_open_revert`.execute(db);
}
