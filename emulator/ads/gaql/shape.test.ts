import { describe, it, expect } from "vitest";
import { loadCatalogue, type CatalogueMessageField, type JsonType } from "../../catalogue/catalogue";
import { demoSource, MANAGER, RICH, SMALL, type Row } from "../test/helpers";

const cat = loadCatalogue();
const byJson = new Map<string, { type: JsonType; repeated?: boolean; enum?: string; message?: string; gaql: string }>();
for (const r of Object.values(cat.resources)) for (const [gaql, f] of Object.entries(r.fields)) byJson.set(f.json, { ...f, gaql });

// Plain checks that collect problems (vitest's expect per leaf would be slow over ~100k leaves).
type Problems = string[];

function scalarOk(type: JsonType, enumKey: string | undefined, v: unknown): boolean {
  switch (type) {
    case "int64":
      return typeof v === "string" && /^-?\d+$/.test(v);
    case "int32":
      return Number.isInteger(v);
    case "double":
    case "float":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "enum":
      return typeof v === "string" && v !== "UNSPECIFIED" && v !== "UNKNOWN" && (cat.enums[enumKey as string] ?? []).includes(v);
    default:
      return typeof v === "string";
  }
}

function checkValue(f: { type: JsonType; repeated?: boolean; enum?: string; message?: string }, v: unknown, where: string, out: Problems): void {
  if (f.repeated) {
    if (!Array.isArray(v)) out.push(`${where}: expected array`);
    else v.forEach((x, i) => checkValue({ ...f, repeated: false }, x, `${where}[${i}]`, out));
    return;
  }
  if (f.type !== "message") {
    if (!scalarOk(f.type, f.enum, v)) out.push(`${where}: ${JSON.stringify(v)} is not a valid ${f.type}`);
    return;
  }
  const schema = cat.messages[f.message as string];
  if (!schema) return void out.push(`${where}: no catalogue message ${f.message}`);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return void out.push(`${where}: expected object`);
  for (const [k, sub] of Object.entries(v as Record<string, unknown>)) {
    const sf: CatalogueMessageField | undefined = schema[k];
    if (!sf) out.push(`${where}.${k}: not a field of ${f.message}`);
    else checkValue(sf, sub, `${where}.${k}`, out);
  }
}

/** Every leaf of every row must be a selected field or a resourceName, with the discovery document's JSON type. */
function checkRows(rows: Row[], mask: string): { checked: number; problems: Problems } {
  const selected = new Set(mask.split(","));
  const problems: Problems = [];
  let checked = 0;
  const walk = (o: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (k === "resourceName" && prefix && !prefix.includes(".")) {
        if (typeof v !== "string" || !/^customers\/\d{10}(\/[A-Za-z]+\/[^/]+)?$/.test(v)) problems.push(`${path}: bad resource name ${String(v)}`);
        continue;
      }
      const f = byJson.get(path);
      if (f && selected.has(path)) {
        checkValue(f, v, path, problems);
        checked++;
        continue;
      }
      if (v === null || typeof v !== "object" || Array.isArray(v)) problems.push(`${path}: unexpected leaf`);
      else walk(v as Record<string, unknown>, path);
    }
  };
  for (const r of rows) walk(r, "");
  return { checked, problems: problems.slice(0, 20) };
}

const ds = demoSource();
const QUERIES: Array<[string, string]> = [
  [
    RICH,
    "SELECT customer.id, customer.descriptive_name, customer.currency_code, customer.time_zone, customer.manager, customer.test_account, customer.status, customer.auto_tagging_enabled, customer.optimization_score, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value, metrics.ctr, metrics.average_cpc, metrics.average_cpm, metrics.cost_per_conversion, metrics.search_impression_share, metrics.search_budget_lost_impression_share, metrics.search_rank_lost_impression_share, metrics.all_conversions, metrics.interactions FROM customer WHERE segments.date DURING LAST_30_DAYS",
  ],
  [
    MANAGER,
    "SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, customer_client.currency_code, customer_client.time_zone, customer_client.id, customer_client.status, customer_client.test_account, customer_client.hidden FROM customer_client",
  ],
  [
    RICH,
    "SELECT campaign.id, campaign.name, campaign.status, campaign.serving_status, campaign.primary_status, campaign.advertising_channel_type, campaign.bidding_strategy_type, campaign.campaign_budget, campaign.start_date_time, campaign.manual_cpc.enhanced_cpc_enabled, campaign.maximize_conversions.target_cpa_micros, campaign.maximize_conversion_value.target_roas, campaign.target_cpa.target_cpa_micros, campaign.target_roas.target_roas, campaign.network_settings.target_google_search, campaign.network_settings.target_search_network, campaign.network_settings.target_content_network, campaign.contains_eu_political_advertising, campaign_budget.id, campaign_budget.name, campaign_budget.amount_micros, campaign_budget.delivery_method, campaign_budget.explicitly_shared, campaign_budget.period, campaign_budget.status, campaign_budget.reference_count, segments.date, segments.device, segments.ad_network_type, segments.day_of_week, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.search_impression_share FROM campaign WHERE segments.date DURING LAST_7_DAYS",
  ],
  [
    RICH,
    "SELECT campaign_budget.id, campaign_budget.amount_micros, metrics.cost_micros, segments.week, segments.month, segments.quarter, segments.year, segments.month_of_year FROM campaign_budget WHERE segments.date DURING LAST_30_DAYS",
  ],
  [
    RICH,
    "SELECT ad_group.id, ad_group.name, ad_group.status, ad_group.type, ad_group.campaign, ad_group.cpc_bid_micros, ad_group.target_cpa_micros, ad_group.effective_target_cpa_micros, ad_group.effective_target_roas, campaign.name, metrics.impressions, metrics.cost_micros, metrics.search_impression_share, metrics.search_rank_lost_impression_share FROM ad_group WHERE segments.date DURING LAST_30_DAYS",
  ],
  [
    RICH,
    "SELECT ad_group_criterion.criterion_id, ad_group_criterion.ad_group, ad_group_criterion.status, ad_group_criterion.type, ad_group_criterion.negative, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, ad_group_criterion.cpc_bid_micros, ad_group_criterion.effective_cpc_bid_micros, ad_group_criterion.approval_status, ad_group_criterion.system_serving_status, ad_group_criterion.quality_info.quality_score, ad_group_criterion.quality_info.creative_quality_score, ad_group_criterion.quality_info.post_click_quality_score, ad_group_criterion.quality_info.search_predicted_ctr, ad_group_criterion.position_estimates.first_page_cpc_micros, ad_group_criterion.position_estimates.top_of_page_cpc_micros FROM ad_group_criterion",
  ],
  [
    RICH,
    "SELECT ad_group_criterion.keyword.text, ad_group.name, campaign.name, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value, metrics.search_impression_share, metrics.historical_quality_score, metrics.historical_creative_quality_score, metrics.historical_search_predicted_ctr, segments.device FROM keyword_view WHERE segments.date DURING LAST_14_DAYS",
  ],
  [
    RICH,
    "SELECT ad_group_ad.ad.id, ad_group_ad.ad.type, ad_group_ad.ad.final_urls, ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.responsive_search_ad.descriptions, ad_group_ad.ad.responsive_search_ad.path1, ad_group_ad.ad.responsive_search_ad.path2, ad_group_ad.ad.responsive_display_ad.headlines, ad_group_ad.ad.responsive_display_ad.long_headline, ad_group_ad.ad.responsive_display_ad.business_name, ad_group_ad.ad_strength, ad_group_ad.status, ad_group_ad.ad_group, ad_group_ad.policy_summary.approval_status, ad_group_ad.policy_summary.review_status, metrics.clicks, metrics.ctr FROM ad_group_ad WHERE segments.date DURING LAST_30_DAYS",
  ],
  [
    RICH,
    "SELECT ad_group_ad_asset_view.ad_group_ad, ad_group_ad_asset_view.asset, ad_group_ad_asset_view.field_type, ad_group_ad_asset_view.performance_label, ad_group_ad_asset_view.pinned_field, ad_group_ad_asset_view.enabled, ad_group_ad_asset_view.source, asset.id, asset.type, asset.text_asset.text, metrics.impressions, metrics.clicks FROM ad_group_ad_asset_view",
  ],
  [
    RICH,
    "SELECT search_term_view.search_term, search_term_view.status, search_term_view.ad_group, segments.search_term_match_type, segments.keyword.info.text, segments.keyword.info.match_type, segments.keyword.ad_group_criterion, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value FROM search_term_view WHERE segments.date DURING LAST_7_DAYS",
  ],
  [
    RICH,
    "SELECT campaign_search_term_view.search_term, campaign_search_term_view.campaign, segments.search_term_match_type, metrics.clicks, metrics.conversions FROM campaign_search_term_view",
  ],
  [
    SMALL,
    "SELECT campaign_criterion.criterion_id, campaign_criterion.campaign, campaign_criterion.type, campaign_criterion.negative, campaign_criterion.status, campaign_criterion.keyword.text, campaign_criterion.keyword.match_type, campaign_criterion.location.geo_target_constant, campaign_criterion.language.language_constant FROM campaign_criterion",
  ],
  [
    RICH,
    "SELECT asset_group.id, asset_group.name, asset_group.status, asset_group.campaign, asset_group.final_urls, asset_group.path1, asset_group.ad_strength, asset_group.primary_status, asset_group.primary_status_reasons, campaign.id, campaign.advertising_channel_type FROM asset_group",
  ],
  [
    RICH,
    "SELECT asset_group_asset.asset_group, asset_group_asset.asset, asset_group_asset.field_type, asset_group_asset.status, asset_group_asset.source, asset_group_asset.primary_status, asset_group_asset.primary_status_reasons, asset.id, asset.type, asset.name, asset.text_asset.text, asset.image_asset.full_size.width_pixels, asset_group.id FROM asset_group_asset",
  ],
  [
    RICH,
    "SELECT asset_group_listing_group_filter.id, asset_group_listing_group_filter.asset_group, asset_group_listing_group_filter.type, asset_group_listing_group_filter.listing_source, asset_group_listing_group_filter.case_value.product_brand.value, asset_group_listing_group_filter.parent_listing_group_filter, campaign.id FROM asset_group_listing_group_filter",
  ],
];

describe("JSON shapes match the v24 discovery document (committed catalogue)", () => {
  for (const [cid, q] of QUERIES) {
    it(q.slice(0, 90), () => {
      const page = ds.query(cid, q);
      expect(page.results.length).toBeGreaterThan(0);
      const { checked, problems } = checkRows(page.results as Row[], page.fieldMask);
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(0);
      // Every selected field is a catalogue field with this JSON path.
      for (const path of page.fieldMask.split(",")) expect(byJson.has(path), path).toBe(true);
    });
  }

  it('selected zero metrics are present as "0" / 0, like proto3 optional fields', () => {
    const [r] = ds.query(
      RICH,
      "SELECT campaign.name, metrics.clicks, metrics.conversions, metrics.ctr, metrics.average_cpc FROM campaign WHERE campaign.status = REMOVED AND segments.date DURING LAST_7_DAYS",
    ).results as Row[];
    expect(r.metrics).toEqual({ clicks: "0", conversions: 0, ctr: 0, averageCpc: 0 });
  });

  it("int64 ids stay exact as strings; doubles are plain numbers", () => {
    const [r] = ds.query(
      RICH,
      "SELECT campaign.id, campaign_budget.amount_micros, metrics.cost_micros, metrics.average_cpc FROM campaign WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.cost_micros DESC LIMIT 1",
    ).results as Row[];
    expect(r.campaign.id).toMatch(/^\d{11}$/);
    expect(BigInt(r.metrics.costMicros) % 10000n).toBe(0n);
    expect(typeof r.metrics.averageCpc).toBe("number");
  });
});
