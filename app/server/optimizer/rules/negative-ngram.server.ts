import { evidenceBase, judgedWindow, round2, targetLabel, testAgainstTarget, totalsFigures, type Context } from "../context.server";
import { addTotals, EMPTY_TOTALS, type SearchTermRow, type Totals } from "../data.server";
import { negativeBlocksQuery, STOP_WORDS, tokens } from "../negatives.server";
import { negativeProblem } from "../safety.server";
import { benjaminiHochberg } from "../stats.server";
import type { Action } from "../../changes/propose.server";
import type { Finding } from "../types.server";
import { adGroupRef, campaignRef, costPerTargetConversion, STRONG } from "./shared.server";
import { isValidKeywordText, judgeableTerms } from "./search-terms.server";
import { countOf } from "~/lib/format";

// negative_ngram (research N1/N2): a 1–3 word n-gram that fails across several
// search terms → a phrase negative in each campaign (or the one ad group) where
// it failed, unless that would block a keyword or a converting term there.

const MIN_TERMS = 2;
const MIN_CLICKS = 30;

/** Each distinct 1–3-gram of a term once (research N1 step 3). */
export function ngrams(term: string): string[] {
  const w = tokens(term).slice(0, 16);
  const out = new Set<string>();
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= w.length; i++) {
      if (n === 1 && (STOP_WORDS.has(w[i]) || w[i].length < 3)) continue;
      out.add(w.slice(i, i + n).join(" "));
    }
  }
  return [...out];
}

interface Gram {
  gram: string;
  t: Totals;
  terms: number;
}

export function negativeNgrams(ctx: Context, terms = judgeableTerms(ctx)): Finding[] {
  if (ctx.trackingSuspect) return [];
  // Pass 1: totals per gram and campaign, kept small (numbers only). A gram is
  // judged only where it fails: "free" can convert for the brand and waste elsewhere.
  const perCampaign = new Map<string, Gram>();
  for (const t of terms) {
    for (const g of ngrams(t.term)) {
      const key = `${g}\u0001${t.campaignId}`;
      const e = perCampaign.get(key);
      if (e) {
        e.t = addTotals(e.t, t.m.all);
        e.terms += 1;
      } else perCampaign.set(key, { gram: g, t: t.m.all, terms: 1 });
    }
  }
  const failing = new Map<string, { gram: string; t: Totals; terms: number; campaigns: Set<string> }>();
  for (const [key, e] of perCampaign) {
    if (e.t.conversions > 0) continue;
    const campaignId = key.slice(key.indexOf("\u0001") + 1);
    const f = failing.get(e.gram);
    if (f) {
      f.t = addTotals(f.t, e.t);
      f.terms += e.terms;
      f.campaigns.add(campaignId);
    } else failing.set(e.gram, { gram: e.gram, t: e.t, terms: e.terms, campaigns: new Set([campaignId]) });
  }
  perCampaign.clear();
  const candidates = [...failing.values()].filter((g) => g.terms >= MIN_TERMS && g.t.clicks >= MIN_CLICKS && isValidKeywordText(g.gram));
  if (candidates.length === 0) return [];
  // Pass 2: the failing terms of each candidate, only for the candidates.
  const byGram = new Map<string, SearchTermRow[]>(candidates.map((g) => [g.gram, []]));
  const campaignsOf = new Map(candidates.map((g) => [g.gram, g.campaigns]));
  for (const t of terms) for (const g of ngrams(t.term)) if (campaignsOf.get(g)?.has(t.campaignId)) byGram.get(g)!.push(t);

  const tested: Array<{ g: Gram; rows: SearchTermRow[]; q: number; mainCampaign: string; breakEven: number }> = [];
  for (const g of candidates) {
    const rows = byGram.get(g.gram)!;
    const spend = new Map<string, number>();
    for (const r of rows) spend.set(r.campaignId, (spend.get(r.campaignId) ?? 0) + r.m.all.cost);
    const mainCampaign = [...spend.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
    const target = ctx.targetOf(mainCampaign);
    if (!target) continue;
    const costUnit = costPerTargetConversion(ctx, target, mainCampaign);
    if (!costUnit || g.t.cost < costUnit) continue;
    const test = testAgainstTarget(ctx, g.t, target, mainCampaign);
    // Only grams with the rule of three's clicks (3 / break-even rate) are tests at all: the
    // thousands of small grams that could never be significant must not dilute the FDR control.
    if (!test || g.t.clicks < 3 / test.breakEven) continue;
    tested.push({ g, rows, q: test.qBelow, mainCampaign, breakEven: test.breakEven });
  }
  const pass = benjaminiHochberg(
    tested.map((c) => 1 - c.q),
    1 - STRONG,
  );
  // Shorter grams first: once "free" is excluded, "free tent" adds nothing in the same place.
  const order = tested
    .map((c, i) => ({ c, ok: pass[i] && c.q >= STRONG }))
    .filter((x) => x.ok)
    .map((x) => x.c);
  order.sort((a, b) => a.g.gram.split(" ").length - b.g.gram.split(" ").length || b.g.t.cost - a.g.t.cost || a.g.gram.localeCompare(b.g.gram));
  const emitted: Array<{ gram: string; parents: Set<string> }> = [];
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const c of order) {
    const adGroups = [...new Set(c.rows.map((r) => r.adGroupId))];
    const campaigns = [...new Set(c.rows.map((r) => r.campaignId))].sort();
    const level: "ad_group" | "campaign" = adGroups.length === 1 ? "ad_group" : "campaign";
    const parents = level === "ad_group" ? adGroups : campaigns;
    const negative = { text: c.g.gram, matchType: "PHRASE" };
    const covered = (p: string) => emitted.some((e) => e.parents.has(p) && negativeBlocksQuery({ text: e.gram, matchType: "PHRASE" }, c.g.gram));
    const safe: string[] = [];
    const skipped: string[] = [];
    for (const p of parents) {
      if (covered(p)) continue;
      const problem = negativeProblem(ctx, negative, { level, parentId: p });
      if (problem) skipped.push(`${level === "campaign" ? ctx.campaigns.get(p)?.name : ctx.adGroups.get(p)?.name}: ${problem}`);
      else safe.push(p);
    }
    if (safe.length === 0) continue;
    emitted.push({ gram: c.g.gram, parents: new Set(safe) });
    const rows = c.rows.filter((r) => safe.includes(level === "campaign" ? r.campaignId : r.adGroupId));
    const t = rows.reduce((s, r) => addTotals(s, r.m.all), EMPTY_TOTALS);
    const last30 = rows.reduce((s, r) => addTotals(s, r.m.last30), EMPTY_TOTALS);
    const examples = [...rows]
      .sort((a, b) => b.m.all.cost - a.m.all.cost)
      .slice(0, 5)
      .map((r) => r.term);
    const target = ctx.targetOf(c.mainCampaign)!;
    const actions: Action[] = safe.map((p) => ({ type: "add_negatives", level, parentId: p, keywords: [{ text: c.g.gram, matchType: "PHRASE" }] }));
    const where =
      level === "ad_group"
        ? `ad group ${ctx.adGroups.get(safe[0])?.name}`
        : safe.length === 1
          ? `campaign ${ctx.campaigns.get(safe[0])?.name}`
          : `${safe.length} campaigns`;
    out.push({
      key: `negative_ngram:${c.g.gram}`,
      type: "negative_ngram",
      title: `Exclude the phrase “${c.g.gram}” in ${where}: ${rows.length} search terms, ${ctx.money(t.cost)}, no conversions`,
      resources: [
        { kind: "search_term", id: c.g.gram, name: c.g.gram },
        ...(level === "ad_group" ? safe.map((id) => adGroupRef(ctx, id)) : safe.map((id) => campaignRef(ctx, id))),
      ],
      confidence: c.q,
      impact: {
        kind: "cost_saved",
        monthly: round2(last30.cost),
        riskConversions: 0,
        assumption: "The last 30 days' spend of every term containing the phrase stops; new terms with it would be excluded too.",
      },
      sortAmount: last30.cost,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `${rows.length} search terms containing “${c.g.gram}” cost ${ctx.money(t.cost)} over ${countOf(t.clicks, "click")} without a conversion, in ${campaigns.length} campaign${campaigns.length === 1 ? "" : "s"}.`,
        figures: [
          ...totalsFigures(t),
          { name: "termCount", label: "Search terms", value: rows.length, unit: "count" },
          { name: "campaignCount", label: "Campaigns", value: campaigns.length, unit: "count" },
          { name: "examples", label: "Example terms", value: examples.join(" · "), unit: "text" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: "Beta-binomial on the n-gram's clicks: P(conversion rate < break-even); Benjamini–Hochberg across all tested n-grams",
          result: `${Math.round(c.q * 1000) / 10} % (Strong)`,
          confidence: c.q,
        },
        notes: [
          "Checked in every scope: the phrase blocks no enabled keyword and no search term that converted.",
          ...(skipped.length ? [`Left out where it would do harm — ${skipped.join("; ")}.`] : []),
          ...(level === "campaign" && safe.length >= 3 ? ["It fails in 3 or more campaigns: an account-level negative list would also do."] : []),
        ],
      },
      actions,
      links: [],
    });
  }
  return out;
}
