import type { Kysely } from "kysely";

// Settling with leases (issue 27 point 2): a change set being applied or
// settled belongs to exactly one worker, its holder, while its lease lasts;
// the holder renews it every few seconds, and writes the outcome only while
// it still holds it. A holder that died stops renewing, its lease runs out,
// and another instance settles the set against Google's live state.
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("change_sets").addColumn("lease_holder", "text").execute();
  await db.schema.alterTable("change_sets").addColumn("lease_expires_at", "text").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable("change_sets").dropColumn("lease_expires_at").execute();
  await db.schema.alterTable("change_sets").dropColumn("lease_holder").execute();
}
