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
import type { Finding } from "../types.server";
import { campaignRef, LIKELY } from "./shared.server";

// budget_limited (research B1): loses search impression share to budget while
// beating its target with confidence → raise the budget toward the full-capture
// multiplier (IS + budget-lost IS) / IS, capped at +25 % a move.

export const MIN_BUDGET_LOST_IS = 0.1;
export const MAX_BUDGET_STEP = 0.25;
/** Extra spend buys conversions at a worse margin than the average (research: 0.7–0.9). */
export const DIMINISHING_RETURNS = 0.8;

export function budgetLimited(ctx: Context): Finding[] {
  if (ctx.trackingSuspect) return [];
  const out: Finding[] = [];
  for (const c of ctx.data.campaigns) {
    if (!isLive(ctx, c.id) || isYoung(ctx, c.m.firstDate, c.id)) continue;
    // A strategy still learning (after a change of strategy or target) spends and converts unlike
    // its settled self: its figures say nothing yet about what more budget would buy (research §0.5).
    if (c.learning) continue;
    const blis = c.budgetLostIs;
    const is = c.searchIs;
    if (blis === null || is === null || is <= 0 || blis < MIN_BUDGET_LOST_IS || !c.budgetAmountMicros) continue;
    // Bids or quality are the constraint when rank loses far more than budget.
    if (c.rankLostIs !== null && c.rankLostIs > 2 * blis && c.rankLostIs > 0.5) continue;
    const target = ctx.targetOf(c.id);
    if (!target) continue;
    const t = c.m.w30;
    const test = testAgainstTarget(ctx, t, target, c.id);
    if (!test) continue;
    const confidence = 1 - test.qBelow;
    if (confidence < LIKELY) continue;
    const multiplier = Math.min((is + blis) / is, 1 + MAX_BUDGET_STEP);
    const budget = c.budgetAmountMicros / 1e6;
    const newBudget = apiMoney(budget * multiplier);
    const step = newBudget / budget - 1;
    if (step < 0.01) continue;
    const value = target.metric === "roas";
    const gain = round2((value ? c.m.last30.value : c.m.last30.conversions) * step * DIMINISHING_RETURNS);
    const extraCost = round2(c.m.last30.cost * step);
    const perf = value ? `ROAS ${Math.round((t.value / Math.max(t.cost, 0.01)) * 100)} %` : `CPA ${ctx.money(t.cost / Math.max(t.conversions, 0.01))}`;
    const range = judgedWindow(ctx, "w30");
    out.push({
      key: `budget_limited:${c.id}`,
      type: "budget_limited",
      title: `Raise the daily budget of ${c.name} from ${ctx.money(budget)} to ${ctx.money(newBudget)}: it loses ${pct(blis)} of its impressions to budget at ${perf}`,
      resources: [campaignRef(ctx, c.id)],
      confidence,
      impact: {
        kind: value ? "value_gained" : "conversions_gained",
        monthly: gain,
        riskConversions: null,
        assumption: `Spend rises by about ${ctx.money(extraCost)} a month (+${Math.round(step * 100)} %); the extra clicks convert at ${Math.round(DIMINISHING_RETURNS * 100)} % of today's rate (diminishing returns).`,
      },
      sortAmount: value ? gain : gain * target.value,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `Over the last 14 days ${c.name} showed for ${pct(is)} of eligible searches and lost ${pct(blis)} to its budget; over 30 days its ${perf} beats the target with ${Math.round(confidence * 100)} % confidence.`,
        figures: [
          ...totalsFigures(t),
          { name: "searchImpressionShare", label: "Search impression share (14 days)", value: round2(is * 100), unit: "percent" },
          { name: "budgetLostImpressionShare", label: "Lost to budget (14 days)", value: round2(blis * 100), unit: "percent" },
          {
            name: "rankLostImpressionShare",
            label: "Lost to rank (14 days)",
            value: c.rankLostIs === null ? null : round2(c.rankLostIs * 100),
            unit: "percent",
          },
          { name: "dailyBudget", label: "Daily budget", value: budget, unit: "money" },
          { name: "newDailyBudget", label: "Proposed daily budget", value: newBudget, unit: "money" },
          { name: "extraMonthlyCost", label: "Extra spend a month", value: extraCost, unit: "money" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: "Beta-binomial: P(conversion rate > break-even) over the last 30 judged days",
          result: `${Math.round(confidence * 1000) / 10} %`,
          confidence,
        },
        notes: [
          `Capped at +${Math.round(MAX_BUDGET_STEP * 100)} % a move; the full capture would need ×${round2((is + blis) / is)}.`,
          ...(c.budgetShared ? ["This budget is shared: raising it raises what every campaign on it may spend."] : []),
          ...(c.bidding.startsWith("MAXIMIZE") ? ["Maximize strategies spend what they get: a higher budget can also raise the CPA."] : []),
        ],
      },
      actions: [{ type: "budget", campaignId: c.id, amount: newBudget }],
      links: [],
    });
  }
  return out;
}
