import { meetsTarget, type Context } from "./context.server";
import type { NegativeRow, SearchTermRow } from "./data.server";
import { negativeBlocksKeyword, negativeBlocksQuery, type NegativeKeyword } from "./negatives.server";
import type { Finding, Target } from "./types.server";

// The engine's safety rules, in one place so they hold for every rule and are
// tested on their own (safety.server.test.ts):
//  1. never a negative that would block an enabled keyword in its scope;
//  2. never a negative that would block a search term that converted;
//  3. never pause something that converts at or below target;
// (4. the last LAG_DAYS and entities younger than MIN_AGE_DAYS are never judged: data.server/context.server;
//  5. false discoveries are controlled with Benjamini–Hochberg in the rules that test many entities.)

export interface Scope {
  level: "ad_group" | "campaign";
  /** Ad group id or campaign id. */
  parentId: string;
}

function inScope(ctx: Context, scope: Scope, campaignId: string, adGroupId: string): boolean {
  return scope.level === "campaign" ? campaignId === scope.parentId : adGroupId === scope.parentId;
}

/** Enabled keywords (in live ad groups) the negative would block. */
export function blockedKeywords(ctx: Context, negative: NegativeKeyword, scope: Scope) {
  return ctx.data.keywords.filter(
    (k) => k.status === "ENABLED" && inScope(ctx, scope, k.campaignId, k.adGroupId) && ctx.adGroups.get(k.adGroupId)?.status === "ENABLED" && negativeBlocksKeyword(negative, k.text),
  );
}

/** Search terms with conversions (any status, whole synced window) the negative would block. */
export function blockedConvertingTerms(ctx: Context, negative: NegativeKeyword, scope: Scope, terms: SearchTermRow[] = ctx.data.searchTerms) {
  return terms.filter((t) => t.m.all.conversions > 0 && inScope(ctx, scope, t.campaignId, t.adGroupId) && negativeBlocksQuery(negative, t.term));
}

/** Why a proposed negative is unsafe, or null when it is safe. */
export function negativeProblem(ctx: Context, negative: NegativeKeyword, scope: Scope): string | null {
  const kws = blockedKeywords(ctx, negative, scope);
  if (kws.length > 0) return `it would block the enabled keyword “${kws[0].text}”`;
  const terms = blockedConvertingTerms(ctx, negative, scope);
  if (terms.length > 0) return `it would block the converting search term “${terms[0].term}”`;
  return null;
}

/** Whether a search term is already kept out by an existing negative of its ad group or campaign. */
export function alreadyExcluded(negatives: NegativeRow[], t: { campaignId: string; adGroupId: string; term: string }): boolean {
  return negatives.some(
    (n) => ((n.level === "ad_group" && n.parentId === t.adGroupId) || (n.level === "campaign" && n.parentId === t.campaignId)) && negativeBlocksQuery(n, t.term),
  );
}

/**
 * The final gate every finding passes before it is stored: a finding whose
 * actions break a safety rule is dropped (and counted), whatever rule made it.
 */
export function enforceSafety(ctx: Context, findings: Finding[]): { kept: Finding[]; dropped: Array<{ key: string; reason: string }> } {
  const kept: Finding[] = [];
  const dropped: Array<{ key: string; reason: string }> = [];
  const kwByKey = new Map(ctx.data.keywords.map((k) => [`${k.adGroupId}~${k.criterionId}`, k]));
  for (const f of findings) {
    let reason: string | null = null;
    for (const a of f.actions) {
      if (a.type === "add_negatives") {
        for (const k of a.keywords) {
          reason = negativeProblem(ctx, { text: k.text, matchType: k.matchType }, { level: a.level, parentId: a.parentId });
          if (reason) break;
        }
      } else if (a.type === "status" && a.kind === "keyword" && a.status !== "ENABLED" && f.type !== "duplicate_keyword") {
        // (A duplicate's twin keeps serving the same queries: pausing it loses no conversions.)
        for (const id of a.ids) {
          const k = kwByKey.get(id);
          const target: Target | null = k ? ctx.targetOf(k.campaignId) : null;
          if (k && target && (meetsTarget(k.m.all, target) || meetsTarget(k.m.w30, target))) {
            reason = `“${k.text}” converts at or below target`;
            break;
          }
        }
      }
      if (reason) break;
    }
    if (reason) dropped.push({ key: f.key, reason });
    else kept.push(f);
  }
  return { kept, dropped };
}
