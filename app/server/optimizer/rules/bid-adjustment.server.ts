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
import { addTotals, BID_REST_DAYS, EMPTY_TOTALS, type Totals } from "../data.server";
import type { Finding, ResourceRef, Target } from "../types.server";
import { adGroupRef, campaignRef, costPerTargetConversion, isManualCpc, keywordId, keywordLabel, keywordRef, LIKELY } from "./shared.server";
import { countOf } from "~/lib/format";

// bid_adjustment (research K1): manual-CPC ad groups (their default bid) and
// keywords with their own bid that miss or beat target with confidence → move
// the bid toward target, new = old × target / CPA (dampened by the shrunk
// rate), at most ±20 %, never within 14 days of the last change to that bid.

export const MAX_BID_STEP = 0.2;
const MIN_STEP = 0.05;
/** Against an account reference (no target set), "far above" it: a cost per conversion 1.5× the reference's. */
export const REFERENCE_MARGIN = 1.5;
/** Conversions move about half as much as the bid (an elasticity assumption, stated in the impact). */
const ELASTICITY = 0.5;

interface Subject {
  key: string;
  kind: "ad_group" | "keyword";
  id: string;
  label: string;
  campaignId: string;
  adGroupId: string;
  bidMicros: number;
  t: Totals;
  last30: Totals;
  firstDate: string | null;
  resourceName: string;
  refs: ResourceRef[];
  /** A keyword without a bid of its own (it follows its ad group's default): the move sets one. */
  onDefault?: { adGroupName: string; adGroupCpa: number; adGroupResource: string };
}

/** Whether an ad group's keywords together meet the target, or (against a reference) are not far above it. */
function adGroupAtTarget(ctx: Context, t: Totals, target: Target, campaignId: string): boolean {
  if (t.conversions <= 0) return false;
  const unit = costPerTargetConversion(ctx, target, campaignId);
  if (!unit) return false;
  const margin = target.source === "account reference" ? REFERENCE_MARGIN : 1;
  return t.cost / t.conversions <= unit * margin;
}

export function bidAdjustments(ctx: Context, skipKeywords: Set<string> = new Set()): Finding[] {
  if (ctx.trackingSuspect) return [];
  const subjects: Subject[] = [];
  const cid = ctx.data.customerId;
  for (const g of ctx.data.adGroups) {
    if (!isManualCpc(ctx, g.campaignId) || !isLive(ctx, g.campaignId, g.id) || !g.cpcBidMicros) continue;
    // The ad group's default bid only drives its keywords without a bid of their own.
    const own = (ctx.keywordsByAdGroup.get(g.id) ?? []).filter((k) => k.status === "ENABLED" && k.cpcBidMicros === null);
    if (own.length === 0) continue;
    subjects.push({
      key: `bid_adjustment:ad_group:${g.id}`,
      kind: "ad_group",
      id: g.id,
      label: `the default bid of ad group ${g.name}`,
      campaignId: g.campaignId,
      adGroupId: g.id,
      bidMicros: g.cpcBidMicros,
      t: own.reduce((s, k) => addTotals(s, k.m.all), EMPTY_TOTALS),
      last30: own.reduce((s, k) => addTotals(s, k.m.last30), EMPTY_TOTALS),
      firstDate: g.m.firstDate,
      resourceName: `customers/${cid}/adGroups/${g.id}`,
      refs: [adGroupRef(ctx, g.id), campaignRef(ctx, g.campaignId)],
    });
  }
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || k.cpcBidMicros === null || !isManualCpc(ctx, k.campaignId) || !isLive(ctx, k.campaignId, k.adGroupId)) continue;
    if (skipKeywords.has(keywordId(k))) continue;
    subjects.push({
      key: `bid_adjustment:keyword:${keywordId(k)}`,
      kind: "keyword",
      id: keywordId(k),
      label: `the bid of ${keywordLabel(k)}`,
      campaignId: k.campaignId,
      adGroupId: k.adGroupId,
      bidMicros: k.cpcBidMicros,
      t: k.m.all,
      last30: k.m.last30,
      firstDate: k.m.firstDate,
      resourceName: `customers/${cid}/adGroupCriteria/${keywordId(k)}`,
      refs: [keywordRef(ctx, k), adGroupRef(ctx, k.adGroupId), campaignRef(ctx, k.campaignId)],
    });
  }

  // Keywords on the ad group's default bid, judged alone (issue 28 point 3): one at twice its ad group's
  // cost per conversion, in an ad group that is at target overall (so the default bid stays), gets a bid
  // of its own — lowering the default would move its siblings too. Cuts only, as for any bid.
  for (const g of ctx.data.adGroups) {
    if (!isManualCpc(ctx, g.campaignId) || !isLive(ctx, g.campaignId, g.id) || !g.cpcBidMicros) continue;
    const onDefault = (ctx.keywordsByAdGroup.get(g.id) ?? []).filter((k) => k.status === "ENABLED" && k.cpcBidMicros === null);
    if (onDefault.length < 2) continue;
    const group = onDefault.reduce((sum, k) => addTotals(sum, k.m.all), EMPTY_TOTALS);
    const target = ctx.targetOf(g.campaignId);
    if (!target || target.source === "assumed target" || !adGroupAtTarget(ctx, group, target, g.campaignId)) continue;
    const groupCpa = group.cost / group.conversions;
    for (const k of onDefault) {
      if (skipKeywords.has(keywordId(k))) continue;
      const kw = k.m.all;
      if (kw.cost < 2 * groupCpa * Math.max(kw.conversions, 1)) continue;
      subjects.push({
        key: `bid_adjustment:keyword:${keywordId(k)}`,
        kind: "keyword",
        id: keywordId(k),
        label: `the bid of ${keywordLabel(k)}`,
        campaignId: k.campaignId,
        adGroupId: k.adGroupId,
        bidMicros: k.effectiveCpcBidMicros ?? g.cpcBidMicros,
        t: kw,
        last30: k.m.last30,
        firstDate: k.m.firstDate,
        resourceName: `customers/${cid}/adGroupCriteria/${keywordId(k)}`,
        refs: [keywordRef(ctx, k), adGroupRef(ctx, k.adGroupId), campaignRef(ctx, k.campaignId)],
        onDefault: { adGroupName: g.name, adGroupCpa: groupCpa, adGroupResource: `customers/${cid}/adGroups/${g.id}` },
      });
    }
  }

  const out: Finding[] = [...adGroupTargetOverrides(ctx)];
  const range = judgedWindow(ctx, "all");
  for (const s of subjects) {
    if (isYoung(ctx, s.firstDate, s.campaignId)) continue;
    // The rest period: no move within BID_REST_DAYS of the last change to this bid (for a keyword on the
    // default, its ad group's default bid is the bid that changed).
    if (ctx.data.recentBidChanges.has(s.resourceName) || (s.onDefault && ctx.data.recentBidChanges.has(s.onDefault.adGroupResource))) continue;
    const target = ctx.targetOf(s.campaignId);
    // A bid move needs a target someone set, or an economic reason against the account's other
    // campaigns; beating or missing an average is not one (issue 28 point 2): nothing on an assumed target.
    if (!target || target.source === "assumed target") continue;
    const costUnit = costPerTargetConversion(ctx, target, s.campaignId);
    if (!costUnit) continue;
    const reference = target.source === "account reference";
    // Against a reference only a cost per conversion far above it (a value/cost far below) is a reason, and only to cut.
    const judgedAgainst: Target = reference
      ? { ...target, value: target.metric === "cpa" ? target.value * REFERENCE_MARGIN : target.value / REFERENCE_MARGIN }
      : target;
    const { t } = s;
    // Enough data: 3 conversions, or clicks enough to expect 3 at the parent's rate.
    const test = testAgainstTarget(ctx, t, judgedAgainst, s.campaignId, s.kind === "keyword" ? s.adGroupId : undefined);
    if (!test || (t.conversions < 3 && t.clicks < 3 / Math.max(test.prior, 0.001))) continue;
    const below = test.qBelow;
    // Against a reference, and for a keyword on the default bid, only cuts.
    const above = reference || s.onDefault ? 0 : 1 - below;
    if (below < LIKELY && above < LIKELY) continue;
    const cpc = t.cost / Math.max(t.clicks, 1);
    const shrunkCpa = cpc / test.posteriorRate;
    const ratio = costUnit / shrunkCpa;
    const step = Math.max(-MAX_BID_STEP, Math.min(MAX_BID_STEP, ratio - 1));
    if (Math.abs(step) < MIN_STEP || (below >= LIKELY && step > 0) || (above >= LIKELY && step < 0)) continue;
    // Nothing to buy when the campaign already shows almost everywhere.
    const campaign = ctx.campaigns.get(s.campaignId);
    if (step > 0 && campaign?.searchIs !== null && (campaign?.searchIs ?? 0) >= 0.9) continue;
    const old = s.bidMicros / 1e6;
    const next = apiMoney(old * (1 + step));
    const confidence = step < 0 ? below : above;
    const down = step < 0;
    const cpa = t.conversions > 0 ? t.cost / t.conversions : null;
    out.push({
      key: s.key,
      type: "bid_adjustment",
      title: s.onDefault
        ? `Give ${keywordLabelOf(s)} in ${s.onDefault.adGroupName} a bid of its own, ${ctx.money(next)} (the ad group's default is ${ctx.money(old)}): ${cpa === null ? "no conversions" : `CPA ${ctx.money(cpa)}`}, twice the ad group's ${ctx.money(s.onDefault.adGroupCpa)}`
        : `${down ? "Lower" : "Raise"} ${s.label} from ${ctx.money(old)} to ${ctx.money(next)}: ${cpa === null ? "no conversions" : `CPA ${ctx.money(cpa)}`} vs ${target.source === "account reference" ? "the account reference" : "target"} ${ctx.money(costUnit)}`,
      resources: s.refs,
      confidence,
      impact: down
        ? {
            kind: "cost_saved",
            monthly: round2(s.last30.cost * -step),
            riskConversions: round2(s.last30.conversions * -step * ELASTICITY),
            assumption: `Cost falls at most in proportion to the bid (${Math.round(step * 100)} %); conversions fall about half as much.`,
          }
        : {
            kind: "conversions_gained",
            monthly: round2(s.last30.conversions * step * ELASTICITY),
            riskConversions: null,
            assumption: `Conversions rise about half as much as the bid (+${Math.round(step * 100)} %), at a higher cost per click.`,
          },
      sortAmount: down ? s.last30.cost * -step : s.last30.conversions * step * ELASTICITY * costUnit,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `${cpa === null ? `No conversions from ${countOf(t.clicks, "click")}` : `CPA ${ctx.money(cpa)} from ${countOf(round2(t.conversions), "conversion")}`} against a target of ${ctx.money(costUnit)}; the estimated CPA (rate shrunk toward its parent) is ${ctx.money(shrunkCpa)}.`,
        figures: [
          ...totalsFigures(t),
          { name: "bid", label: s.onDefault ? "Current bid (the ad group's default)" : "Current bid", value: old, unit: "money" },
          ...(s.onDefault
            ? [{ name: "adGroupCpa", label: "Ad group CPA (its keywords on the default bid)", value: round2(s.onDefault.adGroupCpa), unit: "money" as const }]
            : []),
          { name: "newBid", label: "Proposed bid", value: next, unit: "money" },
          { name: "shrunkCpa", label: "Estimated CPA", value: round2(shrunkCpa), unit: "money" },
          { name: "breakEvenRate", label: "Break-even conversion rate", value: round2(test.breakEven * 100), unit: "percent" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: `Beta-binomial: P(conversion rate ${down ? "<" : ">"} break-even)`,
          result: `${Math.round(confidence * 1000) / 10} % (${confidence >= 0.95 ? "Strong" : "Likely"})`,
          confidence,
        },
        notes: [
          `Moves are capped at ±${Math.round(MAX_BID_STEP * 100)} % and never within ${BID_REST_DAYS} days of the last change to this bid (ours or in Google Ads).`,
          `Estimated rate ${pct(test.posteriorRate)}.`,
          ...(s.onDefault
            ? [
                `The keyword has no bid of its own: this sets one, ${Math.round(-step * 100)} % below the ad group's default; its ad group is at target overall, so the default and the other keywords stay as they are. Reverting removes the keyword's bid again.`,
              ]
            : []),
          ...(reference
            ? [
                `No target is set: judged against the account reference (${target.basis ?? "the account's other campaigns"}) — proposed only because it is ${REFERENCE_MARGIN}× worse than it with confidence. Set a target in Settings to sharpen this advice.`,
              ]
            : []),
        ],
      },
      actions: [{ type: "bid", kind: s.kind, items: [{ id: s.id, cpc: next }] }],
      links: [],
    });
  }
  return out;
}

function keywordLabelOf(s: Subject): string {
  return s.label.replace(/^the bid of /, "");
}

/**
 * Smart-bidding ad groups whose own target CPA overrides the campaign's far
 * above it while missing the campaign's target (research K3): a `target_cpa`
 * action lowers the override one step toward the campaign's target, −15 % (the
 * practitioners' weekly limit, inside the bids' ±20 % cap), never below the
 * campaign's target and never within 14 days of the last change to the ad group.
 */
export const TARGET_STEP = Math.min(0.15, MAX_BID_STEP);

function adGroupTargetOverrides(ctx: Context): Finding[] {
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const g of ctx.data.adGroups) {
    const c = ctx.campaigns.get(g.campaignId);
    if (!c || isManualCpc(ctx, g.campaignId) || !g.targetCpaMicros || !c.targetCpaMicros || !isLive(ctx, g.campaignId, g.id)) continue;
    const own = g.targetCpaMicros / 1e6;
    const campaignTarget = c.targetCpaMicros / 1e6;
    if (own < campaignTarget * 1.5 || recentlyChanged(ctx, `customers/${ctx.data.customerId}/adGroups/${g.id}`)) continue;
    const target = ctx.targetOf(g.campaignId)!;
    const t = g.m.all;
    const test = testAgainstTarget(ctx, t, target, g.campaignId);
    if (!test || test.qBelow < LIKELY || t.conversions < 3) continue;
    const next = apiMoney(Math.max(campaignTarget, own * (1 - TARGET_STEP)));
    const cpa = t.cost / t.conversions;
    out.push({
      key: `bid_adjustment:ad_group_target:${g.id}`,
      type: "bid_adjustment",
      title: `Lower the target CPA of ad group ${g.name} from ${ctx.money(own)} toward the campaign's ${ctx.money(campaignTarget)}: CPA ${ctx.money(cpa)}`,
      resources: [adGroupRef(ctx, g.id), campaignRef(ctx, g.campaignId)],
      confidence: test.qBelow,
      impact: {
        kind: "cost_saved",
        monthly: round2(g.m.last30.cost * TARGET_STEP),
        riskConversions: round2(g.m.last30.conversions * TARGET_STEP * ELASTICITY),
        assumption: `Smart bidding spends less where the target is stricter; about ${Math.round(TARGET_STEP * 100)} % of the ad group's spend, with fewer conversions.`,
      },
      sortAmount: g.m.last30.cost * TARGET_STEP,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `The ad group's own target CPA (${ctx.money(own)}) overrides the campaign's ${ctx.money(campaignTarget)}, and it converts at ${ctx.money(cpa)}: ${Math.round(test.qBelow * 100)} % likely worse than the campaign's target.`,
        figures: [
          ...totalsFigures(t),
          { name: "adGroupTargetCpa", label: "Ad group target CPA", value: own, unit: "money" },
          { name: "campaignTargetCpa", label: "Campaign target CPA", value: campaignTarget, unit: "money" },
          { name: "proposedTargetCpa", label: "Suggested target CPA (one step)", value: next, unit: "money" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: {
          name: "Beta-binomial: P(conversion rate < break-even at the campaign's target)",
          result: `${Math.round(test.qBelow * 1000) / 10} %`,
          confidence: test.qBelow,
        },
        notes: [
          `One step to ${ctx.money(next)}: practitioners move targets 10–15 % a week; Google says larger moves do not reset learning. Repeat after ${BID_REST_DAYS} days if the CPA stays above the campaign's target.`,
          `Moves are capped at ±${Math.round(MAX_BID_STEP * 100)} % and never within ${BID_REST_DAYS} days of the last change to this ad group (ours or in Google Ads).`,
        ],
      },
      actions: [{ type: "target_cpa", adGroupId: g.id, targetCpa: next }],
      links: [],
    });
  }
  return out;
}

function recentlyChanged(ctx: Context, resourceName: string): boolean {
  return ctx.data.recentBidChanges.has(resourceName);
}
