// What the screens say about recommendations (shared by server and client; no server code).
import { countOf } from "./format";

export const RECOMMENDATION_TYPE_LABELS: Record<string, string> = {
  wasted_keyword: "Keywords that spend without converting",
  wasted_search_term: "Search terms that spend without converting",
  negative_ngram: "Words that fail across search terms",
  harvest_search_term: "Converting search terms to add as keywords",
  budget_limited: "Budget-limited campaigns beating target",
  bid_adjustment: "Bids and targets off target",
  low_quality_score: "Low quality scores",
  weak_ad: "Weak ads",
  duplicate_keyword: "Duplicate keywords",
  paused_converting: "Paused keywords that converted",
  blocked_keyword: "Negatives that block keywords",
  rarely_served: "Keywords that rarely show",
};

export const RECOMMENDATION_LISTS = ["open", "snoozed", "dismissed", "applied"] as const;
export type RecommendationList = (typeof RECOMMENDATION_LISTS)[number];
/** The list a query or form value names, or null when it names none (typed, or tampered with). */
export function recommendationList(value: unknown): RecommendationList | null {
  return RECOMMENDATION_LISTS.find((l) => l === value) ?? null;
}

/** Whether a value names a recommendation type (a group of the list). */
export const isRecommendationType = (value: string): boolean => Object.hasOwn(RECOMMENDATION_TYPE_LABELS, value);

export const RECOMMENDATION_LIST_LABELS: Record<RecommendationList, string> = { open: "Open", snoozed: "Snoozed", dismissed: "Dismissed", applied: "Applied" };

export const DISMISS_REASON_MAX = 500;

/** "Saves about $120 a month", "+3.5 conversions a month"… */
export function impactText(impact: { kind: string; monthly: number; currencyCode: string }): string {
  const money = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: impact.currencyCode, maximumFractionDigits: 0 }).format(n);
  const num = (n: number) => (Math.round(n * 10) / 10).toLocaleString("en-US");
  switch (impact.kind) {
    case "cost_saved":
      return `Saves about ${money(impact.monthly)} a month`;
    case "conversions_gained":
      return impact.monthly > 0 ? `About +${countOf(impact.monthly, "conversion", num(impact.monthly))} a month` : "Conversions: unknown until it serves";
    case "value_gained":
      return `About +${money(impact.monthly)} conversion value a month`;
    default:
      return "Tidies the account";
  }
}
