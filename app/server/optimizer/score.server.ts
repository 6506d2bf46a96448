import type { Context } from "./context.server";
import type { Finding, RecommendationType } from "./types.server";

// The Performance Score (0–100): waste and missed opportunity at target,
// never spend. Each category's score is 100 × (1 − the share of its base the
// findings touch); the total is the weighted mean over applicable categories
// (research §7.5). Dismissing a recommendation does not raise it: the score
// reads the findings of the last run, whatever their status; applying (and the
// next sync showing the change) does.

export interface ScoreItem {
  /** The recommendation's stable key; the stored id is filled in by the store. */
  key: string;
  recommendationId?: string;
  title: string;
  type: RecommendationType;
  /** Points of the total this finding costs. */
  points: number;
}

export interface ScoreCategory {
  id: "wasted_spend" | "search_terms" | "opportunity" | "bids" | "quality";
  label: string;
  weight: number;
  /** 0–100, or null when the category does not apply (no data for it). */
  score: number | null;
  explanation: string;
  items: ScoreItem[];
}

export interface PerformanceScore {
  value: number | null;
  breakdown: ScoreCategory[];
}

const CATEGORIES: Array<{ id: ScoreCategory["id"]; label: string; weight: number; types: RecommendationType[] }> = [
  { id: "wasted_spend", label: "Wasted spend", weight: 30, types: ["wasted_keyword"] },
  { id: "search_terms", label: "Search terms and negatives", weight: 20, types: ["wasted_search_term", "negative_ngram", "blocked_keyword"] },
  { id: "opportunity", label: "Missed conversions", weight: 20, types: ["budget_limited", "harvest_search_term", "paused_converting"] },
  { id: "bids", label: "Bids toward target", weight: 10, types: ["bid_adjustment"] },
  { id: "quality", label: "Quality and structure", weight: 20, types: ["low_quality_score", "weak_ad", "duplicate_keyword"] },
];

const clamp01 = (n: number) => Math.max(0, Math.min(1, n));

export function computeScore(ctx: Context, findings: Finding[]): PerformanceScore {
  const spend30 = ctx.data.campaigns.reduce((s, c) => s + c.m.last30.cost, 0);
  const conv30 = ctx.data.campaigns.reduce((s, c) => s + c.m.last30.conversions, 0);
  const liveKeywords = ctx.data.keywords.filter((k) => k.status === "ENABLED" && k.m.all.impressions > 0).length;
  const liveAds = ctx.data.ads.filter((a) => a.status === "ENABLED").length;
  const byType = (types: RecommendationType[]) => findings.filter((f) => types.includes(f.type));

  const breakdown: ScoreCategory[] = CATEGORIES.map((cat) => {
    const fs = byType(cat.types);
    // Each finding's share of the category's base (spend, conversions or entities).
    let shares: number[];
    let applicable = true;
    let explanation: string;
    switch (cat.id) {
      case "wasted_spend":
      case "search_terms":
      case "bids": {
        applicable = spend30 > 0;
        shares = fs.map((f) =>
          f.type === "blocked_keyword" ? 1 / Math.max(liveKeywords, 1) : f.impact.kind === "cost_saved" ? f.impact.monthly / spend30 : 0,
        );
        explanation =
          cat.id === "bids"
            ? "Share of the last 30 days' spend that bids far from target misallocate (by the recommended moves)."
            : "Share of the last 30 days' spend that buys nothing, with the evidence of each recommendation.";
        break;
      }
      case "opportunity": {
        applicable = conv30 > 0;
        const missed = fs.map((f) => (f.impact.kind === "conversions_gained" ? f.impact.monthly : f.impact.kind === "value_gained" ? 0 : 0));
        const valueShare = fs.map((f) => {
          if (f.impact.kind !== "value_gained") return 0;
          const value30 = ctx.data.campaigns.reduce((s, c) => s + c.m.last30.value, 0);
          return value30 > 0 ? f.impact.monthly / (value30 + f.impact.monthly) : 0;
        });
        shares = missed.map((m, i) => m / (conv30 + m) + valueShare[i]);
        explanation = "Conversions (or value) at target that the account leaves on the table, as a share of what it gets.";
        break;
      }
      case "quality": {
        applicable = liveKeywords + liveAds > 0;
        shares = fs.map(
          (f) =>
            (f.type === "weak_ad" ? 1 / Math.max(liveAds, 1) : 1 / Math.max(liveKeywords, 1)) *
            (f.type === "low_quality_score" ? 3 : f.type === "weak_ad" ? 3 : 2),
        );
        explanation = "Keywords with low quality score, weak ads and duplicate keywords, as a share of the live keywords and ads.";
        break;
      }
    }
    const lost = clamp01(shares.reduce((s, x) => s + x, 0));
    const score = applicable ? Math.round(100 * (1 - lost)) : null;
    const total = shares.reduce((s, x) => s + x, 0) || 1;
    const items = fs
      .map((f, i) => ({ key: f.key, title: f.title, type: f.type, points: (cat.weight * lost * shares[i]) / total }))
      .filter((x) => x.points > 0)
      .sort((a, b) => b.points - a.points || a.key.localeCompare(b.key));
    return { id: cat.id, label: cat.label, weight: cat.weight, score, explanation, items };
  });
  const applicable = breakdown.filter((c) => c.score !== null);
  const weight = applicable.reduce((s, c) => s + c.weight, 0);
  const value = weight > 0 ? Math.round(applicable.reduce((s, c) => s + c.weight * (c.score as number), 0) / weight) : null;
  // Points are expressed against the total, so they add up to 100 − value over applicable categories.
  for (const c of breakdown) for (const item of c.items) item.points = Math.round(((item.points * 100) / Math.max(weight, 1)) * 10) / 10;
  return { value, breakdown };
}
