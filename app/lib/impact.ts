import { formatMoney } from "./format";

// The measured effect of an applied change (issue 33, ADR 027): the record the
// server computes (app/server/impact/) and the screens, the API and the
// assistant show. Shared with the browser, so types and formatting only.

export type ImpactVerdict = "too_early" | "no_effect" | "effect" | "not_measurable";
export type ImpactLevel = "campaign" | "ad_group" | "keyword";
/** The daily figures measured; cpa and roas are derived from them. */
export type ImpactMetric = "cost" | "clicks" | "conversions" | "value" | "cpa" | "roas";

/** The post-periods measured after a change, in days. */
export const POST_PERIODS = [7, 14, 30] as const;
export type PostPeriod = (typeof POST_PERIODS)[number];

export interface MetricEffect {
  metric: ImpactMetric;
  /** The treated entities' daily mean before the change, after it, and after it had they moved as the control group did. */
  before: number;
  after: number;
  expected: number;
  /** after ÷ expected − 1; null when there is nothing to compare (no conversions before, say). */
  relative: number | null;
  /** The 90 % interval of `relative` (bootstrap over days). */
  interval: [number, number] | null;
  /** (after − expected) over 30 days: money for cost and value, a count for clicks and conversions; null for cpa and roas. */
  monthly: number | null;
  monthlyInterval: [number, number] | null;
  /** What a plain before/after comparison says (after ÷ before − 1): shown beside the measured effect, never used for the verdict. */
  naive: number | null;
  /** The interval lies wholly on one side of zero. */
  significant: boolean;
}

export interface PeriodEffect {
  days: PostPeriod;
  from: string;
  to: string;
  verdict: "no_effect" | "effect";
  metrics: MetricEffect[];
}

export interface ImpactEntity {
  id: string;
  name: string;
}

export interface ImpactRecord {
  /** "cs:<change set id>" or "ext:<imported outside change id>". */
  subject: string;
  customerId: string;
  currencyCode: string;
  verdict: ImpactVerdict;
  /** One line: "cost −$312 a month (−28 %, 90 % interval −35 % to −19 %); conversions unchanged", "Too early: …". */
  headline: string;
  /** Why it is too early or cannot be measured; null otherwise. */
  reason: string | null;
  /** The first and last change day measured (account time zone). */
  changeDay: string;
  lastChangeDay: string;
  level: ImpactLevel | null;
  treated: ImpactEntity[];
  control: {
    /** Comparable untouched entities used, and how they were chosen. */
    count: number;
    eligible: number;
    rule: string;
    names: string[];
  };
  /** Other changes on the same entities in the window: measured together with this one. */
  together: Array<{ subject: string; title: string; day: string; changeSetId: string | null }>;
  pre: { from: string; to: string; days: number } | null;
  /** The measured post-periods (7, 14, 30 days), longest last; the verdict is the longest's. */
  periods: PeriodEffect[];
  /** When the next post-period will have mature data (YYYY-MM-DD), if one is still to come. */
  nextMeasureOn: string | null;
  /** Daily cost of the treated entities and of the control group, pre-period to the end of the last post-period; the chart. */
  series: Array<{ date: string; treated: number; control: number }>;
  method: { preDays: number; lagDays: number; resamples: number; confidence: number; seed: number };
  dataTo: string | null;
  computedAt: string;
}

/** The Dashboard's AI Optimizations card (impact/service.server.ts measuredMoneyThisMonth). */
export interface MeasuredMoney {
  /** Account currency, this month: cost the measured effects took off (negative when they added cost). */
  saved: number;
  /** Conversion value they added. */
  earned: number;
  /** Change sets from recommendations and the assistant applied this month. */
  applied: number;
  /** Of the changes whose measured days fall in this month, how many moved money measurably. */
  measured: number;
}

/** The score page's calibration table: the engine's estimate against the measured effect, per rule type and kind of impact. */
export interface CalibrationRow {
  type: string;
  /** What the estimate is in: money saved, conversions gained, conversion value gained (per month). */
  kind: "cost_saved" | "conversions_gained" | "value_gained";
  applied: number;
  /** Of those, measured (at least one post-period); the rest are too early or not measurable. */
  measured: number;
  /** Sums per month over the measured ones: the engine's estimates, and the measured effects on the same metric. */
  estimated: number;
  actual: number;
  /** actual ÷ estimated; null without an estimate. Below 1: the estimates run hot. */
  ratio: number | null;
}

/** The longest measured post-period, or null. */
export function verdictPeriod(record: Pick<ImpactRecord, "periods">): PeriodEffect | null {
  return record.periods.length ? record.periods[record.periods.length - 1] : null;
}

export const VERDICT_LABEL: Record<ImpactVerdict, string> = {
  too_early: "Too early",
  no_effect: "No measurable effect",
  effect: "Measured effect",
  not_measurable: "Not measurable",
};

export const METRIC_LABEL: Record<ImpactMetric, string> = {
  cost: "Cost",
  clicks: "Clicks",
  conversions: "Conversions",
  value: "Conversion value",
  cpa: "Cost per conversion",
  roas: "ROAS",
};

/** "−28 %", "+4 %": a signed whole percent with a real minus sign. */
export function signedPercent(ratio: number): string {
  const p = Math.round(ratio * 100);
  return `${p < 0 ? "−" : p > 0 ? "+" : "±"}${Math.abs(p)} %`;
}

/** Whole currency units with a real minus sign ("−$312"); `sign: "always"` adds "+" to gains ("+$312"). */
export function wholeMoney(units: number, currencyCode: string, sign: "always" | "negative" = "negative"): string {
  const rounded = Math.round(units);
  const text = formatMoney(Math.abs(rounded) * 1_000_000, currencyCode, { wholeUnits: true });
  return `${rounded < 0 ? "−" : sign === "always" ? "+" : ""}${text}`;
}
