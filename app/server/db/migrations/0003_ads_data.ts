import type { CreateTableBuilder, Kysely } from "kysely";

// Local copies of Google Ads data, replaced whole by each sync (sync.server.ts).
// Keyed by customer_id rather than by user: several app users may reach the
// same account, and access is checked against ads_accounts by the callers.
// int64 quantities (micros, counts) are bigint: pg reads int8 back as a number
// (db.server.ts), SQLite stores them as integers. Doubles use "double precision",
// which SQLite accepts (REAL affinity). Dates are YYYY-MM-DD text in the
// account's time zone, so BETWEEN compares them correctly on both databases.

function metricColumns<T extends string, C extends string>(t: CreateTableBuilder<T, C>) {
  return t
    .addColumn("impressions", "bigint", (c) => c.notNull())
    .addColumn("clicks", "bigint", (c) => c.notNull())
    .addColumn("cost_micros", "bigint", (c) => c.notNull())
    .addColumn("conversions", "double precision", (c) => c.notNull())
    .addColumn("conversions_value", "double precision", (c) => c.notNull());
}

export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("ads_campaigns")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("serving_status", "text")
    .addColumn("primary_status", "text")
    /** JSON array of enum names, e.g. ["BUDGET_CONSTRAINED"]. */
    .addColumn("primary_status_reasons", "text")
    .addColumn("advertising_channel_type", "text", (c) => c.notNull())
    .addColumn("bidding_strategy_type", "text", (c) => c.notNull())
    .addColumn("target_cpa_micros", "bigint")
    .addColumn("target_roas", "double precision")
    .addColumn("budget_resource_name", "text")
    .addColumn("budget_amount_micros", "bigint")
    .addColumn("budget_period", "text")
    .addColumn("budget_explicitly_shared", "integer")
    .addColumn("start_date", "text")
    .addColumn("end_date", "text")
    .addPrimaryKeyConstraint("ads_campaigns_pk", ["customer_id", "id"])
    .execute();

  await metricColumns(
    db.schema
      .createTable("ads_campaign_daily")
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("campaign_id", "text", (c) => c.notNull())
      .addColumn("date", "text", (c) => c.notNull()),
  )
    .addColumn("search_impression_share", "double precision")
    .addColumn("search_budget_lost_impression_share", "double precision")
    .addColumn("search_rank_lost_impression_share", "double precision")
    .addPrimaryKeyConstraint("ads_campaign_daily_pk", ["customer_id", "campaign_id", "date"])
    .execute();
  // The campaign list sums every campaign over a date range: this index covers
  // that query, so it never touches the table.
  await db.schema
    .createIndex("ads_campaign_daily_date_idx")
    .on("ads_campaign_daily")
    .columns(["customer_id", "date", "campaign_id", "impressions", "clicks", "cost_micros", "conversions", "conversions_value"])
    .execute();

  await db.schema
    .createTable("ads_ad_groups")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("type", "text")
    .addColumn("cpc_bid_micros", "bigint")
    .addColumn("target_cpa_micros", "bigint")
    .addColumn("target_roas", "double precision")
    .addPrimaryKeyConstraint("ads_ad_groups_pk", ["customer_id", "id"])
    .execute();
  await db.schema.createIndex("ads_ad_groups_campaign_idx").on("ads_ad_groups").columns(["customer_id", "campaign_id"]).execute();

  await metricColumns(
    db.schema
      .createTable("ads_ad_group_daily")
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("ad_group_id", "text", (c) => c.notNull())
      .addColumn("campaign_id", "text", (c) => c.notNull())
      .addColumn("date", "text", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("ads_ad_group_daily_pk", ["customer_id", "ad_group_id", "date"])
    .execute();
  await db.schema.createIndex("ads_ad_group_daily_campaign_idx").on("ads_ad_group_daily").columns(["customer_id", "campaign_id", "date"]).execute();

  // Ad group criteria of type KEYWORD, positive and negative.
  await db.schema
    .createTable("ads_keywords")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("ad_group_id", "text", (c) => c.notNull())
    .addColumn("criterion_id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("match_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("negative", "integer", (c) => c.notNull())
    .addColumn("cpc_bid_micros", "bigint")
    .addColumn("effective_cpc_bid_micros", "bigint")
    .addColumn("quality_score", "integer")
    .addColumn("creative_quality_score", "text")
    .addColumn("post_click_quality_score", "text")
    .addColumn("search_predicted_ctr", "text")
    .addColumn("system_serving_status", "text")
    .addColumn("approval_status", "text")
    .addPrimaryKeyConstraint("ads_keywords_pk", ["customer_id", "ad_group_id", "criterion_id"])
    .execute();
  await db.schema.createIndex("ads_keywords_campaign_idx").on("ads_keywords").columns(["customer_id", "campaign_id"]).execute();

  await metricColumns(
    db.schema
      .createTable("ads_keyword_daily")
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("ad_group_id", "text", (c) => c.notNull())
      .addColumn("criterion_id", "text", (c) => c.notNull())
      .addColumn("campaign_id", "text", (c) => c.notNull())
      .addColumn("date", "text", (c) => c.notNull()),
  )
    .addColumn("search_impression_share", "double precision")
    .addColumn("search_rank_lost_impression_share", "double precision")
    .addPrimaryKeyConstraint("ads_keyword_daily_pk", ["customer_id", "ad_group_id", "criterion_id", "date"])
    .execute();
  await db.schema.createIndex("ads_keyword_daily_campaign_idx").on("ads_keyword_daily").columns(["customer_id", "campaign_id", "date"]).execute();

  await db.schema
    .createTable("ads_campaign_negative_keywords")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("criterion_id", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("match_type", "text", (c) => c.notNull())
    .addColumn("status", "text")
    .addPrimaryKeyConstraint("ads_campaign_negative_keywords_pk", ["customer_id", "campaign_id", "criterion_id"])
    .execute();

  await db.schema
    .createTable("ads_ads")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("ad_group_id", "text", (c) => c.notNull())
    .addColumn("ad_id", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("type", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("ad_strength", "text")
    .addColumn("approval_status", "text")
    /** JSON: [{text, pinnedField?, assetPerformanceLabel?}], as in AdTextAsset. */
    .addColumn("headlines", "text", (c) => c.notNull())
    .addColumn("descriptions", "text", (c) => c.notNull())
    .addColumn("path1", "text")
    .addColumn("path2", "text")
    /** JSON array of URLs. */
    .addColumn("final_urls", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("ads_ads_pk", ["customer_id", "ad_group_id", "ad_id"])
    .execute();
  await db.schema.createIndex("ads_ads_campaign_idx").on("ads_ads").columns(["customer_id", "campaign_id"]).execute();

  await metricColumns(
    db.schema
      .createTable("ads_ad_daily")
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("ad_group_id", "text", (c) => c.notNull())
      .addColumn("ad_id", "text", (c) => c.notNull())
      .addColumn("campaign_id", "text", (c) => c.notNull())
      .addColumn("date", "text", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("ads_ad_daily_pk", ["customer_id", "ad_group_id", "ad_id", "date"])
    .execute();
  await db.schema.createIndex("ads_ad_daily_campaign_idx").on("ads_ad_daily").columns(["customer_id", "campaign_id", "date"]).execute();

  // ad_group_ad_asset_view: how each headline/description of an ad performs.
  await db.schema
    .createTable("ads_ad_assets")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("ad_group_id", "text", (c) => c.notNull())
    .addColumn("ad_id", "text", (c) => c.notNull())
    .addColumn("asset_id", "text", (c) => c.notNull())
    .addColumn("field_type", "text", (c) => c.notNull())
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("text", "text")
    .addColumn("performance_label", "text")
    .addColumn("pinned_field", "text")
    .addColumn("enabled", "integer")
    .addPrimaryKeyConstraint("ads_ad_assets_pk", ["customer_id", "ad_group_id", "ad_id", "asset_id", "field_type"])
    .execute();
  await db.schema.createIndex("ads_ad_assets_campaign_idx").on("ads_ad_assets").columns(["customer_id", "campaign_id"]).execute();

  // No primary key: a term's identity (ad group, text, match type, keyword)
  // is Google's to define, and a duplicate row must not fail a whole sync.
  await metricColumns(
    db.schema
      .createTable("ads_search_term_daily")
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("campaign_id", "text", (c) => c.notNull())
      .addColumn("ad_group_id", "text", (c) => c.notNull())
      .addColumn("search_term", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("match_type", "text")
      .addColumn("keyword_criterion_id", "text")
      .addColumn("keyword_text", "text")
      .addColumn("keyword_match_type", "text")
      .addColumn("date", "text", (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex("ads_search_term_daily_campaign_idx").on("ads_search_term_daily").columns(["customer_id", "campaign_id", "date"]).execute();

  await db.schema
    .createTable("ads_sync_state")
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    /** Identifies the sync that holds the "running" claim; a superseded one cannot commit. */
    .addColumn("run_id", "text")
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    /** Refreshed as each step completes; a running row whose heartbeat is 15 minutes old is dead. */
    .addColumn("heartbeat_at", "text")
    .addColumn("last_success_at", "text")
    .addColumn("last_error", "text")
    .addColumn("progress_done", "integer", (c) => c.notNull())
    .addColumn("progress_total", "integer", (c) => c.notNull())
    .addColumn("current_step", "text")
    /** The daily-metrics window of the data in the tables (last successful sync). */
    .addColumn("data_from", "text")
    .addColumn("data_to", "text")
    /** JSON {table: rows} of the last successful sync. */
    .addColumn("row_counts", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>) {
  for (const table of [
    "ads_sync_state",
    "ads_search_term_daily",
    "ads_ad_assets",
    "ads_ad_daily",
    "ads_ads",
    "ads_campaign_negative_keywords",
    "ads_keyword_daily",
    "ads_keywords",
    "ads_ad_group_daily",
    "ads_ad_groups",
    "ads_campaign_daily",
    "ads_campaigns",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
