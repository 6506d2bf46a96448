import { formatEnum } from "~/lib/format";
import type { Context } from "../context.server";
import type { KeywordRow, Totals } from "../data.server";
import type { ResourceRef, Target } from "../types.server";

// Small helpers the rules share: names, resource references, the money a
// target stands for.

export const keywordId = (k: { adGroupId: string; criterionId: string }) => `${k.adGroupId}~${k.criterionId}`;

export function keywordLabel(k: { text: string; matchType: string }): string {
  return `“${k.text}” (${k.matchType.toLowerCase()})`;
}

export function keywordRef(ctx: Context, k: KeywordRow): ResourceRef {
  return {
    kind: "keyword",
    id: keywordId(k),
    name: `${k.text} (${formatEnum(k.matchType).toLowerCase()})`,
    resourceName: `customers/${ctx.data.customerId}/adGroupCriteria/${keywordId(k)}`,
  };
}

export function adGroupRef(ctx: Context, adGroupId: string): ResourceRef {
  return {
    kind: "ad_group",
    id: adGroupId,
    name: ctx.adGroups.get(adGroupId)?.name ?? adGroupId,
    resourceName: `customers/${ctx.data.customerId}/adGroups/${adGroupId}`,
  };
}

export function campaignRef(ctx: Context, campaignId: string): ResourceRef {
  return {
    kind: "campaign",
    id: campaignId,
    name: ctx.campaigns.get(campaignId)?.name ?? campaignId,
    resourceName: `customers/${ctx.data.customerId}/campaigns/${campaignId}`,
  };
}

/**
 * The spend that should have bought one conversion at target: the target CPA,
 * or for value goals the campaign's order value divided by the target ROAS.
 */
export function costPerTargetConversion(ctx: Context, target: Target, campaignId: string): number | null {
  if (target.metric === "cpa") return target.value;
  const c = ctx.campaigns.get(campaignId);
  const t: Totals = c && c.m.all.conversions >= 5 ? c.m.all : ctx.account;
  if (t.conversions <= 0 || t.value <= 0) return null;
  return t.value / t.conversions / target.value;
}

export function isManualCpc(ctx: Context, campaignId: string): boolean {
  const b = ctx.campaigns.get(campaignId)?.bidding;
  return b === "MANUAL_CPC" || b === "ENHANCED_CPC";
}

export const STRONG = 0.95;
export const LIKELY = 0.9;
