import { evidenceBase, isLive, isYoung, judgedWindow, round2, type Context } from "../context.server";
import type { KeywordRow } from "../data.server";
import type { Finding } from "../types.server";
import { campaignRef, keywordLabel, keywordRef } from "./shared.server";

// rarely_served (research Q5): enabled keywords Google marks RARELY_SERVED
// (low search volume). A fact from Google, not an estimate: no statistics,
// one finding per campaign listing them. Nothing is changed automatically —
// the fix is a judgement (broaden the match, fold into a broader keyword, or
// remove), and they cost nothing meanwhile; Google itself pauses keywords
// with no impressions for 13 months.

/** At most this many keywords are named in the title and the text figure; all are in the resources. */
const NAMED = 10;

export function rarelyServed(ctx: Context): Finding[] {
  const byCampaign = new Map<string, KeywordRow[]>();
  for (const k of ctx.data.keywords) {
    if (k.status !== "ENABLED" || k.servingStatus !== "RARELY_SERVED" || !isLive(ctx, k.campaignId, k.adGroupId) || isYoung(ctx, null, k.campaignId)) continue;
    const list = byCampaign.get(k.campaignId);
    if (list) list.push(k);
    else byCampaign.set(k.campaignId, [k]);
  }
  const range = judgedWindow(ctx, "all");
  const out: Finding[] = [];
  for (const [campaignId, list] of byCampaign) {
    list.sort((a, b) => a.text.localeCompare(b.text) || a.criterionId.localeCompare(b.criterionId));
    const impressions = list.reduce((s, k) => s + k.m.all.impressions, 0);
    const clicks = list.reduce((s, k) => s + k.m.all.clicks, 0);
    const cost = list.reduce((s, k) => s + k.m.all.cost, 0);
    const name = ctx.campaigns.get(campaignId)?.name ?? campaignId;
    const narrow = list.filter((k) => k.matchType !== "BROAD").length;
    const count = `${list.length} keyword${list.length === 1 ? "" : "s"}`;
    out.push({
      key: `rarely_served:${campaignId}`,
      type: "rarely_served",
      title: `${count} in ${name} rarely show (low search volume)${list.length === 1 ? `: ${keywordLabel(list[0])}` : ""}`,
      resources: [...list.map((k) => keywordRef(ctx, k)), campaignRef(ctx, campaignId)],
      confidence: 1,
      impact: {
        kind: "none",
        monthly: 0,
        riskConversions: 0,
        assumption: "They cost nothing while they do not show; cleaning up keeps the account readable and the traffic where keywords can serve.",
      },
      sortAmount: 0,
      evidence: {
        ...evidenceBase(ctx, range.from, range.to),
        summary: `Google marks ${count} of ${name} as rarely served: too few people search for them. Together they had ${impressions} impressions from ${range.from} to ${range.to}.`,
        figures: [
          { name: "keywordCount", label: "Rarely served keywords", value: list.length, unit: "count" },
          { name: "impressions", label: "Their impressions", value: impressions, unit: "count" },
          { name: "clicks", label: "Their clicks", value: clicks, unit: "count" },
          { name: "cost", label: "Their cost", value: round2(cost), unit: "money" },
          { name: "withoutQualityScore", label: "Without a quality score", value: list.filter((k) => k.qualityScore === null).length, unit: "count" },
          {
            name: "keywords",
            label: "Keywords",
            value:
              list
                .slice(0, NAMED)
                .map((k) => keywordLabel(k))
                .join(" · ") + (list.length > NAMED ? ` and ${list.length - NAMED} more` : ""),
            unit: "text",
          },
        ],
        target: null,
        test: { name: "Google's serving status (ad_group_criterion.system_serving_status = RARELY_SERVED)", result: "Rarely served", confidence: null },
        notes: [
          narrow > 0
            ? `${narrow} of them are exact or phrase match: a broader match type (or a broader keyword already in the ad group) reaches the searches they were meant for.`
            : "",
          "Or remove them: Google pauses keywords with no impressions for 13 months on its own.",
          "Nothing is changed automatically.",
        ].filter(Boolean),
      },
      actions: [],
      links: [],
    });
  }
  return out;
}
