import { countOf, formatEnum, formatMoney } from "~/lib/format";
import {
  addDays,
  addTotals,
  EMPTY_TOTALS,
  MIN_AGE_DAYS,
  type AccountData,
  type AdGroupRow,
  type CampaignRow,
  type KeywordRow,
  type NegativeRow,
  type SearchTermRow,
  type Totals,
} from "./data.server";
import { probBelow, ratePosterior } from "./stats.server";
import type { Evidence, Figure, Target } from "./types.server";

// What every rule shares: lookups, the target each campaign is judged
// against, the break-even test, and the safety guards.

export interface Context {
  data: AccountData;
  campaigns: Map<string, CampaignRow>;
  adGroups: Map<string, AdGroupRow>;
  keywordsByAdGroup: Map<string, KeywordRow[]>;
  keywordsByCampaign: Map<string, KeywordRow[]>;
  /** By "adGroupId~criterionId". */
  keywordById: Map<string, KeywordRow>;
  /** Search terms by ad group id and by campaign id. */
  termsByAdGroup: Map<string, SearchTermRow[]>;
  termsByCampaign: Map<string, SearchTermRow[]>;
  /** Existing negatives by "ad_group:<id>" / "campaign:<id>". */
  negativesByParent: Map<string, NegativeRow[]>;
  account: Totals;
  /** Null when the account has no basis for a target (no conversions and none set). */
  targetOf(campaignId: string): Target | null;
  /** Conversion-based rules are off: the account spends but records no conversions (tracking is likely broken). */
  trackingSuspect: boolean;
  money(units: number): string;
}

/** Conversions the account's other campaigns need before their blend can stand in for a target. */
const MIN_CONVERSIONS_FOR_REFERENCE = 10;

function channelName(channel: string): string {
  return channel === "SEARCH" ? "Search" : formatEnum(channel);
}

const rate = (t: Totals) => (t.clicks > 0 ? t.conversions / t.clicks : 0);
export const cpaOf = (t: Totals) => (t.conversions > 0 ? t.cost / t.conversions : null);
export const roasOf = (t: Totals) => (t.cost > 0 ? t.value / t.cost : null);

export function buildContext(data: AccountData): Context {
  const campaigns = new Map(data.campaigns.map((c) => [c.id, c]));
  const adGroups = new Map(data.adGroups.map((g) => [g.id, g]));
  const keywordsByAdGroup = groupBy(data.keywords, (k) => k.adGroupId);
  const keywordsByCampaign = groupBy(data.keywords, (k) => k.campaignId);
  const termsByAdGroup = groupBy(data.searchTerms, (t) => t.adGroupId);
  const termsByCampaign = groupBy(data.searchTerms, (t) => t.campaignId);
  const negativesByParent = groupBy(data.negatives, (n) => `${n.level}:${n.parentId}`);
  let account = EMPTY_TOTALS;
  let last30 = EMPTY_TOTALS;
  for (const c of data.campaigns) {
    account = addTotals(account, c.m.all);
    last30 = addTotals(last30, c.m.last30);
  }
  const money = (units: number) => formatMoney(Math.round(units * 1e6), data.currencyCode);

  const userCpa = data.accountTargets.cpaMicros !== null ? data.accountTargets.cpaMicros / 1e6 : null;
  const userRoas = data.accountTargets.roas;
  // Without a target someone set, a campaign is never measured against its own average (by
  // construction half its ad groups would be "off target" and it could never beat it): it is
  // compared with the account's other campaigns of its channel (issue 28 point 2).
  const references = new Map<string, Target | null>();
  const referenceOf = (c: CampaignRow): Target | null => {
    let hit = references.get(c.id);
    if (hit !== undefined) return hit;
    const others = data.campaigns.filter((o) => o.id !== c.id && o.channel === c.channel);
    const t = others.reduce((sum, o) => addTotals(sum, o.m.all), EMPTY_TOTALS);
    hit = null;
    if (t.conversions >= MIN_CONVERSIONS_FOR_REFERENCE) {
      const contributing = others.filter((o) => o.m.all.conversions > 0).length;
      const basis = `${countOf(contributing, `other ${channelName(c.channel)} campaign`)}, ${countOf(Math.round(t.conversions), "conversion")} in the judged window`;
      // A value goal when the campaign and the others both record value; otherwise cost per conversion.
      const valued = t.value > 0 && c.m.all.value > 0 && c.bidding.includes("VALUE");
      hit = valued
        ? { metric: "roas", value: t.value / t.cost, source: "account reference", basis }
        : { metric: "cpa", value: t.cost / t.conversions, source: "account reference", basis };
    }
    references.set(c.id, hit);
    return hit;
  };
  const blendedCpa = cpaOf(account);
  const targetOf = (campaignId: string): Target | null => {
    const c = campaigns.get(campaignId);
    if (c?.targetRoas) return { metric: "roas", value: c.targetRoas, source: "bidding strategy" };
    if (c?.targetCpaMicros) return { metric: "cpa", value: c.targetCpaMicros / 1e6, source: "bidding strategy" };
    if (userRoas) return { metric: "roas", value: userRoas, source: "account setting" };
    if (userCpa) return { metric: "cpa", value: userCpa, source: "account setting" };
    const reference = c ? referenceOf(c) : null;
    if (reference) return reference;
    // Nothing to compare with (one campaign of its channel): the account's blend. Only rules that
    // judge spend without any conversion use it; relative moves (bids) need better (bid-adjustment).
    if (blendedCpa) return { metric: "cpa", value: blendedCpa, source: "assumed target" };
    return null;
  };
  return {
    data,
    campaigns,
    adGroups,
    keywordsByAdGroup,
    keywordsByCampaign,
    keywordById: new Map(data.keywords.map((k) => [`${k.adGroupId}~${k.criterionId}`, k])),
    termsByAdGroup,
    termsByCampaign,
    negativesByParent,
    account,
    targetOf,
    trackingSuspect: last30.cost > 0 && last30.conversions === 0,
    money,
  };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function targetLabel(t: Target, money: (n: number) => string): string {
  const what = t.metric === "cpa" ? `target CPA ${money(t.value)}` : `target ROAS ${Math.round(t.value * 100)} %`;
  if (t.source === "bidding strategy") return `${what} (from the campaign's bidding strategy)`;
  if (t.source === "account setting") return `${what} (set in Settings for this account)`;
  const hint = "no target is set: setting one in Settings sharpens this advice";
  if (t.source === "account reference")
    return `${t.metric === "cpa" ? `account reference CPA ${money(t.value)}` : `account reference ROAS ${Math.round(t.value * 100)} %`} (the blended figure of ${t.basis ?? "the account's other campaigns"}; ${hint})`;
  return `${what} (assumed target: the account's blended cost per conversion, as it has no other campaign to compare with; ${hint})`;
}

/** The rate of the nearest parent with clicks: ad group, else campaign, else account. */
export function parentRate(ctx: Context, campaignId: string, adGroupId?: string): number {
  const g = adGroupId ? ctx.adGroups.get(adGroupId) : undefined;
  if (g && g.m.all.clicks >= 100 && g.m.all.conversions > 0) return rate(g.m.all);
  const c = ctx.campaigns.get(campaignId);
  if (c && c.m.all.clicks >= 100 && c.m.all.conversions > 0) return rate(c.m.all);
  return rate(ctx.account);
}

/** Average order value of the campaign (else the account), for value goals. */
function orderValue(ctx: Context, campaignId: string): number | null {
  const c = ctx.campaigns.get(campaignId);
  if (c && c.m.all.conversions >= 5 && c.m.all.value > 0) return c.m.all.value / c.m.all.conversions;
  return ctx.account.conversions > 0 && ctx.account.value > 0 ? ctx.account.value / ctx.account.conversions : null;
}

/**
 * Break-even conversion rate at the entity's own CPC (research §0.3):
 * CPC / target CPA, or CPC · target ROAS / AOV for value goals.
 */
export function breakEvenRate(ctx: Context, t: Totals, target: Target, campaignId: string): number | null {
  if (t.clicks <= 0) return null;
  const cpc = t.cost / t.clicks;
  if (target.metric === "cpa") return Math.min(1, cpc / target.value);
  const aov = orderValue(ctx, campaignId);
  return aov ? Math.min(1, (cpc * target.value) / aov) : null;
}

export interface RateTest {
  /** P(true rate < break-even): confidence the entity misses target. */
  qBelow: number;
  breakEven: number;
  posteriorRate: number;
  prior: number;
}

export function testAgainstTarget(ctx: Context, t: Totals, target: Target, campaignId: string, adGroupId?: string): RateTest | null {
  const breakEven = breakEvenRate(ctx, t, target, campaignId);
  if (breakEven === null) return null;
  const prior = parentRate(ctx, campaignId, adGroupId);
  const post = ratePosterior(t.clicks, t.conversions, prior);
  return { qBelow: probBelow(post, breakEven), breakEven, posteriorRate: post.mean, prior };
}

/** Whether an entity's results meet the target: the engine never proposes pausing or excluding it. */
export function meetsTarget(t: Totals, target: Target): boolean {
  if (t.conversions <= 0) return false;
  if (target.metric === "cpa") return t.cost / t.conversions <= target.value;
  return t.cost > 0 && t.value / t.cost >= target.value;
}

// Asked for every keyword and term: the date arithmetic once per run, not per entity (it showed in the profile).
const youngLimits = new WeakMap<object, string>();
// An account whose conversions visibly arrive late (lag.server.ts) needs MIN_AGE_DAYS of clicks older
// than its lag: a keyword is never judged before its conversions can have arrived.
function youngLimit(period: Context["data"]["period"], lagDays: number): string {
  let limit = youngLimits.get(period);
  if (limit === undefined) {
    limit = addDays(period.dataTo, -(MIN_AGE_DAYS - 1 + lagDays));
    youngLimits.set(period, limit);
  }
  return limit;
}

/** Younger than MIN_AGE_DAYS (first traffic, or the campaign's start) at the end of the data: too young to judge. */
export function isYoung(ctx: Context, firstDate: string | null, campaignId: string): boolean {
  const limit = youngLimit(ctx.data.period, ctx.data.conversionLagDays);
  const start = ctx.campaigns.get(campaignId)?.startDate ?? null;
  if (start && start > limit) return true;
  return firstDate !== null && firstDate > limit && firstDate > ctx.data.period.dataFrom;
}

/** Serving: enabled itself and in an enabled ad group and campaign of a Search campaign. */
export function isLive(ctx: Context, campaignId: string, adGroupId?: string): boolean {
  const c = ctx.campaigns.get(campaignId);
  if (!c || c.status !== "ENABLED" || c.channel !== "SEARCH") return false;
  if (adGroupId === undefined) return true;
  const g = ctx.adGroups.get(adGroupId);
  return !!g && g.status === "ENABLED";
}

export function evidenceBase(ctx: Context, from: string, to: string): Pick<Evidence, "dateRange" | "syncedAt"> {
  return { dateRange: { from, to }, syncedAt: ctx.data.period.syncedAt };
}

export function judgedWindow(ctx: Context, w: "w30" | "w60" | "all"): { from: string; to: string } {
  const p = ctx.data.period;
  return { from: w === "w30" ? p.from30 : w === "w60" ? p.from60 : p.dataFrom, to: p.evalTo };
}

export function totalsFigures(t: Totals, prefix = ""): Figure[] {
  return [
    { name: `${prefix}impressions`, label: "Impressions", value: t.impressions, unit: "count" },
    { name: `${prefix}clicks`, label: "Clicks", value: t.clicks, unit: "count" },
    { name: `${prefix}cost`, label: "Cost", value: round2(t.cost), unit: "money" },
    { name: `${prefix}conversions`, label: "Conversions", value: round2(t.conversions), unit: "count" },
    { name: `${prefix}conversionsValue`, label: "Conversion value", value: round2(t.value), unit: "money" },
  ];
}

export const round2 = (n: number) => Math.round(n * 100) / 100;
export const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
/** Money in the change-set API's units: at most 2 decimals, at least 0.01. */
export const apiMoney = (units: number) => Math.max(0.01, Math.round(units * 100) / 100);
