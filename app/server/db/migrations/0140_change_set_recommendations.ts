import type { Kysely } from "kysely";

// Issue 29 point 5: several recommendations applied together ("Apply selected")
// become one change set and one review. change_sets.recommendation_id names one;
// this table names every recommendation a change set carries out, so each is
// marked applied when the set is.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("change_set_recommendations")
    .addColumn("change_set_id", "text", (c) => c.notNull().references("change_sets.id").onDelete("cascade"))
    .addColumn("recommendation_id", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("change_set_recommendations_pk", ["change_set_id", "recommendation_id"])
    .execute();
  await db.schema.createIndex("change_set_recommendations_rec_idx").on("change_set_recommendations").column("recommendation_id").execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("change_set_recommendations").ifExists().execute();
}
