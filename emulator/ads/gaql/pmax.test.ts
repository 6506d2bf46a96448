import { describe, expect, it } from "vitest";
import { demoSource, demoStore, failure, RICH, SMALL, type Row } from "../test/helpers";

// Performance Max asset groups (issue 32, point 5) with Google's v24 resources and field names.
const ds = demoSource();
const rows = (gaql: string, cid = RICH) => ds.query(cid, gaql).results as Row[];
const PMAX = "17000000094";

describe("Performance Max asset groups", () => {
  it("the demo's PMax campaign has asset groups, and only PMax campaigns have any", () => {
    const groups = rows("SELECT asset_group.id, asset_group.name, asset_group.status, campaign.id, campaign.advertising_channel_type FROM asset_group");
    expect(groups.map((g) => g.assetGroup.name)).toEqual(["Tents & Shelter", "Sleeping & Camp Kitchen", "Winter Clearance"]);
    for (const g of groups) {
      expect(g.campaign.id).toBe(PMAX);
      expect(g.campaign.advertisingChannelType).toBe("PERFORMANCE_MAX");
      expect(g.assetGroup.id).toMatch(/^\d+$/);
    }
    expect(groups.find((g) => g.assetGroup.name === "Winter Clearance")?.assetGroup.status).toBe("PAUSED");
    expect(rows("SELECT asset_group.id FROM asset_group", SMALL)).toEqual([]);
  });

  it("asset_group_asset links text and image assets to their group with field types and primary status", () => {
    const links = rows(
      "SELECT asset_group.name, asset_group_asset.field_type, asset_group_asset.primary_status, asset_group_asset.primary_status_reasons, asset.type, asset.text_asset.text FROM asset_group_asset WHERE asset_group.name = 'Tents & Shelter'",
    );
    const types = links.map((l) => l.assetGroupAsset.fieldType);
    expect(types.filter((t) => t === "HEADLINE")).toHaveLength(5);
    expect(types.filter((t) => t === "DESCRIPTION")).toHaveLength(2);
    expect(types).toContain("LONG_HEADLINE");
    expect(types).toContain("BUSINESS_NAME");
    expect(types.filter((t) => t === "MARKETING_IMAGE" || t === "SQUARE_MARKETING_IMAGE")).toHaveLength(3);
    expect(links.find((l) => l.assetGroupAsset.fieldType === "HEADLINE")?.asset.textAsset.text).toBe("Tents for Every Trip");
    for (const l of links) {
      expect(["ELIGIBLE", "LIMITED"]).toContain(l.assetGroupAsset.primaryStatus);
      if (l.assetGroupAsset.primaryStatus === "LIMITED") expect(l.assetGroupAsset.primaryStatusReasons).toEqual(["ASSET_APPROVED_LABELED"]);
    }
    // The filter on the joined asset group narrows the rows.
    expect(rows("SELECT asset_group_asset.field_type FROM asset_group_asset").length).toBeGreaterThan(links.length);
  });

  it("v24 has no performance_label on asset_group_asset: Google's UNRECOGNIZED_FIELD", () => {
    expect(failure(() => rows("SELECT asset_group_asset.performance_label FROM asset_group_asset")).errorCode).toEqual({ queryError: "UNRECOGNIZED_FIELD" });
  });

  it("listing groups: a brand subdivision with one unit per brand and everything else excluded", () => {
    const filters = rows(
      "SELECT asset_group.name, asset_group_listing_group_filter.id, asset_group_listing_group_filter.type, asset_group_listing_group_filter.case_value.product_brand.value, asset_group_listing_group_filter.parent_listing_group_filter FROM asset_group_listing_group_filter",
    );
    const of = (name: string) => filters.filter((f) => f.assetGroup.name === name).map((f) => f.assetGroupListingGroupFilter);
    const tents = of("Tents & Shelter");
    expect(tents.map((f) => f.type)).toEqual(["SUBDIVISION", "UNIT_INCLUDED", "UNIT_INCLUDED", "UNIT_EXCLUDED"]);
    expect(tents.slice(1, 3).map((f) => f.caseValue?.productBrand?.value)).toEqual(["Northwind", "Summit Works"]);
    // "Everything else" is the brand dimension with no value (unset in proto3 JSON).
    expect(tents[3].caseValue?.productBrand?.value).toBeUndefined();
    const root = tents[0];
    for (const f of tents.slice(1)) expect(f.parentListingGroupFilter).toMatch(new RegExp(`/assetGroupListingGroupFilters/\\d+~${root.id}$`));
    // No brands: "All products" alone.
    expect(of("Winter Clearance").map((f) => f.type)).toEqual(["UNIT_INCLUDED"]);
  });

  it("adds to the demo without moving what was there: the PMax assets have their own id range", () => {
    const acct = demoStore().account(RICH)!;
    const textAssets = acct.assets.filter((a) => a.data.id < 195_000_000_000);
    const pmaxAssets = acct.assets.filter((a) => a.data.id >= 195_000_000_000);
    expect(pmaxAssets.length).toBe(acct.assetGroupAssets.length);
    // The search ads' assets come first, as before.
    expect(acct.assets.slice(0, textAssets.length)).toEqual(textAssets);
  });
});
