import { addDays, datesInRange, rangeLength } from "~/lib/dates";
import { formatDate } from "~/lib/format";
import {
  METRIC_LABEL,
  POST_PERIODS,
  signedPercent,
  wholeMoney,
  type ImpactEntity,
  type ImpactLevel,
  type ImpactRecord,
  type MetricEffect,
  type PeriodEffect,
} from "~/lib/impact";
import type { DB } from "../db/db.server";
import { LAG_DAYS } from "../optimizer/data.server";
import { activeUnits, groupDaily } from "./daily.server";
import { measure, seedOf, type Day, type DailyFigures } from "./did.server";
import { accountTouches, LEVEL_RANK, liftUnit, unitsOverlap, type Touch, type Unit } from "./touches.server";

/**
 * One change's impact record (ADR 027): its treated entities against a control
 * group of comparable untouched entities of the same account, channel and
 * level, difference-in-differences over a 28-day pre-period and post-periods
 * of 7, 14 and 30 days that leave out the change day and the account's
 * conversion-lag days (the last LAG_DAYS days of data, whose conversions are
 * still coming in), with a 90 % bootstrap interval over days.
 */

export const PRE_DAYS = 28;
/** A shorter pre-period than this (a change early in the synced window) is not measured. */
export const MIN_PRE_DAYS = 14;
/** The control group: at most this many entities, the nearest in pre-period spend. */
export const MAX_CONTROLS = 100;
export const RESAMPLES = 2000;
export const CONFIDENCE = 0.9;
/** Raised when the method changes: every stored record is then stale. */
export const METHOD_VERSION = 1;

export interface AccountView {
  customerId: string;
  timeZone: string;
  currencyCode: string;
  dataFrom: string | null;
  dataTo: string | null;
  /** Keyword figures are complete (the first sync's detail import is done). */
  detailReady: boolean;
  dataVersion: number;
  valueTracked: boolean;
  touches: Touch[];
  campaigns: Map<string, { name: string; channel: string; budget: string | null }>;
  adGroups: Map<string, { name: string; campaignId: string }>;
}

export async function loadAccountView(db: DB, customerId: string): Promise<AccountView | null> {
  const account = await db.selectFrom("ads_accounts").select(["time_zone", "currency_code"]).where("customer_id", "=", customerId).executeTakeFirst();
  if (!account) return null;
  const [state, campaigns, adGroups, value, touches] = await Promise.all([
    db
      .selectFrom("ads_sync_state")
      .select(["data_from", "data_to", "detail_status", "data_version", "last_success_at"])
      .where("customer_id", "=", customerId)
      .executeTakeFirst(),
    db.selectFrom("ads_campaigns").select(["id", "name", "advertising_channel_type", "budget_resource_name"]).where("customer_id", "=", customerId).execute(),
    db.selectFrom("ads_ad_groups").select(["id", "name", "campaign_id"]).where("customer_id", "=", customerId).execute(),
    db.selectFrom("ads_campaign_daily").select("date").where("customer_id", "=", customerId).where("conversions_value", ">", 0).limit(1).executeTakeFirst(),
    accountTouches(db, customerId, account.time_zone),
  ]);
  return {
    customerId,
    timeZone: account.time_zone,
    currencyCode: account.currency_code,
    dataFrom: state?.last_success_at ? state.data_from : null,
    dataTo: state?.last_success_at ? state.data_to : null,
    detailReady: state?.detail_status !== "running" && state?.detail_status !== "failed",
    dataVersion: state?.data_version ?? 0,
    valueTracked: value !== undefined,
    touches,
    campaigns: new Map(campaigns.map((c) => [c.id, { name: c.name, channel: c.advertising_channel_type, budget: c.budget_resource_name }])),
    adGroups: new Map(adGroups.map((g) => [g.id, { name: g.name, campaignId: g.campaign_id }])),
  };
}

const LEVEL_NOUN: Record<ImpactLevel, string> = { campaign: "campaign", ad_group: "ad group", keyword: "keyword" };
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The other changes on the same entities close enough in time to mix with this one's figures (reverts of it excluded). */
function overlapping(view: AccountView, subject: Touch): Touch[] {
  return view.touches.filter(
    (t) =>
      t.subject !== subject.subject &&
      !(subject.changeSetId && t.revertOf === subject.changeSetId) &&
      t.day >= addDays(subject.day, -PRE_DAYS) &&
      t.day <= addDays(subject.day, POST_PERIODS[POST_PERIODS.length - 1]) &&
      t.units.some((u) => subject.units.some((s) => unitsOverlap(u, s))),
  );
}

/** The day before this change set was undone, if it was: its post-periods end there. */
function revertCut(view: AccountView, subject: Touch): string | null {
  if (!subject.changeSetId) return null;
  const revert = view.touches.find((t) => t.revertOf === subject.changeSetId && t.day >= subject.day);
  return revert ? addDays(revert.day, -1) : null;
}

async function namesOf(db: DB, view: AccountView, units: Unit[]): Promise<ImpactEntity[]> {
  const keywordText = new Map<string, string>();
  const keywords = units.filter((u) => u.level === "keyword");
  for (let i = 0; i < keywords.length; i += 400) {
    const chunk = keywords.slice(i, i + 400);
    const rows = await db
      .selectFrom("ads_keywords")
      .select(["ad_group_id", "criterion_id", "text", "match_type"])
      .where("customer_id", "=", view.customerId)
      .where("criterion_id", "in", [...new Set(chunk.map((u) => u.key.split("~")[1]))])
      .execute();
    for (const r of rows) keywordText.set(`${r.ad_group_id}~${r.criterion_id}`, `“${r.text}” (${r.match_type.toLowerCase()})`);
  }
  return units.map((u) => {
    const campaign = view.campaigns.get(u.campaignId)?.name ?? `campaign ${u.campaignId}`;
    if (u.level === "campaign") return { id: u.key, name: campaign };
    const adGroup = view.adGroups.get(u.adGroupId!)?.name ?? `ad group ${u.adGroupId}`;
    if (u.level === "ad_group") return { id: u.key, name: `${adGroup} (${campaign})` };
    return { id: u.key, name: `${keywordText.get(u.key) ?? `keyword ${u.key}`} in ${adGroup}` };
  });
}

interface Controls {
  units: Unit[];
  eligible: number;
  rule: string;
}

/**
 * Comparable untouched entities: the same level, in campaigns of the treated
 * ones' channel, with clicks in the pre-period, not touched by any change
 * (here or outside) from the pre-period's start to the last post day, and not
 * sharing the treated ones' budget or parent (whose traffic a change moves
 * too); the MAX_CONTROLS nearest in pre-period spend.
 */
async function chooseControls(db: DB, view: AccountView, treated: Unit[], pre: { from: string; to: string }, windowEnd: string): Promise<Controls> {
  const level = treated[0].level;
  const channels = new Set(treated.map((u) => view.campaigns.get(u.campaignId)?.channel));
  const budgets = new Set(treated.map((u) => view.campaigns.get(u.campaignId)?.budget).filter(Boolean));
  const parents = new Set(treated.map((u) => (level === "keyword" ? u.adGroupId : u.campaignId)));
  const touched = view.touches.filter((t) => t.day >= pre.from && t.day <= windowEnd).flatMap((t) => t.units);
  const active = await activeUnits(db, view.customerId, level, pre);
  const treatedKeys = new Set(treated.map((u) => u.key));
  const eligible = active.filter(({ unit }) => {
    const campaign = view.campaigns.get(unit.campaignId);
    if (!campaign || !channels.has(campaign.channel) || treatedKeys.has(unit.key)) return false;
    if (level === "campaign" ? campaign.budget !== null && budgets.has(campaign.budget) : parents.has(level === "keyword" ? unit.adGroupId : unit.campaignId))
      return false;
    return !touched.some((t) => unitsOverlap(t, unit));
  });
  const treatedActivity = active.filter((a) => treatedKeys.has(a.unit.key));
  const typical = treatedActivity.length ? treatedActivity.reduce((s, a) => s + a.cost, 0) / treatedActivity.length : 0;
  const distance = (cost: number) => (typical > 0 && cost > 0 ? Math.abs(Math.log(cost / typical)) : Number.POSITIVE_INFINITY);
  const chosen = [...eligible].sort((a, b) => distance(a.cost) - distance(b.cost) || (a.unit.key < b.unit.key ? -1 : 1)).slice(0, MAX_CONTROLS);
  const channelText = [...channels].map((c) => (c ?? "unknown").toLowerCase().replace(/_/g, " ")).join(", ");
  const noun = LEVEL_NOUN[level];
  return {
    units: chosen.map((c) => c.unit),
    eligible: eligible.length,
    rule:
      `${level === "campaign" ? `${channelText.charAt(0).toUpperCase()}${channelText.slice(1)} campaigns` : `${noun.charAt(0).toUpperCase()}${noun.slice(1)}s in ${channelText} campaigns`} of this account with clicks in the 28 days before, ` +
      `that no change touched (here or in Google Ads) from then until the last day measured` +
      (level === "campaign" ? ", not sharing the budget" : level === "ad_group" ? ", outside the changed campaigns" : ", outside the changed ad groups") +
      (eligible.length > MAX_CONTROLS ? `; the ${MAX_CONTROLS} nearest in spend before the change` : ""),
  };
}

function countText(n: number): string {
  const r = Math.round(Math.abs(n) * 10) / 10;
  return `${n < 0 ? "−" : "+"}${r.toLocaleString("en-US")}`;
}

/** A metric's name inside a sentence: "cost", "conversion value", "ROAS". */
const inSentence = (m: MetricEffect["metric"]) => (m === "roas" ? "ROAS" : METRIC_LABEL[m].toLowerCase());

/** "cost −$312 a month (−28 %, 90 % interval −35 % to −19 %)", "ROAS +30 % (90 % interval +19 % to +40 %)". */
export function effectText(e: MetricEffect, currency: string, confidence = CONFIDENCE): string {
  const amount =
    e.monthly === null ? null : `${e.metric === "cost" || e.metric === "value" ? wholeMoney(e.monthly, currency, "always") : countText(e.monthly)} a month`;
  const interval = e.interval ? `${Math.round(confidence * 100)} % interval ${signedPercent(e.interval[0])} to ${signedPercent(e.interval[1])}` : null;
  if (e.relative === null) return `${inSentence(e.metric)} ${amount ?? "—"}`;
  const inBrackets = amount ? [signedPercent(e.relative), interval] : [interval];
  const head = amount ?? signedPercent(e.relative);
  const bracket = inBrackets.filter(Boolean).join(", ");
  return `${inSentence(e.metric)} ${head}${bracket ? ` (${bracket})` : ""}`;
}

/** The metrics a verdict turns on: money and conversions; clicks and the ratio are reported, not judged. */
export function primaryMetrics(valueTracked: boolean): MetricEffect["metric"][] {
  return valueTracked ? ["cost", "conversions", "value"] : ["cost", "conversions"];
}

function periodVerdict(metrics: MetricEffect[], valueTracked: boolean): "effect" | "no_effect" {
  const primary = primaryMetrics(valueTracked);
  return metrics.some((m) => primary.includes(m.metric) && m.significant) ? "effect" : "no_effect";
}

function headlineOf(period: PeriodEffect, valueTracked: boolean, currency: string): string {
  const primary = primaryMetrics(valueTracked);
  const over = `over ${period.days} days`;
  const byMetric = new Map(period.metrics.map((m) => [m.metric, m]));
  if (period.verdict === "no_effect") {
    const spans = primary.flatMap((m) => (byMetric.get(m)?.relative != null ? [effectText(byMetric.get(m)!, currency)] : []));
    return `No measurable effect ${over}${spans.length ? `: ${spans.join("; ")}` : ""}`;
  }
  const parts = primary.flatMap((m) => {
    const e = byMetric.get(m);
    if (!e) return [];
    return [e.significant ? effectText(e, currency) : `${inSentence(m)} unchanged`];
  });
  const ratio = period.metrics.find((m) => (m.metric === "cpa" || m.metric === "roas") && m.significant);
  if (ratio) parts.push(effectText(ratio, currency));
  return `Over ${period.days} days: ${parts.join("; ")}`;
}

type Draft = Omit<ImpactRecord, "computedAt">;

/** Computes the record of one change (a touch of view.touches). Reads the synced tables; writes nothing. */
export async function computeRecord(db: DB, view: AccountView, subject: Touch): Promise<Draft> {
  const together = overlapping(view, subject);
  const group = [subject, ...together];
  const firstDay = group.reduce((d, t) => (t.day < d ? t.day : d), subject.day);
  const lastDay = group.reduce((d, t) => (t.day > d ? t.day : d), subject.day);
  const base: Draft = {
    subject: subject.subject,
    customerId: view.customerId,
    currencyCode: view.currencyCode,
    verdict: "not_measurable",
    headline: "",
    reason: null,
    changeDay: firstDay,
    lastChangeDay: lastDay,
    level: null,
    treated: [],
    control: { count: 0, eligible: 0, rule: "", names: [] },
    together: together.map((t) => ({ subject: t.subject, title: t.title, day: t.day, changeSetId: t.changeSetId })),
    pre: null,
    periods: [],
    nextMeasureOn: null,
    series: [],
    // Changes measured together draw the same resamples: one record, whichever of them is asked about.
    method: {
      preDays: PRE_DAYS,
      lagDays: LAG_DAYS,
      resamples: RESAMPLES,
      confidence: CONFIDENCE,
      seed: seedOf(
        group
          .map((t) => t.subject)
          .sort()
          .join(","),
      ),
    },
    dataTo: view.dataTo,
  };
  const notMeasurable = (reason: string): Draft => ({ ...base, verdict: "not_measurable", headline: `Not measurable: ${reason}`, reason });

  const units = group.flatMap((t) => t.units);
  if (units.length === 0) return notMeasurable("the entities it changed are not in the synced copy of the account.");
  const level = units.reduce<ImpactLevel>((l, u) => (LEVEL_RANK[u.level] > LEVEL_RANK[l] ? u.level : l), "keyword");
  const treated = [...new Map(units.map((u) => liftUnit(u, level)).map((u) => [u.key, u])).values()];
  base.level = level;
  base.treated = await namesOf(db, view, treated);
  if (!view.dataFrom || !view.dataTo) return notMeasurable("the account's figures have not been synced yet.");
  if (level === "keyword" && !view.detailReady)
    return notMeasurable("keyword figures are still importing (or their import failed); it is measured after the next sync.");

  const pre = { from: addDays(firstDay, -PRE_DAYS) < view.dataFrom ? view.dataFrom : addDays(firstDay, -PRE_DAYS), to: addDays(firstDay, -1) };
  const preDays = pre.to >= pre.from ? rangeLength(pre) : 0;
  if (preDays < MIN_PRE_DAYS)
    return notMeasurable(`fewer than ${MIN_PRE_DAYS} days of figures before the change (the synced figures start ${formatDate(view.dataFrom)}).`);
  base.pre = { ...pre, days: preDays };

  const mature = addDays(view.dataTo, -LAG_DAYS);
  const cut = revertCut(view, subject);
  const lastUsable = cut && cut < mature ? cut : mature;
  const periods = POST_PERIODS.filter((n) => addDays(lastDay, n) <= lastUsable);
  const nextPeriod = POST_PERIODS.find((n) => addDays(lastDay, n) > lastUsable);
  base.nextMeasureOn = nextPeriod !== undefined && !(cut && cut < addDays(lastDay, nextPeriod)) ? addDays(lastDay, nextPeriod + LAG_DAYS + 1) : null;
  if (periods.length === 0) {
    if (cut && cut < mature) return notMeasurable(`it was undone after ${rangeLength({ from: addDays(lastDay, 1), to: cut }) || 0} days, too few to measure.`);
    const reason = `fewer than ${POST_PERIODS[0]} days of complete figures since the change (the change day and the last ${LAG_DAYS} days, whose conversions are still coming in, are left out). It is measured from ${formatDate(base.nextMeasureOn!)}.`;
    return { ...base, verdict: "too_early", headline: `Too early: ${reason}`, reason };
  }
  const longest = periods[periods.length - 1];
  const windowEnd = addDays(lastDay, longest);

  const controls = await chooseControls(db, view, treated, pre, windowEnd);
  base.control = {
    count: controls.units.length,
    eligible: controls.eligible,
    rule: controls.rule,
    names: (await namesOf(db, view, controls.units.slice(0, 10))).map((e) => e.name),
  };
  if (controls.units.length === 0)
    return notMeasurable(
      `no comparable ${LEVEL_NOUN[level]} in the account was left untouched to compare with (${controls.rule.charAt(0).toLowerCase()}${controls.rule.slice(1)}).`,
    );

  const range = { from: pre.from, to: windowEnd };
  const [treatedDaily, controlDaily] = await Promise.all([
    groupDaily(db, view.customerId, treated, range),
    groupDaily(db, view.customerId, controls.units, range),
  ]);
  const zero: DailyFigures = [0, 0, 0, 0];
  const days: Day[] = datesInRange(range).map((date) => ({ date, treated: treatedDaily.get(date) ?? zero, control: controlDaily.get(date) ?? zero }));
  const preSeries = days.filter((d) => d.date <= pre.to);
  if (preSeries.every((d) => d.treated[1] === 0))
    return notMeasurable(`the changed ${plural(treated.length, LEVEL_NOUN[level])} had no clicks in the ${preDays} days before.`);

  const valueTracked = view.valueTracked;
  base.periods = periods.map((n) => {
    const post = days.filter((d) => d.date > lastDay && d.date <= addDays(lastDay, n));
    const metrics = measure(preSeries, post, { seed: base.method.seed + n, resamples: RESAMPLES, confidence: CONFIDENCE, valueTracked });
    return { days: n, from: addDays(lastDay, 1), to: addDays(lastDay, n), verdict: periodVerdict(metrics, valueTracked), metrics };
  });
  base.series = days.map((d) => ({ date: d.date, treated: round2(d.treated[0]), control: round2(d.control[0]) }));
  const verdictPeriod = base.periods[base.periods.length - 1];
  return { ...base, verdict: verdictPeriod.verdict, headline: headlineOf(verdictPeriod, valueTracked, view.currencyCode) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
