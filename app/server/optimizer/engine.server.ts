import { buildContext, type Context } from "./context.server";
import type { AccountData } from "./data.server";
import { bidAdjustments } from "./rules/bid-adjustment.server";
import { budgetLimited } from "./rules/budget-limited.server";
import { blockedKeywords, duplicateKeywords, lowQualityScores, pausedConverting, weakAds } from "./rules/hygiene.server";
import { negativeNgrams } from "./rules/negative-ngram.server";
import { rarelyServed } from "./rules/rarely-served.server";
import { harvestSearchTerms, judgeableTerms, wastedSearchTerms } from "./rules/search-terms.server";
import { wastedKeywords } from "./rules/wasted-keyword.server";
import { mergeOverlaps } from "./overlaps.server";
import { enforceSafety } from "./safety.server";
import { computeScore, type PerformanceScore } from "./score.server";
import type { Finding } from "./types.server";

// The deterministic engine: account data in, findings and the score out.
// Same input → same output (stable order: impact, then key). Never calls Google.

export interface EngineResult {
  findings: Finding[];
  score: PerformanceScore;
  /** Findings the safety gate refused (a rule bug if ever non-empty; logged). */
  dropped: Array<{ key: string; reason: string }>;
  trackingSuspect: boolean;
}

export function runRules(ctx: Context): Finding[] {
  const wasted = wastedKeywords(ctx);
  const wastedByKey = new Map(wasted.map((f) => [f.key, f]));
  // A pause or cut wins over a bid move on the same keyword (research §8).
  const touched = new Set(wasted.flatMap((f) => f.resources.filter((r) => r.kind === "keyword").map((r) => r.id)));
  const terms = judgeableTerms(ctx);
  return [
    ...wasted,
    ...wastedSearchTerms(ctx, terms),
    ...negativeNgrams(ctx, terms),
    ...harvestSearchTerms(ctx, terms),
    ...budgetLimited(ctx),
    ...bidAdjustments(ctx, touched),
    ...lowQualityScores(ctx, wastedByKey),
    ...weakAds(ctx),
    ...duplicateKeywords(ctx),
    ...pausedConverting(ctx),
    ...blockedKeywords(ctx),
    ...rarelyServed(ctx),
  ];
}

export function runEngine(data: AccountData): EngineResult {
  const ctx = buildContext(data);
  const { kept: safe, dropped } = enforceSafety(ctx, runRules(ctx));
  // One item per entity, its impact counted once in the order and the score.
  const kept = mergeOverlaps(ctx, safe);
  kept.sort((a, b) => b.sortAmount - a.sortAmount || a.key.localeCompare(b.key));
  return { findings: kept, score: computeScore(ctx, kept), dropped, trackingSuspect: ctx.trackingSuspect };
}
