// Row shapes of the in-memory Ads store.
//
// `data` objects are shaped exactly like the REST resources (lowerCamelCase,
// nested like the API) so GAQL fields resolve by walking the catalogue's JSON
// path. int64 values are held as JS numbers (ids < 2^53) and only turned into
// strings when serialised; anything absent is simply not set (proto3 style).

export type EntityStatus = "ENABLED" | "PAUSED" | "REMOVED";
export type ChannelType = "SEARCH" | "DISPLAY" | "PERFORMANCE_MAX";
export type BiddingStrategyType = "MANUAL_CPC" | "MAXIMIZE_CONVERSIONS" | "MAXIMIZE_CONVERSION_VALUE" | "TARGET_CPA" | "TARGET_ROAS" | "TARGET_SPEND";
export type MatchType = "EXACT" | "PHRASE" | "BROAD";
export type QualityBucket = "BELOW_AVERAGE" | "AVERAGE" | "ABOVE_AVERAGE";
export type AdStrength = "PENDING" | "NO_ADS" | "POOR" | "AVERAGE" | "GOOD" | "EXCELLENT";
export type PerformanceLabel = "PENDING" | "LEARNING" | "LOW" | "GOOD" | "BEST";
export type Device = "MOBILE" | "DESKTOP" | "TABLET";
export type SearchTermStatus = "ADDED" | "EXCLUDED" | "ADDED_EXCLUDED" | "NONE";
export type SearchTermMatchType = "BROAD" | "EXACT" | "PHRASE" | "NEAR_EXACT" | "NEAR_PHRASE" | "PERFORMANCE_MAX";

export interface CustomerData {
  resourceName: string;
  id: number;
  descriptiveName: string;
  currencyCode: string;
  timeZone: string;
  manager: boolean;
  testAccount: boolean;
  status: "ENABLED" | "CANCELED" | "SUSPENDED" | "CLOSED";
  autoTaggingEnabled: boolean;
  hasPartnersBadge?: boolean;
  optimizationScore?: number;
}

export interface CampaignBudgetData {
  resourceName: string;
  id: number;
  name: string;
  amountMicros: number;
  deliveryMethod: "STANDARD" | "ACCELERATED";
  explicitlyShared: boolean;
  period: "DAILY";
  status: "ENABLED" | "REMOVED";
  type: "STANDARD";
}

export interface CampaignData {
  resourceName: string;
  id: number;
  name: string;
  status: EntityStatus;
  servingStatus: "SERVING" | "NONE" | "ENDED" | "PENDING" | "SUSPENDED";
  primaryStatus?: string;
  primaryStatusReasons?: string[];
  advertisingChannelType: ChannelType;
  biddingStrategyType: BiddingStrategyType;
  campaignBudget: string;
  startDateTime?: string;
  manualCpc?: { enhancedCpcEnabled: boolean };
  maximizeConversions?: { targetCpaMicros?: number };
  maximizeConversionValue?: { targetRoas?: number };
  targetCpa?: { targetCpaMicros: number };
  targetRoas?: { targetRoas: number };
  targetSpend?: { cpcBidCeilingMicros?: number };
  networkSettings: {
    targetGoogleSearch: boolean;
    targetSearchNetwork: boolean;
    targetContentNetwork: boolean;
    targetPartnerSearchNetwork: boolean;
  };
  containsEuPoliticalAdvertising: "CONTAINS_EU_POLITICAL_ADVERTISING" | "DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING";
  labels?: string[];
  optimizationScore?: number;
}

export interface AdGroupData {
  resourceName: string;
  id: number;
  name: string;
  status: EntityStatus;
  type: "SEARCH_STANDARD" | "DISPLAY_STANDARD";
  campaign: string;
  cpcBidMicros?: number;
  targetCpaMicros?: number;
  effectiveTargetCpaMicros?: number;
  targetRoas?: number;
  effectiveTargetRoas?: number;
}

export interface AdTextAsset {
  text: string;
  pinnedField?: "HEADLINE_1" | "HEADLINE_2" | "HEADLINE_3" | "DESCRIPTION_1" | "DESCRIPTION_2";
  assetPerformanceLabel?: PerformanceLabel;
}

export interface AdData {
  resourceName: string;
  id: number;
  type: "RESPONSIVE_SEARCH_AD" | "RESPONSIVE_DISPLAY_AD";
  finalUrls: string[];
  responsiveSearchAd?: {
    headlines: AdTextAsset[];
    descriptions: AdTextAsset[];
    path1?: string;
    path2?: string;
  };
  responsiveDisplayAd?: {
    headlines: AdTextAsset[];
    longHeadline: AdTextAsset;
    descriptions: AdTextAsset[];
    businessName: string;
  };
}

export interface AdGroupAdData {
  resourceName: string;
  adGroup: string;
  status: EntityStatus;
  adStrength: AdStrength;
  ad: AdData;
  policySummary: { approvalStatus: "APPROVED" | "APPROVED_LIMITED" | "DISAPPROVED"; reviewStatus: "REVIEWED" };
  primaryStatus?: string;
}

export interface AssetData {
  resourceName: string;
  id: number;
  type: "TEXT" | "IMAGE";
  source: "ADVERTISER";
  name?: string;
  textAsset?: { text: string };
  imageAsset?: { mimeType: "IMAGE_JPEG" | "IMAGE_PNG"; fullSize: { widthPixels: number; heightPixels: number; url: string } };
}

/** Performance Max: an asset group of a campaign (Google's AssetGroup, API v24). */
export interface AssetGroupData {
  resourceName: string;
  id: number;
  campaign: string;
  name: string;
  status: EntityStatus;
  finalUrls: string[];
  path1?: string;
  path2?: string;
  adStrength: AdStrength;
  primaryStatus: "ELIGIBLE" | "PAUSED" | "REMOVED" | "LIMITED" | "NOT_ELIGIBLE" | "PENDING";
  primaryStatusReasons?: string[];
}

export type AssetGroupFieldType =
  "HEADLINE" | "LONG_HEADLINE" | "DESCRIPTION" | "BUSINESS_NAME" | "MARKETING_IMAGE" | "SQUARE_MARKETING_IMAGE" | "LOGO" | "CALL_TO_ACTION_SELECTION";

/**
 * The link of an asset to an asset group (Google's AssetGroupAsset, API v24). v24 has no
 * performance_label on it (Google removed it; only ad_group_ad_asset_view keeps one):
 * the asset's standing is its primary status and reasons.
 */
export interface AssetGroupAssetData {
  resourceName: string;
  assetGroup: string;
  asset: string;
  fieldType: AssetGroupFieldType;
  status: EntityStatus;
  source: "ADVERTISER";
  primaryStatus: "ELIGIBLE" | "PAUSED" | "REMOVED" | "LIMITED" | "NOT_ELIGIBLE" | "PENDING";
  primaryStatusReasons?: string[];
}

/** A node of an asset group's listing-group tree (Google's AssetGroupListingGroupFilter, API v24). */
export interface AssetGroupListingGroupFilterData {
  resourceName: string;
  assetGroup: string;
  id: number;
  type: "SUBDIVISION" | "UNIT_INCLUDED" | "UNIT_EXCLUDED";
  listingSource: "SHOPPING";
  caseValue?: { productBrand?: { value?: string } } | { productType?: { value?: string; level: "LEVEL1" } };
  parentListingGroupFilter?: string;
}

export interface AdGroupAdAssetViewData {
  resourceName: string;
  adGroupAd: string;
  asset: string;
  fieldType: "HEADLINE" | "DESCRIPTION";
  performanceLabel: PerformanceLabel;
  pinnedField?: AdTextAsset["pinnedField"];
  enabled: boolean;
  source: "ADVERTISER";
}

export interface CampaignCriterionData {
  resourceName: string;
  campaign: string;
  criterionId: number;
  type: "KEYWORD" | "LOCATION" | "LANGUAGE";
  negative: boolean;
  status: EntityStatus;
  keyword?: { text: string; matchType: MatchType };
  location?: { geoTargetConstant: string };
  language?: { languageConstant: string };
}

/** Snapshot shape of a keyword row (stored column-wise, see KeywordTable). */
export interface AdGroupCriterionData {
  resourceName: string;
  criterionId: number;
  adGroup: string;
  status: EntityStatus;
  type: "KEYWORD";
  negative: boolean;
  keyword: { text: string; matchType: MatchType };
  cpcBidMicros?: number;
  effectiveCpcBidMicros?: number;
  approvalStatus: "APPROVED";
  systemServingStatus: "ELIGIBLE" | "RARELY_SERVED";
  qualityInfo?: {
    qualityScore?: number;
    creativeQualityScore?: QualityBucket;
    postClickQualityScore?: QualityBucket;
    searchPredictedCtr?: QualityBucket;
  };
  positionEstimates?: {
    firstPageCpcMicros?: number;
    topOfPageCpcMicros?: number;
    firstPositionCpcMicros?: number;
  };
  finalUrls?: string[];
}

export interface ChangeEventData {
  resourceName: string;
  changeDateTime: string;
  changeResourceType: string;
  changeResourceName: string;
  clientType: string;
  userEmail: string;
  resourceChangeOperation: "CREATE" | "UPDATE" | "REMOVE";
  changedFields?: string;
  oldResource?: Record<string, unknown>;
  newResource?: Record<string, unknown>;
  campaign?: string;
  adGroup?: string;
  asset?: string;
}

// ---- Entities: API-shaped data plus the internal links joins need ----

export interface CampaignEntity {
  idx: number;
  budgetIdx: number;
  /** Device mix of the campaign's traffic; desktop gets the rest. Drives segments.device. */
  mobileShare: number;
  tabletShare: number;
  data: CampaignData;
}
export interface BudgetEntity {
  idx: number;
  data: CampaignBudgetData;
}
export interface AdGroupEntity {
  idx: number;
  campaignIdx: number;
  data: AdGroupData;
}
export interface AdGroupAdEntity {
  idx: number;
  adGroupIdx: number;
  /**
   * Historical share of the ad group's traffic this ad served. Ad metrics are
   * the ad group's split by these weights, so later status changes (or new ads,
   * weight 0) never rewrite history.
   */
  trafficWeight: number;
  data: AdGroupAdData;
}
export interface AssetEntity {
  idx: number;
  data: AssetData;
}
export interface AdAssetLinkEntity {
  idx: number;
  adIdx: number;
  assetIdx: number;
  /** Share of the ad's served impressions that showed this asset (drives the view's metrics). */
  servedShare: number;
  data: AdGroupAdAssetViewData;
}
export interface AssetGroupEntity {
  idx: number;
  campaignIdx: number;
  data: AssetGroupData;
}
export interface AssetGroupAssetEntity {
  idx: number;
  assetGroupIdx: number;
  assetIdx: number;
  data: AssetGroupAssetData;
}
export interface ListingGroupFilterEntity {
  idx: number;
  assetGroupIdx: number;
  data: AssetGroupListingGroupFilterData;
}
export interface CampaignCriterionEntity {
  idx: number;
  campaignIdx: number;
  data: CampaignCriterionData;
}
export interface ChangeEventEntity {
  idx: number;
  /** Epoch micros of the change, for range filtering without re-parsing the string. */
  timestampMicros: number;
  campaignIdx: number;
  adGroupIdx: number;
  data: ChangeEventData;
}
