import type { Kysely } from "kysely";

// Issue 32, point 5: Performance Max asset groups, read only. A sync replaces
// these like the other entity tables (ads/sync/streams.server.ts); the campaign
// page of a PMax campaign shows them instead of ad groups and keywords.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("ads_asset_groups")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("ad_strength", "text")
    .addColumn("primary_status", "text")
    .addColumn("final_url", "text")
    .addPrimaryKeyConstraint("ads_asset_groups_pk", ["customer_id", "id"])
    .execute();
  await db.schema.createIndex("ads_asset_groups_campaign_idx").on("ads_asset_groups").columns(["customer_id", "campaign_id"]).execute();

  // asset_group_asset joined with its asset: v24 gives no performance label here, only the link's primary status.
  await db.schema
    .createTable("ads_asset_group_assets")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("asset_group_id", "text", (c) => c.notNull())
    .addColumn("asset_id", "text", (c) => c.notNull())
    .addColumn("field_type", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("asset_type", "text")
    .addColumn("text", "text")
    .addColumn("name", "text")
    .addColumn("status", "text")
    .addColumn("primary_status", "text")
    /** Google's primary_status_reasons, comma-separated. */
    .addColumn("primary_status_reasons", "text")
    .addPrimaryKeyConstraint("ads_asset_group_assets_pk", ["customer_id", "asset_group_id", "asset_id", "field_type"])
    .execute();
  await db.schema.createIndex("ads_asset_group_assets_campaign_idx").on("ads_asset_group_assets").columns(["customer_id", "campaign_id"]).execute();

  // asset_group_listing_group_filter: the nodes of each asset group's listing-group tree (the page summarises them).
  await db.schema
    .createTable("ads_asset_group_listing_groups")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("asset_group_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("brand", "text")
    .addColumn("product_type", "text")
    .addColumn("parent_id", "text")
    .addPrimaryKeyConstraint("ads_asset_group_listing_groups_pk", ["customer_id", "asset_group_id", "id"])
    .execute();
  await db.schema
    .createIndex("ads_asset_group_listing_groups_campaign_idx")
    .on("ads_asset_group_listing_groups")
    .columns(["customer_id", "campaign_id"])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  for (const table of ["ads_asset_group_listing_groups", "ads_asset_group_assets", "ads_asset_groups"]) await db.schema.dropTable(table).ifExists().execute();
}
