import type { Action } from "../changes/propose.server";

// The shape of a recommendation, as the engine produces it, the database
// stores it and the JSON API returns it.

/** The rules' `type`s: a contract of the API, the screens and the checks. */
export const RECOMMENDATION_TYPES = [
  "wasted_keyword",
  "wasted_search_term",
  "negative_ngram",
  "harvest_search_term",
  "budget_limited",
  "bid_adjustment",
  "low_quality_score",
  "weak_ad",
  "duplicate_keyword",
  "paused_converting",
  "blocked_keyword",
  // Added after the eleven (ADR 010, amendment): keywords Google rarely serves (research Q5).
  "rarely_served",
] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

/**
 * Where a campaign's target comes from, best first: its bidding strategy, the account's
 * target in Settings, an account-level reference (the blended CPA or ROAS of the account's
 * other campaigns of the same channel: issue 28 point 2), else an assumed target (the
 * account's own blend, for an account with nothing to compare with).
 */
export type TargetSource = "bidding strategy" | "account setting" | "account reference" | "assumed target";

export interface Target {
  metric: "cpa" | "roas";
  /** CPA in account currency units; ROAS as a ratio (3 = 300 %). */
  value: number;
  source: TargetSource;
  /** For an account reference: what it is made of, in words ("3 other Search campaigns, 120 conversions"). */
  basis?: string;
}

export interface ResourceRef {
  kind: "campaign" | "ad_group" | "keyword" | "negative_keyword" | "campaign_negative_keyword" | "search_term" | "ad";
  /** The id the change-set API uses (keywords and ads: "adGroupId~id"). */
  id: string;
  name: string;
  resourceName?: string;
}

export interface Figure {
  name: string;
  label: string;
  value: number | string | null;
  unit?: "money" | "count" | "percent" | "ratio" | "text";
}

export interface Evidence {
  /** One plain-English sentence. */
  summary: string;
  dateRange: { from: string; to: string };
  syncedAt: string | null;
  figures: Figure[];
  target: (Target & { label: string }) | null;
  test: { name: string; result: string; confidence: number | null } | null;
  notes: string[];
}

export interface Impact {
  kind: "cost_saved" | "conversions_gained" | "value_gained" | "none";
  /** Per month: currency units for cost/value, conversions for conversions. */
  monthly: number;
  /** Conversions the change could cost (the downside of a saving), per month. */
  riskConversions: number | null;
  assumption: string;
}

export interface Link {
  label: string;
  href: string;
}

/**
 * Another finding on the same entity, folded into the item with the best action (issue 29
 * point 5): shown as an alternative, its impact not counted again.
 */
export interface Alternative {
  key: string;
  type: RecommendationType;
  title: string;
  confidence: number;
  impact: Impact;
  actions: Action[];
  resources: ResourceRef[];
  evidence: Evidence;
}

/** What a rule emits (before it is stored). */
export interface Finding {
  key: string;
  type: RecommendationType;
  title: string;
  resources: ResourceRef[];
  /** 0–1; shown as Strong (≥ 0.95) or Likely (≥ 0.90). Facts (a duplicate, a conflict) are 1. */
  confidence: number;
  impact: Impact;
  /** The impact in account currency, for sorting across kinds. */
  sortAmount: number;
  evidence: Evidence;
  /** Exactly the change-set API's actions (POST /api/v1/accounts/{id}/change-sets); empty when nothing is automatic. */
  actions: Action[];
  links: Link[];
  /** Other findings on the same entity (set when overlapping findings are merged). */
  alternatives?: Alternative[];
}

export type RecommendationStatus = "open" | "dismissed" | "snoozed" | "applied";

/** A stored recommendation as the API and the screens see it. */
export interface Recommendation {
  id: string;
  type: RecommendationType;
  title: string;
  status: RecommendationStatus;
  confidence: number;
  confidenceLabel: "Strong" | "Likely";
  impact: Impact & { currencyCode: string };
  evidence: Evidence;
  actions: Action[];
  resources: ResourceRef[];
  links: Link[];
  /** Other findings on the same entity: the best action is this item's; these are the others (impact not counted again). */
  alternatives: Array<Alternative & { currencyCode: string }>;
  dismissedReason: string | null;
  snoozedUntil: string | null;
  /** The change set its Apply created (the latest), if any. */
  changeSetId: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
}
