// Impression-share model shared by the generator (which stores ad-group and
// campaign sums) and the query engine (which derives keyword-level values on
// the fly from the campaign's daily rates).

/** Per-campaign daily inputs: fractions of eligible impressions lost to budget and to rank. */
export interface ImpressionShareRates {
  /** Index [campaignIdx * days + day]; NaN where the campaign is not a Search campaign. */
  budgetLost: Float32Array;
  rankLost: Float32Array;
  days: number;
}

/** Keyword-level rank-loss multiplier: low quality score loses more auctions on rank. */
export function rankLossFactor(qualityScore: number): number {
  return qualityScore > 0 ? 1.6 - 0.12 * qualityScore : 1;
}

/** A keyword's impression share on a day, from its campaign's daily rates. */
export function keywordImpressionShare(budgetLost: number, rankLost: number, qualityScore: number): number {
  const is = 1 - budgetLost - rankLost * rankLossFactor(qualityScore);
  return is < 0.05 ? 0.05 : is > 1 ? 1 : is;
}

/** Google reports search IS in [0.1, 1] (below → 0.0999) and lost IS in [0, 0.9] (above → 0.9001). */
export function reportedImpressionShare(value: number): number {
  return value < 0.1 ? 0.0999 : value > 1 ? 1 : value;
}

export function reportedLostImpressionShare(value: number): number {
  return value > 0.9 ? 0.9001 : value < 0 ? 0 : value;
}
