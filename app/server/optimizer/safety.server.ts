import { meetsTarget, type Context } from "./context.server";
import { isBrandNegative, isProductWordNegative, negativeBlocksKeyword, negativeBlocksQuery, type NegativeKeyword } from "./negatives.server";
import type { Windows } from "./data.server";
import type { Finding, Target } from "./types.server";

// The engine's safety rules, in one place so they hold for every rule and are
// tested on their own (safety.server.test.ts):
//  1. never a negative that would block an enabled keyword in its scope;
//  2. never a negative that would block a search term that converted;
//  3. never pause something that converts at or below target;
//  6. never a negative made only of the scope's own product words (its enabled keywords' words, by stem);
// (4. the last LAG_DAYS and entities younger than MIN_AGE_DAYS are never judged: data.server/context.server;
//  5. false discoveries are controlled with Benjamini–Hochberg in the rules that test many entities.)

export interface Scope {
  level: "ad_group" | "campaign";
  /** Ad group id or campaign id. */
  parentId: string;
}

/** Enabled keywords (in live ad groups) the negative would block. */
export function blockedKeywords(ctx: Context, negative: NegativeKeyword, scope: Scope) {
  const inScope = (scope.level === "campaign" ? ctx.keywordsByCampaign : ctx.keywordsByAdGroup).get(scope.parentId) ?? [];
  return inScope.filter((k) => k.status === "ENABLED" && ctx.adGroups.get(k.adGroupId)?.status === "ENABLED" && negativeBlocksKeyword(negative, k.text));
}

/**
 * Search terms with conversions (any status, whole synced window) the negative would block.
 * The judged window and the last 30 days together cover every synced day: a conversion in the
 * last 3 days (left out of judging, as more are still arriving) has already happened.
 */
export function blockedConvertingTerms(ctx: Context, negative: NegativeKeyword, scope: Scope) {
  const inScope = (scope.level === "campaign" ? ctx.termsByCampaign : ctx.termsByAdGroup).get(scope.parentId) ?? [];
  return inScope.filter((t) => (t.m.all.conversions > 0 || t.m.last30.conversions > 0) && negativeBlocksQuery(negative, t.term));
}

/**
 * Converts at or below target over the judged window, its last 30 days, or the last 30 days of
 * data: conversions that already arrived in the unjudged last 3 days count (only missing ones
 * are the reason those days are not judged), so a keyword that just started converting at
 * target is never paused for its older figures.
 */
export function convertsAtTarget(m: Windows, target: Target): boolean {
  return meetsTarget(m.all, target) || meetsTarget(m.w30, target) || meetsTarget(m.last30, target);
}

/**
 * The enabled keywords whose words are the scope's product: an ad group negative is judged
 * against its ad group's keywords (a word of a sibling ad group may rightly be excluded there,
 * to send those queries to the sibling), a campaign negative against the campaign's.
 */
function productKeywords(ctx: Context, scope: Scope): string[] {
  const inScope = (scope.level === "campaign" ? ctx.keywordsByCampaign : ctx.keywordsByAdGroup).get(scope.parentId) ?? [];
  return inScope.filter((k) => k.status === "ENABLED").map((k) => k.text);
}

/** A brand campaign, by the naming every account uses for it (Google's brand lists are not synced). */
const BRAND_CAMPAIGN = /\bbrand(ed)?\b/i;

/**
 * The enabled keywords of the account's brand campaigns. A search for the brand is never
 * excluded, in any campaign: its clicks are the account's cheapest, and an ad missing from
 * a brand search hands the place to a competitor ("northwind coffee jobs" still meets the brand).
 */
function brandKeywords(ctx: Context): string[] {
  const out: string[] = [];
  for (const c of ctx.campaigns.values()) {
    if (!BRAND_CAMPAIGN.test(c.name)) continue;
    for (const k of ctx.keywordsByCampaign.get(c.id) ?? []) if (k.status === "ENABLED") out.push(k.text);
  }
  return out;
}

/** Why a proposed negative is unsafe, or null when it is safe. */
export function negativeProblem(ctx: Context, negative: NegativeKeyword, scope: Scope): string | null {
  const kws = blockedKeywords(ctx, negative, scope);
  if (kws.length > 0) return `it would block the enabled keyword “${kws[0].text}”`;
  if (isProductWordNegative(negative.text, productKeywords(ctx, scope)))
    return `“${negative.text}” is the ${scope.level === "campaign" ? "campaign" : "ad group"}'s own product (a word of its keywords)`;
  if (isBrandNegative(negative.text, brandKeywords(ctx))) return `“${negative.text}” is a search for the brand (a brand campaign's keyword)`;
  const terms = blockedConvertingTerms(ctx, negative, scope);
  if (terms.length > 0) return `it would block the converting search term “${terms[0].term}”`;
  return null;
}

/** Whether a search term is already kept out by an existing negative of its ad group or campaign. */
export function alreadyExcluded(ctx: Context, t: { campaignId: string; adGroupId: string; term: string }): boolean {
  const own = ctx.negativesByParent.get(`ad_group:${t.adGroupId}`) ?? [];
  const campaign = ctx.negativesByParent.get(`campaign:${t.campaignId}`) ?? [];
  return own.some((n) => negativeBlocksQuery(n, t.term)) || campaign.some((n) => negativeBlocksQuery(n, t.term));
}

/**
 * The final gate every finding passes before it is stored: a finding whose
 * actions break a safety rule is dropped (and counted), whatever rule made it.
 */
export function enforceSafety(ctx: Context, findings: Finding[]): { kept: Finding[]; dropped: Array<{ key: string; reason: string }> } {
  const kept: Finding[] = [];
  const dropped: Array<{ key: string; reason: string }> = [];
  const kwByKey = ctx.keywordById;
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
          if (k && target && convertsAtTarget(k.m, target)) {
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
