import type { Kysely } from "kysely";

// Issue 31 point 2: a monthly budget per account and optionally per campaign,
// set in the app (Google has no monthly budget for most campaigns). Shared by
// everyone who reaches the account, like its targets (account_targets).
// campaign_id "" is the whole account: an empty string, not NULL, so the
// primary key holds one account plan on both databases.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("budget_plans")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("monthly_budget_micros", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .addPrimaryKeyConstraint("budget_plans_pk", ["customer_id", "campaign_id"])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("budget_plans").ifExists().execute();
}
