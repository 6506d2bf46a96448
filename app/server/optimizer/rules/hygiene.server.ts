import { formatEnum } from "~/lib/format";
import { evidenceBase, isLive, judgedWindow, meetsTarget, pct, round2, targetLabel, testAgainstTarget, totalsFigures, type Context } from "../context.server";
import { addTotals, EMPTY_TOTALS, type KeywordRow } from "../data.server";
import { negativeBlocksQuery, negativeConflictsWithKeyword, tokens } from "../negatives.server";
import { ratePosterior } from "../stats.server";
import type { Action } from "../../changes/propose.server";
import type { Finding } from "../types.server";
import { adGroupRef, campaignRef, costPerTargetConversion, keywordId, keywordLabel, keywordRef } from "./shared.server";
import { countOf } from "~/lib/format";

// low_quality_score (Q1), weak_ad (Q2), duplicate_keyword (Q3),
// paused_converting (Q4), blocked_keyword (Q6/N5-1). Facts rather than
// estimates, except paused_converting: confidence 1 unless stated.

/** The widely quoted CPC penalty against QS 5 (WordStream), shown as indicative only. */
const QS_CPC_PENALTY: Record<number, number> = { 1: 4, 2: 1.5, 3: 0.67 };

export function lowQualityScores(ctx: Context, wasted: Map<string, Finding>): Finding[] {
  const out: Finding[] = [];
  const range = { from: ctx.data.period.last30From, to: ctx.data.period.dataTo };
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || k.qualityScore === null || k.qualityScore > 3 || !isLive(ctx, k.campaignId, k.adGroupId)) continue;
    const target = ctx.targetOf(k.campaignId);
    const costUnit = target ? costPerTargetConversion(ctx, target, k.campaignId) : null;
    // "Real spend": at least what one conversion at target costs, in the last 30 days.
    if (!costUnit || k.m.last30.cost < costUnit) continue;
    const components = [
      { name: "searchPredictedCtr", label: "Expected click-through rate", value: k.predictedCtr },
      { name: "creativeQualityScore", label: "Ad relevance", value: k.creative },
      { name: "postClickQualityScore", label: "Landing page experience", value: k.postClick },
    ];
    const weak = components.filter((c) => c.value === "BELOW_AVERAGE").map((c) => c.label.toLowerCase());
    const penalty = QS_CPC_PENALTY[k.qualityScore] ?? 0;
    const saving = round2(k.m.last30.cost * (penalty / (1 + penalty)));
    const alsoWasted = wasted.get(`wasted_keyword:${keywordId(k)}`);
    const adGroup = ctx.adGroups.get(k.adGroupId)?.name ?? k.adGroupId;
    out.push({
      key: `low_quality_score:${keywordId(k)}`,
      type: "low_quality_score",
      title: `Quality score ${k.qualityScore} on ${keywordLabel(k)} in ${adGroup}: ${ctx.money(k.m.last30.cost)} in 30 days${weak.length ? `, weak ${weak.join(", ")}` : ""}`,
      resources: [keywordRef(ctx, k), adGroupRef(ctx, k.adGroupId), campaignRef(ctx, k.campaignId)],
      confidence: 1,
      impact: {
        kind: "cost_saved",
        monthly: saving,
        riskConversions: null,
        assumption: `Indicative: at quality score 5 the same clicks would cost about ${Math.round((penalty / (1 + penalty)) * 100)} % less (the widely quoted CPC table; Google calls quality score a diagnostic, not a promise).`,
      },
      sortAmount: saving / 2,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `Quality score ${k.qualityScore}/10 with ${ctx.money(k.m.last30.cost)} spent in the last 30 days. ${weak.length ? `Below average: ${weak.join(", ")}.` : "No component is below average."}`,
        figures: [
          { name: "qualityScore", label: "Quality score", value: k.qualityScore, unit: "count" },
          ...components.map((c) => ({ name: c.name, label: c.label, value: c.value ? formatEnum(c.value) : "Not reported", unit: "text" as const })),
          ...totalsFigures(k.m.last30),
        ],
        target: target ? { ...target, label: targetLabel(target, ctx.money) } : null,
        test: null,
        notes: [
          weak.includes("expected click-through rate") ? "Expected CTR: rewrite the ads' headlines around this keyword." : "",
          weak.includes("ad relevance") ? "Ad relevance: move the keyword to a tighter ad group or use it in the headlines." : "",
          weak.includes("landing page experience") ? "Landing page: check the final URL's speed and relevance." : "",
          alsoWasted
            ? "It also spends without converting: the action is that recommendation's pause."
            : "Nothing is changed automatically: quality score is fixed by the ads and the landing page.",
        ].filter(Boolean),
      },
      actions: alsoWasted ? alsoWasted.actions : [],
      links: [],
    });
  }
  return out;
}

export function weakAds(ctx: Context): Finding[] {
  const out: Finding[] = [];
  const range = { from: ctx.data.period.last30From, to: ctx.data.period.dataTo };
  for (const a of ctx.data.ads) {
    if (a.status !== "ENABLED" || a.type !== "RESPONSIVE_SEARCH_AD" || !isLive(ctx, a.campaignId, a.adGroupId)) continue;
    const assets = [...a.headlines, ...a.descriptions];
    const labelled = assets.filter((x) => x.assetPerformanceLabel && !["PENDING", "LEARNING", "UNKNOWN", "UNSPECIFIED"].includes(x.assetPerformanceLabel));
    const low = labelled.filter((x) => x.assetPerformanceLabel === "LOW").length;
    const mostlyLow = labelled.length > 0 && low / labelled.length > 0.5;
    const weakStrength = a.adStrength === "POOR" || a.adStrength === "AVERAGE";
    if (!weakStrength && !mostlyLow) continue;
    const uplift = a.adStrength === "POOR" ? 0.15 : 0.07;
    const adGroup = ctx.adGroups.get(a.adGroupId)?.name ?? a.adGroupId;
    const first = a.headlines[0]?.text ?? a.adId;
    const why = [weakStrength ? `ad strength ${formatEnum(a.adStrength).toLowerCase()}` : "", mostlyLow ? `${low} of ${labelled.length} assets rated low` : ""]
      .filter(Boolean)
      .join(", ");
    const adId = `${a.adGroupId}~${a.adId}`;
    out.push({
      key: `weak_ad:${adId}`,
      type: "weak_ad",
      title: `Rewrite the ad “${first}” in ${adGroup}: ${why}`,
      resources: [
        { kind: "ad", id: adId, name: first, resourceName: `customers/${ctx.data.customerId}/adGroupAds/${adId}` },
        adGroupRef(ctx, a.adGroupId),
        campaignRef(ctx, a.campaignId),
      ],
      confidence: 1,
      impact: {
        kind: "conversions_gained",
        monthly: round2(a.m.last30.conversions * uplift),
        riskConversions: null,
        assumption: `Google's figure: Poor → Excellent ad strength ≈ +15 % conversions (+${Math.round(uplift * 100)} % assumed here); ad strength measures inputs, not results.`,
      },
      sortAmount:
        a.m.last30.conversions *
        uplift *
        (costPerTargetConversion(ctx, ctx.targetOf(a.campaignId) ?? { metric: "cpa", value: 0, source: "assumed target" }, a.campaignId) ?? 0),
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `${a.headlines.length} headlines and ${a.descriptions.length} descriptions; ${why}.`,
        figures: [
          { name: "adStrength", label: "Ad strength", value: a.adStrength ? formatEnum(a.adStrength) : "Not reported", unit: "text" },
          { name: "headlines", label: "Headlines", value: a.headlines.length, unit: "count" },
          { name: "descriptions", label: "Descriptions", value: a.descriptions.length, unit: "count" },
          { name: "lowAssets", label: "Assets rated low", value: low, unit: "count" },
          {
            name: "lowAssetTexts",
            label: "Low assets",
            value:
              assets
                .filter((x) => x.assetPerformanceLabel === "LOW")
                .map((x) => x.text)
                .join(" · ") || null,
            unit: "text",
          },
          ...totalsFigures(a.m.last30),
        ],
        target: null,
        test: null,
        notes: ["Google recommends up to 15 headlines and 4 descriptions, distinct from each other, with the ad group's keywords."],
      },
      actions: [],
      links: [{ label: "Write a new ad in the ad generator", href: `/ad-generator?campaignId=${a.campaignId}&adGroupId=${a.adGroupId}` }],
    });
  }
  return out;
}

/** Same text and match type (broad: same words in any order) in the same campaign = the same targeting. */
function duplicateKey(k: KeywordRow): string {
  const words = k.matchType === "BROAD" ? [...tokens(k.text)].sort() : tokens(k.text);
  return `${k.campaignId}|${k.matchType}|${words.join(" ")}`;
}

export function duplicateKeywords(ctx: Context): Finding[] {
  const groups = new Map<string, KeywordRow[]>();
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || !isLive(ctx, k.campaignId, k.adGroupId)) continue;
    const key = duplicateKey(k);
    const list = groups.get(key);
    if (list) list.push(k);
    else groups.set(key, [k]);
  }
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const [key, list] of groups) {
    if (list.length < 2 || list.every((k) => k.m.all.impressions === 0)) continue;
    const prior = ctx.campaigns.get(list[0].campaignId);
    const priorRate = prior && prior.m.all.clicks > 0 ? prior.m.all.conversions / prior.m.all.clicks : 0.02;
    const score = (k: KeywordRow) => ratePosterior(k.m.all.clicks, k.m.all.conversions, priorRate).mean;
    const ranked = [...list].sort(
      (a, b) =>
        score(b) - score(a) || (b.qualityScore ?? 0) - (a.qualityScore ?? 0) || b.m.all.clicks - a.m.all.clicks || keywordId(a).localeCompare(keywordId(b)),
    );
    const [winner, ...losers] = ranked;
    const loserCost = losers.reduce((s, k) => addTotals(s, k.m.last30), EMPTY_TOTALS);
    const winnerCpa = winner.m.all.conversions > 0 ? winner.m.all.cost / winner.m.all.conversions : null;
    const saving = round2(Math.max(0, loserCost.cost - (winnerCpa === null ? loserCost.cost : loserCost.conversions * winnerCpa)));
    const names = (k: KeywordRow) => ctx.adGroups.get(k.adGroupId)?.name ?? k.adGroupId;
    out.push({
      key: `duplicate_keyword:${key}`,
      type: "duplicate_keyword",
      title: `${keywordLabel(winner)} is in ${list.length} ad groups of ${ctx.campaigns.get(winner.campaignId)?.name}: pause it in ${losers.map(names).join(", ")}`,
      resources: [...ranked.map((k) => keywordRef(ctx, k)), ...ranked.map((k) => adGroupRef(ctx, k.adGroupId)), campaignRef(ctx, winner.campaignId)],
      confidence: 1,
      impact: {
        kind: "cost_saved",
        monthly: saving,
        riskConversions: 0,
        assumption: "The twins compete for the same searches; the kept one takes the traffic at its own cost per conversion.",
      },
      sortAmount: saving,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `The same keyword with the same match type serves the same searches from ${list.length} ad groups; ${names(winner)} converts best and keeps it.`,
        figures: ranked.flatMap((k, i) => [
          { name: `keyword${i}.adGroup`, label: `${i === 0 ? "Kept" : "Paused"}: ad group`, value: names(k), unit: "text" as const },
          { name: `keyword${i}.clicks`, label: "Clicks", value: k.m.all.clicks, unit: "count" as const },
          { name: `keyword${i}.conversions`, label: "Conversions", value: round2(k.m.all.conversions), unit: "count" as const },
          { name: `keyword${i}.cost`, label: "Cost", value: round2(k.m.all.cost), unit: "money" as const },
          { name: `keyword${i}.qualityScore`, label: "Quality score", value: k.qualityScore, unit: "count" as const },
        ]),
        target: null,
        test: {
          name: "Kept: highest estimated conversion rate, then quality score, then clicks",
          result: `${names(winner)} (${pct(score(winner))})`,
          confidence: null,
        },
        notes: ["Layering the same text across match types is intentional and never flagged."],
      },
      actions: [{ type: "status", kind: "keyword", ids: losers.map(keywordId), status: "PAUSED" }],
      links: [],
    });
  }
  return out;
}

export function pausedConverting(ctx: Context): Finding[] {
  if (ctx.trackingSuspect) return [];
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const k of ctx.data.keywords) {
    if (k.status !== "PAUSED" || !isLive(ctx, k.campaignId, k.adGroupId)) continue;
    const t = k.m.all;
    if (t.conversions < 2) continue;
    const target = ctx.targetOf(k.campaignId);
    if (!target || !meetsTarget(t, target)) continue;
    const test = testAgainstTarget(ctx, t, target, k.campaignId, k.adGroupId);
    if (!test) continue;
    const confidence = 1 - test.qBelow;
    if (confidence < 0.8) continue;
    const days = k.m.firstDate && k.m.lastDate ? (Date.parse(k.m.lastDate) - Date.parse(k.m.firstDate)) / 86_400_000 + 1 : 90;
    const monthly = round2((t.conversions / Math.max(days, 7)) * 30);
    const cpa = t.cost / t.conversions;
    const costUnit = costPerTargetConversion(ctx, target, k.campaignId) ?? 0;
    out.push({
      key: `paused_converting:${keywordId(k)}`,
      type: "paused_converting",
      title: `Enable ${keywordLabel(k)} in ${ctx.adGroups.get(k.adGroupId)?.name}: paused, but it converted ${round2(t.conversions)} times at ${ctx.money(cpa)}`,
      resources: [keywordRef(ctx, k), adGroupRef(ctx, k.adGroupId), campaignRef(ctx, k.campaignId)],
      confidence,
      impact: {
        kind: "conversions_gained",
        monthly,
        riskConversions: null,
        assumption: `It converts again at its rate while it was live (${k.m.firstDate ?? "?"} to ${k.m.lastDate ?? "?"}). It may have been paused for a business reason (stock, season): check before applying.`,
      },
      sortAmount: monthly * costUnit,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `While live it brought ${countOf(round2(t.conversions), "conversion")} at ${ctx.money(cpa)} each, below target; its last day with traffic was ${k.m.lastDate ?? "unknown"}.`,
        figures: [
          ...totalsFigures(t),
          { name: "cpa", label: "CPA", value: round2(cpa), unit: "money" },
          { name: "lastActive", label: "Last day with traffic", value: k.m.lastDate, unit: "text" },
        ],
        target: { ...target, label: targetLabel(target, ctx.money) },
        test: { name: "Beta-binomial: P(conversion rate > break-even)", result: `${Math.round(confidence * 1000) / 10} %`, confidence },
        notes: [],
      },
      actions: [{ type: "status", kind: "keyword", ids: [keywordId(k)], status: "ENABLED" }],
      links: [],
    });
  }
  return out;
}

export function blockedKeywords(ctx: Context): Finding[] {
  const out: Finding[] = [];
  const range = judgedWindow(ctx, "all");
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || !isLive(ctx, k.campaignId, k.adGroupId)) continue;
    const scoped = [...(ctx.negativesByParent.get(`ad_group:${k.adGroupId}`) ?? []), ...(ctx.negativesByParent.get(`campaign:${k.campaignId}`) ?? [])];
    for (const n of scoped) {
      if (!negativeConflictsWithKeyword(n, k)) continue;
      // The negative is right when the searches it keeps out failed before it was added.
      const terms = (n.level === "ad_group" ? ctx.termsByAdGroup : ctx.termsByCampaign).get(n.parentId) ?? [];
      const kept = terms.filter((t) => t.status !== "NONE" && t.status !== "ADDED" && negativeBlocksQuery(n, t.term));
      const keptTotals = kept.reduce((s, t) => addTotals(s, t.m.all), EMPTY_TOTALS);
      const target = ctx.targetOf(k.campaignId);
      const costUnit = target ? costPerTargetConversion(ctx, target, k.campaignId) : null;
      const negativeIsRight = keptTotals.conversions === 0 && costUnit !== null && keptTotals.cost >= costUnit;
      const negId = `${n.parentId}~${n.criterionId}`;
      const where = n.level === "campaign" ? `campaign ${ctx.campaigns.get(n.parentId)?.name}` : `ad group ${ctx.adGroups.get(n.parentId)?.name}`;
      const action: Action = negativeIsRight ? { type: "remove_keywords", ids: [keywordId(k)] } : { type: "remove_negatives", level: n.level, ids: [negId] };
      out.push({
        key: `blocked_keyword:${keywordId(k)}:${n.level}:${negId}`,
        type: "blocked_keyword",
        title: negativeIsRight
          ? `Remove ${keywordLabel(k)}: the ${where} negative ${keywordLabel(n)} blocks it, rightly`
          : `Remove the negative ${keywordLabel(n)} in ${where}: it blocks the enabled keyword ${keywordLabel(k)}`,
        resources: [
          keywordRef(ctx, k),
          {
            kind: n.level === "campaign" ? "campaign_negative_keyword" : "negative_keyword",
            id: negId,
            name: `${n.text} (${n.matchType.toLowerCase()})`,
            resourceName: `customers/${ctx.data.customerId}/${n.level === "campaign" ? "campaignCriteria" : "adGroupCriteria"}/${negId}`,
          },
          adGroupRef(ctx, k.adGroupId),
          campaignRef(ctx, k.campaignId),
        ],
        confidence: 1,
        impact: negativeIsRight
          ? { kind: "none", monthly: 0, riskConversions: 0, assumption: "Tidies the account: the keyword cannot serve anyway." }
          : {
              kind: "conversions_gained",
              monthly: 0,
              riskConversions: null,
              assumption: "The keyword has been silenced; what it would bring is unknown (it has no traffic to learn from).",
            },
        sortAmount: negativeIsRight ? 0 : (costUnit ?? 0),
        evidence: {
          ...evidenceBase(ctx, range.from, range.to),
          summary: `The ${n.matchType.toLowerCase()} negative “${n.text}” on the ${where} blocks the query “${k.text}”, so the enabled keyword gets ${k.m.all.impressions} impressions in ${range.from}–${range.to}.`,
          figures: [
            { name: "keywordImpressions", label: "Keyword impressions", value: k.m.all.impressions, unit: "count" },
            { name: "negativeLevel", label: "Negative at", value: n.level === "campaign" ? "Campaign" : "Ad group", unit: "text" },
            { name: "excludedTerms", label: "Search terms the negative kept out", value: kept.length, unit: "count" },
            { name: "excludedTermsCost", label: "Their cost before", value: round2(keptTotals.cost), unit: "money" },
            { name: "excludedTermsConversions", label: "Their conversions before", value: round2(keptTotals.conversions), unit: "count" },
          ],
          target: target ? { ...target, label: targetLabel(target, ctx.money) } : null,
          test: {
            name: "Negative-keyword matching (broad: all words; phrase: in order; exact: the same query)",
            result: "Blocks the keyword's own query",
            confidence: null,
          },
          notes: [
            negativeIsRight
              ? "The searches this negative keeps out spent without converting: keep the negative, drop the keyword."
              : "Nothing suggests the negative is needed for these searches: remove it.",
          ],
        },
        actions: [action],
        links: [],
      });
    }
  }
  return out;
}
