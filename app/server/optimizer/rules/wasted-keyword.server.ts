import {
  apiMoney,
  breakEvenRate,
  evidenceBase,
  isLive,
  isYoung,
  judgedWindow,
  meetsTarget,
  pct,
  round2,
  targetLabel,
  testAgainstTarget,
  totalsFigures,
  type Context,
} from "../context.server";
import type { KeywordRow, Totals } from "../data.server";
import { convertsAtTarget } from "../safety.server";
import { benjaminiHochberg } from "../stats.server";
import type { Finding } from "../types.server";
import { adGroupRef, campaignRef, costPerTargetConversion, isManualCpc, keywordId, keywordLabel, keywordRef, LIKELY, STRONG } from "./shared.server";
import { countOf } from "~/lib/format";

// wasted_keyword (research W1/W2): spends without converting, judged with the
// beta-binomial test against its break-even conversion rate. Strong and ≥ 2×
// the target's cost → pause; Likely (or 1–2×) → bid −15 % on manual CPC.

export const BID_CUT = 0.15;

interface Candidate {
  k: KeywordRow;
  window: "w30" | "w60" | "all";
  t: Totals;
  q: number;
  costUnit: number;
  posteriorRate: number;
  breakEven: number;
}

export function wastedKeywords(ctx: Context): Finding[] {
  if (ctx.trackingSuspect) return [];
  const tested: Candidate[] = [];
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || !isLive(ctx, k.campaignId, k.adGroupId) || isYoung(ctx, k.m.firstDate, k.campaignId)) continue;
    const target = ctx.targetOf(k.campaignId);
    if (!target) continue;
    // Safety: never pause what converts at or below target (the lag days' conversions included).
    if (convertsAtTarget(k.m, target)) continue;
    const costUnit = costPerTargetConversion(ctx, target, k.campaignId);
    if (!costUnit) continue;
    // Lookback ladder (research §0.5): the most recent window with enough data to judge —
    // spend of one target conversion and the rule of three's clicks (3 / break-even rate, §0.3).
    const enough = (w: "w30" | "w60" | "all") => {
      const m = k.m[w];
      const p = breakEvenRate(ctx, m, target, k.campaignId);
      return m.cost >= costUnit && p !== null && m.clicks >= 3 / p;
    };
    const window = (["w30", "w60", "all"] as const).find(enough) ?? (k.m.all.cost >= costUnit ? "all" : undefined);
    if (!window) continue;
    const t = k.m[window];
    if (meetsTarget(t, target)) continue;
    const test = testAgainstTarget(ctx, t, target, k.campaignId, k.adGroupId);
    if (!test) continue;
    // With conversions it is only "wasted" when far off target (shrunk CPA ≥ 3× target).
    if (t.conversions > 0) {
      const shrunkCpa = t.clicks > 0 ? t.cost / t.clicks / test.posteriorRate : 0;
      if (shrunkCpa < 3 * costUnit) continue;
    }
    tested.push({ k, window, t, q: test.qBelow, costUnit, posteriorRate: test.posteriorRate, breakEven: test.breakEven });
  }
  const p = tested.map((c) => 1 - c.q);
  const strong = benjaminiHochberg(p, 1 - STRONG);
  const likely = benjaminiHochberg(p, 1 - LIKELY);

  const out: Finding[] = [];
  tested.forEach((c, i) => {
    const { k, t } = c;
    const target = ctx.targetOf(k.campaignId)!;
    const pause = strong[i] && c.q >= STRONG && t.cost >= 2 * c.costUnit;
    const cut = !pause && likely[i] && c.q >= LIKELY && isManualCpc(ctx, k.campaignId) && (k.effectiveCpcBidMicros ?? k.cpcBidMicros) !== null;
    if (!pause && !cut) return;
    const range = judgedWindow(ctx, c.window);
    const last30 = k.m.last30;
    const risk = round2(last30.clicks * c.posteriorRate);
    const adGroup = ctx.adGroups.get(k.adGroupId)?.name ?? k.adGroupId;
    const spent = `${ctx.money(t.cost)} on ${countOf(t.clicks, "click")} with ${t.conversions === 0 ? "no conversions" : `${countOf(round2(t.conversions), "conversion")}`}`;
    const bid = (k.effectiveCpcBidMicros ?? k.cpcBidMicros ?? 0) / 1e6;
    out.push({
      key: `wasted_keyword:${keywordId(k)}`,
      type: "wasted_keyword",
      title: pause ? `Pause ${keywordLabel(k)} in ${adGroup}: ${spent}` : `Lower the bid of ${keywordLabel(k)} in ${adGroup} by 15 %: ${spent}`,
      resources: [keywordRef(ctx, k), adGroupRef(ctx, k.adGroupId), campaignRef(ctx, k.campaignId)],
      confidence: c.q,
      impact: pause
        ? {
            kind: "cost_saved",
            monthly: round2(last30.cost),
            riskConversions: risk,
            assumption:
              "The last 30 days' spend stops; it may be re-spent by other keywords. The risk is the conversions it would have brought at its estimated rate.",
          }
        : {
            kind: "cost_saved",
            monthly: round2(last30.cost * BID_CUT),
            riskConversions: round2(risk * BID_CUT),
            assumption: "Cost falls at most in proportion to the bid (an upper bound: CPCs fall less than bids).",
          },
      sortAmount: pause ? last30.cost : last30.cost * BID_CUT,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `${spent} from ${range.from} to ${range.to}; at its cost per click it needed a ${pct(c.breakEven)} conversion rate to hit target, and it is ${Math.round(c.q * 100)} % likely to be below that.`,
        figures: [
          ...totalsFigures(t),
          { name: "breakEvenRate", label: "Break-even conversion rate", value: round2(c.breakEven * 100), unit: "percent" },
          { name: "estimatedRate", label: "Estimated conversion rate (shrunk toward its ad group)", value: round2(c.posteriorRate * 100), unit: "percent" },
          { name: "cost30d", label: "Cost, last 30 days", value: round2(last30.cost), unit: "money" },
          ...(cut ? [{ name: "newBid", label: "Proposed bid", value: apiMoney(bid * (1 - BID_CUT)), unit: "money" as const }] : []),
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: "Beta-binomial: P(conversion rate < break-even), prior 30 clicks at the ad group's rate; Benjamini–Hochberg across all tested keywords",
          result: `${Math.round(c.q * 1000) / 10} % (${c.q >= STRONG ? "Strong" : "Likely"})`,
          confidence: c.q,
        },
        notes: [`The last ${3} days are left out: conversions are still arriving for them.`],
      },
      actions: pause
        ? [{ type: "status", kind: "keyword", ids: [keywordId(k)], status: "PAUSED" }]
        : // A keyword without its own bid gets one: lowering the ad group's would move its siblings too.
          [{ type: "bid", kind: "keyword", items: [{ id: keywordId(k), cpc: apiMoney(bid * (1 - BID_CUT)) }] }],
      links: [],
    });
  });
  return out;
}
