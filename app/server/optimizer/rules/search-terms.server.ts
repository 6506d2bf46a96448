import { KEYWORD_INVALID_CHARS, KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, keywordWordCount } from "~/lib/ad-limits";
import {
  apiMoney,
  evidenceBase,
  isLive,
  isYoung,
  judgedWindow,
  pct,
  round2,
  targetLabel,
  testAgainstTarget,
  totalsFigures,
  type Context,
} from "../context.server";
import { addTotals, EMPTY_TOTALS, type SearchTermRow, type Totals } from "../data.server";
import { normalizeKeyword } from "../negatives.server";
import { alreadyExcluded, negativeProblem } from "../safety.server";
import { benjaminiHochberg } from "../stats.server";
import type { Finding } from "../types.server";
import { adGroupRef, campaignRef, costPerTargetConversion, isManualCpc, LIKELY, STRONG } from "./shared.server";
import { countOf } from "~/lib/format";

// wasted_search_term (research W3) and harvest_search_term (N3).

export function isValidKeywordText(text: string): boolean {
  return text.length > 0 && text.length <= KEYWORD_MAX_CHARS && keywordWordCount(text) <= KEYWORD_MAX_WORDS && !KEYWORD_INVALID_CHARS.test(text);
}

/** Terms the engine may judge: live Search ad groups, not already excluded, not a keyword already. */
export function judgeableTerms(ctx: Context): SearchTermRow[] {
  return ctx.data.searchTerms.filter(
    (t) => t.status === "NONE" && isLive(ctx, t.campaignId, t.adGroupId) && !isYoung(ctx, t.m.firstDate, t.campaignId) && !alreadyExcluded(ctx, t),
  );
}

interface TermGroup {
  campaignId: string;
  term: string;
  rows: SearchTermRow[];
  t: Totals;
  last30: Totals;
}

export function wastedSearchTerms(ctx: Context, terms = judgeableTerms(ctx)): Finding[] {
  if (ctx.trackingSuspect) return [];
  // One decision per term and campaign: failing in several ad groups → a campaign negative.
  const groups = new Map<string, TermGroup>();
  for (const t of terms) {
    const key = `${t.campaignId}|${normalizeKeyword(t.term)}`;
    const g = groups.get(key) ?? { campaignId: t.campaignId, term: normalizeKeyword(t.term), rows: [], t: EMPTY_TOTALS, last30: EMPTY_TOTALS };
    g.rows.push(t);
    g.t = addTotals(g.t, t.m.all);
    g.last30 = addTotals(g.last30, t.m.last30);
    groups.set(key, g);
  }
  const tested: Array<{ g: TermGroup; q: number; costUnit: number; breakEven: number; rate: number }> = [];
  for (const g of groups.values()) {
    if (g.t.conversions > 0 || !isValidKeywordText(g.term)) continue;
    const target = ctx.targetOf(g.campaignId);
    if (!target) continue;
    const costUnit = costPerTargetConversion(ctx, target, g.campaignId);
    if (!costUnit || g.t.cost < costUnit) continue;
    const adGroupId = g.rows.length === 1 ? g.rows[0].adGroupId : undefined;
    const test = testAgainstTarget(ctx, g.t, target, g.campaignId, adGroupId);
    if (!test) continue;
    tested.push({ g, q: test.qBelow, costUnit, breakEven: test.breakEven, rate: test.posteriorRate });
  }
  // An exact negative in one ad group is the smallest, most reversible exclusion: it may go at
  // Likely (research §0.4 tiers); one across a campaign needs Strong.
  const strong = benjaminiHochberg(
    tested.map((c) => 1 - c.q),
    1 - STRONG,
  );
  const likely = benjaminiHochberg(
    tested.map((c) => 1 - c.q),
    1 - LIKELY,
  );
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  tested.forEach((c, i) => {
    const { g } = c;
    const adGroupIds = [...new Set(g.rows.map((r) => r.adGroupId))];
    const level = adGroupIds.length > 1 ? "campaign" : "ad_group";
    const ok = level === "campaign" ? strong[i] && c.q >= STRONG : likely[i] && c.q >= LIKELY;
    if (!ok) return;
    const target = ctx.targetOf(g.campaignId)!;
    const parentId = level === "campaign" ? g.campaignId : adGroupIds[0];
    if (negativeProblem(ctx, { text: g.term, matchType: "EXACT" }, { level, parentId })) return;
    const where = level === "campaign" ? `campaign ${ctx.campaigns.get(g.campaignId)?.name}` : `ad group ${ctx.adGroups.get(parentId)?.name}`;
    const via = [...new Set(g.rows.map((r) => r.keywordText).filter(Boolean))];
    out.push({
      key: `wasted_search_term:${level}:${parentId}:${g.term}`,
      type: "wasted_search_term",
      title: `Exclude the search term “${g.term}” in ${where}: ${ctx.money(g.t.cost)} on ${countOf(g.t.clicks, "click")}, no conversions`,
      resources: [
        { kind: "search_term", id: g.term, name: g.term },
        ...(level === "ad_group" ? [adGroupRef(ctx, parentId)] : adGroupIds.map((id) => adGroupRef(ctx, id))),
        campaignRef(ctx, g.campaignId),
      ],
      confidence: c.q,
      impact: {
        kind: "cost_saved",
        monthly: round2(g.last30.cost),
        riskConversions: round2(g.last30.clicks * c.rate),
        assumption:
          "The term's last 30 days of spend stops (exact negative: only this exact query is excluded). Single terms repeat rarely; the n-gram recommendations recover more.",
      },
      sortAmount: g.last30.cost,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `“${g.term}” cost ${ctx.money(g.t.cost)} over ${countOf(g.t.clicks, "click")} without a conversion; it needed ${pct(c.breakEven)} to hit target.`,
        figures: [
          ...totalsFigures(g.t),
          { name: "breakEvenRate", label: "Break-even conversion rate", value: round2(c.breakEven * 100), unit: "percent" },
          { name: "matchedKeywords", label: "Matched by keyword", value: via.join(", ") || null, unit: "text" },
          { name: "adGroups", label: "Ad groups it showed in", value: adGroupIds.length, unit: "count" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: "Beta-binomial: P(conversion rate < break-even); Benjamini–Hochberg across all tested terms",
          result: `${Math.round(c.q * 1000) / 10} % (${c.q >= STRONG ? "Strong" : "Likely"})`,
          confidence: c.q,
        },
        notes: ["Checked: the negative blocks no enabled keyword and no search term that converted."],
      },
      actions: [{ type: "add_negatives", level, parentId, keywords: [{ text: g.term, matchType: "EXACT" }] }],
      links: [],
    });
  });
  return out;
}

/** Chance that a term's conversions are a real win at its CPA (research N3: ≥ 0.8). */
const HARVEST_CONFIDENCE = 0.8;

export function harvestSearchTerms(ctx: Context, terms = judgeableTerms(ctx)): Finding[] {
  if (ctx.trackingSuspect) return [];
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const t of terms) {
    const text = normalizeKeyword(t.term);
    if (t.m.all.conversions < 2 || !isValidKeywordText(text)) continue;
    // Already a keyword of that ad group (any match type): nothing to harvest.
    if ((ctx.keywordsByAdGroup.get(t.adGroupId) ?? []).some((k) => k.status !== "REMOVED" && normalizeKeyword(k.text) === text)) continue;
    const target = ctx.targetOf(t.campaignId);
    if (!target) continue;
    const test = testAgainstTarget(ctx, t.m.all, target, t.campaignId, t.adGroupId);
    if (!test) continue;
    const confidence = 1 - test.qBelow;
    if (confidence < HARVEST_CONFIDENCE) continue;
    const source = t.keywordCriterionId ? ctx.keywordById.get(`${t.adGroupId}~${t.keywordCriterionId}`) : undefined;
    const bidMicros = source?.effectiveCpcBidMicros ?? source?.cpcBidMicros ?? ctx.adGroups.get(t.adGroupId)?.cpcBidMicros ?? null;
    const cpc = isManualCpc(ctx, t.campaignId) && bidMicros ? apiMoney(bidMicros / 1e6) : undefined;
    const costUnit = costPerTargetConversion(ctx, target, t.campaignId) ?? 0;
    const monthly = round2(t.m.last30.conversions);
    const adGroup = ctx.adGroups.get(t.adGroupId)?.name ?? t.adGroupId;
    out.push({
      key: `harvest_search_term:${t.adGroupId}:${text}`,
      type: "harvest_search_term",
      title: `Add “${text}” as an exact keyword in ${adGroup}: ${countOf(round2(t.m.all.conversions), "conversion")} at ${ctx.money(t.m.all.cost / t.m.all.conversions)} each`,
      resources: [{ kind: "search_term", id: text, name: text }, adGroupRef(ctx, t.adGroupId), campaignRef(ctx, t.campaignId)],
      confidence,
      impact: {
        kind: "conversions_gained",
        monthly,
        riskConversions: null,
        assumption:
          "These conversions already come through a broader keyword; its own exact keyword gives control over its bid and ad. Mostly re-routed, not new: ordered as if a quarter were new.",
      },
      sortAmount: monthly * costUnit * 0.25,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `“${text}” converted ${countOf(round2(t.m.all.conversions), "time")} from ${countOf(t.m.all.clicks, "click")} (${pct(t.m.all.conversions / Math.max(1, t.m.all.clicks))}); its break-even rate is ${pct(test.breakEven)}.`,
        figures: [
          ...totalsFigures(t.m.all),
          { name: "matchedKeyword", label: "Matched by keyword", value: t.keywordText, unit: "text" },
          { name: "breakEvenRate", label: "Break-even conversion rate", value: round2(test.breakEven * 100), unit: "percent" },
          ...(cpc !== undefined ? [{ name: "bid", label: "Bid (the matching keyword's)", value: cpc, unit: "money" as const }] : []),
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: { name: "Beta-binomial: P(conversion rate > break-even)", result: `${Math.round(confidence * 1000) / 10} %`, confidence },
        notes: [],
      },
      actions: [{ type: "add_keywords", adGroupId: t.adGroupId, keywords: [{ text, matchType: "EXACT", ...(cpc !== undefined ? { cpc } : {}) }] }],
      links: [],
    });
  }
  return out;
}
