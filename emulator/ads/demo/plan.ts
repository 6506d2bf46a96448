// Intermediate "plans" the account builders produce and the engine turns into
// entities plus daily traffic. Traffic parameters are per-day expectations.

import type {
  AdGroupAdData,
  AdTextAsset,
  BiddingStrategyType,
  ChannelType,
  EntityStatus,
  MatchType,
  QualityBucket,
  SearchTermMatchType,
  SearchTermStatus,
} from "../store/types";

export interface Traffic {
  /** Expected daily impressions before seasonality. */
  lambda: number;
  ctr: number;
  /** Average cost per click, account currency units. */
  cpc: number;
  /** Conversions per click. */
  cvr: number;
  /** Conversion value per conversion, currency units. */
  aov: number;
}

export interface TermPlan {
  text: string;
  matchType: SearchTermMatchType;
  /** Share of the keyword's traffic this term takes. */
  share: number;
  /** Relative conversion propensity (0 = never converts). */
  convWeight: number;
  status: SearchTermStatus;
  /** Traffic stops at this day offset (e.g. the term was excluded later). */
  activeUntil?: number;
}

export interface KeywordPlan extends Traffic {
  text: string;
  matchType: MatchType;
  negative: boolean;
  status: EntityStatus;
  cpcBidMicros?: number;
  qualityScore?: number;
  creative?: QualityBucket;
  postClick?: QualityBucket;
  predictedCtr?: QualityBucket;
  rarelyServed?: boolean;
  /** Day offsets [activeFrom, activeUntil) in which the keyword serves. */
  activeFrom: number;
  activeUntil: number;
  /** Extra, hand-planted search terms (on top of generated ones). */
  terms?: TermPlan[];
  /** Skip generated search terms (e.g. keyword used only for a planted term). */
  noAutoTerms?: boolean;
}

export interface AdPlan {
  type: "RESPONSIVE_SEARCH_AD" | "RESPONSIVE_DISPLAY_AD";
  status: EntityStatus;
  headlines: AdTextAsset[];
  descriptions: AdTextAsset[];
  longHeadline?: string;
  businessName?: string;
  path1?: string;
  path2?: string;
  finalUrl: string;
  /** Share of the ad group's traffic. */
  weight: number;
  adStrength: AdGroupAdData["adStrength"];
  /** "weak" ads get mostly LOW asset labels. */
  quality: "normal" | "weak";
  /** Headline/description arrays may be shared between ads (scale mode); never mutate in place. */
  shared?: boolean;
}

export interface AdGroupPlan {
  name: string;
  status: EntityStatus;
  type: "SEARCH_STANDARD" | "DISPLAY_STANDARD";
  cpcBidMicros?: number;
  targetCpaMicros?: number;
  keywords: KeywordPlan[];
  ads: AdPlan[];
  /** Display ad groups get traffic directly (no keywords). */
  display?: Traffic;
  activeUntil: number;
}

export interface BiddingPlan {
  type: BiddingStrategyType;
  targetCpaMicros?: number;
  targetRoas?: number;
}

export interface CampaignPlan {
  name: string;
  channel: ChannelType;
  status: EntityStatus;
  bidding: BiddingPlan;
  brand: boolean;
  /** Budget relative to average daily spend; ≈1 makes the campaign budget-limited. */
  budgetHeadroom: number;
  /** Typical search impression share and share lost to budget (search only). */
  baseImpressionShare: number;
  baseBudgetLost: number;
  activeUntil: number;
  startDate: string;
  mobileShare: number;
  tabletShare: number;
  geoTargetConstant: string;
  languageConstant: string;
  negatives: Array<[string, MatchType]>;
  adGroups: () => Iterable<AdGroupPlan>;
  /** Performance Max: campaign-level traffic and its search-term categories. */
  pmax?: Traffic & { terms: string[] };
  /** Performance Max: its asset groups (read only in the emulator). */
  assetGroups?: AssetGroupPlan[];
  labels?: string[];
}

/** One Performance Max asset group: its texts, and the brands its listing groups include (the rest excluded). */
export interface AssetGroupPlan {
  name: string;
  status: EntityStatus;
  finalUrl: string;
  path1?: string;
  headlines: string[];
  longHeadlines: string[];
  descriptions: string[];
  businessName: string;
  images: number;
  brands: string[];
}

export interface AccountPlan {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  campaigns: Iterable<CampaignPlan>;
  /** Generate one-to-several realistic search terms per keyword ("rich") or at most one ("sparse"). */
  termMode: "rich" | "sparse";
  sparseTermProbability: number;
  /** Build asset + ad_group_ad_asset_view rows (skipped at benchmark scale to save memory). */
  assetViews: boolean;
  finalUrlBase: string;
}
