import { describe, it, expect } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { loadCatalogue, resolveField } from "./catalogue";
import { buildCatalogue, CATALOGUE_PATH, DEFAULT_DISCOVERY_PATH, serializeCatalogue } from "./build-catalogue";

describe("committed v24 catalogue", () => {
  const cat = loadCatalogue();

  it("covers every resource the product reads, plus metrics and segments", () => {
    for (const r of [
      "customer",
      "customer_client",
      "campaign",
      "campaign_budget",
      "ad_group",
      "ad_group_criterion",
      "keyword_view",
      "ad_group_ad",
      "ad_group_ad_asset_view",
      "asset",
      "search_term_view",
      "campaign_search_term_view",
      "campaign_criterion",
      "change_event",
      "metrics",
      "segments",
    ]) {
      expect(Object.keys(cat.resources[r]?.fields ?? {}).length, r).toBeGreaterThan(0);
    }
    expect(cat.version).toBe("v24");
    expect(cat.attribution).toMatch(/Apache License 2\.0/);
  });

  it("maps snake_case GAQL names to camelCase JSON with proto3-JSON types", () => {
    expect(resolveField("metrics.cost_micros")).toMatchObject({ json: "metrics.costMicros", type: "int64" });
    expect(resolveField("metrics.average_cpc")).toMatchObject({ json: "metrics.averageCpc", type: "double" });
    expect(resolveField("campaign.target_cpa.target_cpa_micros")).toMatchObject({ json: "campaign.targetCpa.targetCpaMicros", type: "int64" });
    expect(resolveField("ad_group_criterion.quality_info.quality_score")).toMatchObject({ type: "int32" });
    expect(resolveField("customer_client.level")).toMatchObject({ type: "int64" });
    expect(resolveField("ad_group_ad.ad.responsive_search_ad.headlines")).toMatchObject({ type: "message", repeated: true, message: "AdTextAsset" });
    expect(resolveField("campaign.status")?.enumValues).toEqual(["UNSPECIFIED", "UNKNOWN", "ENABLED", "PAUSED", "REMOVED"]);
    expect(resolveField("ad_group_criterion.keyword.match_type")?.enumValues).toContain("PHRASE");
    expect(resolveField("search_term_view.status")?.enumValues).toContain("ADDED_EXCLUDED");
    expect(resolveField("campaign.start_date")).toBeUndefined();
    expect(cat.messages.AdTextAsset).toMatchObject({ text: { type: "string" }, pinnedField: { type: "enum" }, assetPerformanceLabel: { type: "enum" } });
  });

  it.skipIf(!existsSync(DEFAULT_DISCOVERY_PATH))("is exactly what build-catalogue.ts produces from ../shared", () => {
    expect(serializeCatalogue(buildCatalogue(DEFAULT_DISCOVERY_PATH))).toBe(readFileSync(CATALOGUE_PATH, "utf8"));
  });
});
