import type { Kysely } from "kysely";

// Issue 33: the measured effect of every applied change (impact/, ADR 027).
// One row per subject — a change set of ours ("cs:<id>") or an outside change
// imported from Google's change_event ("ext:<history_imports.id>") — holding
// the last computed record as JSON under the key it was computed for (the
// account's data version, the changes known then and the method's version):
// a reader whose key differs computes again, so a record never outlives the
// data it was measured on, and no page view repeats the work.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("impact_records")
    .addColumn("subject", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull())
    /** "change_set" | "outside". */
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("change_set_id", "text")
    .addColumn("stamp", "text", (c) => c.notNull())
    /** "too_early" | "no_effect" | "effect" | "not_measurable". */
    .addColumn("verdict", "text", (c) => c.notNull())
    .addColumn("record_json", "text", (c) => c.notNull())
    .addColumn("computed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("impact_records_customer_idx").on("impact_records").columns(["customer_id", "kind"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("impact_records").ifExists().execute();
}
