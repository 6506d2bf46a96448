import { normalizeCustomerId } from "./customer-id.server";
import { getDb } from "../db/db.server";

// Performance Max asset groups of one campaign, as the last sync stored them
// (issue 32, point 5): read only. Google's API v24 gives Performance Max assets
// no performance label (asset_group_asset has none; only ad_group_ad_asset_view
// keeps one), so each asset carries its link's primary status and reasons.

export interface AssetGroupAsset {
  assetId: string;
  fieldType: string;
  assetType: string | null;
  /** The text of a text asset, or the name of an image. */
  text: string | null;
  status: string | null;
  primaryStatus: string | null;
  primaryStatusReasons: string[];
}

/** The listing-group tree in one line's worth: what it includes and excludes. */
export interface ListingGroupSummary {
  /** "all": every product (a single included unit); "filtered": units under subdivisions. */
  kind: "all" | "filtered" | "none";
  included: string[];
  excluded: string[];
  /** Whether "everything else" (a unit with no value under a subdivision) is included. */
  everythingElse: "included" | "excluded" | null;
}

export interface AssetGroup {
  id: string;
  name: string;
  status: string;
  adStrength: string | null;
  primaryStatus: string | null;
  finalUrl: string | null;
  assets: AssetGroupAsset[];
  listingGroups: ListingGroupSummary;
}

/** Google's order in its own asset-group view: texts first, then images. */
const FIELD_ORDER = ["HEADLINE", "LONG_HEADLINE", "DESCRIPTION", "BUSINESS_NAME", "MARKETING_IMAGE", "SQUARE_MARKETING_IMAGE", "LOGO"];
const fieldRank = (f: string) => {
  const i = FIELD_ORDER.indexOf(f);
  return i < 0 ? FIELD_ORDER.length : i;
};

export async function listAssetGroups(customerId: string, campaignId: string): Promise<AssetGroup[]> {
  const cid = normalizeCustomerId(customerId);
  const db = getDb();
  const [groups, assets, nodes] = await Promise.all([
    db
      .selectFrom("ads_asset_groups")
      .selectAll()
      .where("customer_id", "=", cid)
      .where("campaign_id", "=", campaignId)
      .where("status", "!=", "REMOVED")
      .orderBy("id")
      .execute(),
    db.selectFrom("ads_asset_group_assets").selectAll().where("customer_id", "=", cid).where("campaign_id", "=", campaignId).orderBy("asset_id").execute(),
    db.selectFrom("ads_asset_group_listing_groups").selectAll().where("customer_id", "=", cid).where("campaign_id", "=", campaignId).orderBy("id").execute(),
  ]);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    status: g.status,
    adStrength: g.ad_strength,
    primaryStatus: g.primary_status,
    finalUrl: g.final_url,
    assets: assets
      .filter((a) => a.asset_group_id === g.id)
      .sort((a, b) => fieldRank(a.field_type) - fieldRank(b.field_type))
      .map((a) => ({
        assetId: a.asset_id,
        fieldType: a.field_type,
        assetType: a.asset_type,
        text: a.text ?? a.name,
        status: a.status,
        primaryStatus: a.primary_status,
        primaryStatusReasons: a.primary_status_reasons ? a.primary_status_reasons.split(",") : [],
      })),
    listingGroups: summarizeListingGroups(nodes.filter((n) => n.asset_group_id === g.id)),
  }));
}

/** Units (leaves) say what is in and out; a lone unit with no parent is "all products". */
export function summarizeListingGroups(
  nodes: ReadonlyArray<{ type: string; brand: string | null; product_type: string | null; parent_id: string | null }>,
): ListingGroupSummary {
  if (nodes.length === 0) return { kind: "none", included: [], excluded: [], everythingElse: null };
  const units = nodes.filter((n) => n.type === "UNIT_INCLUDED" || n.type === "UNIT_EXCLUDED");
  if (units.length === 1 && units[0].parent_id === null) {
    return units[0].type === "UNIT_INCLUDED"
      ? { kind: "all", included: [], excluded: [], everythingElse: null }
      : { kind: "none", included: [], excluded: [], everythingElse: null };
  }
  const summary: ListingGroupSummary = { kind: "filtered", included: [], excluded: [], everythingElse: null };
  for (const u of units) {
    const value = u.brand ?? u.product_type;
    const included = u.type === "UNIT_INCLUDED";
    if (value === null) summary.everythingElse = included ? "included" : "excluded";
    else (included ? summary.included : summary.excluded).push(value);
  }
  return summary;
}
