import type { ImpactMetric, MetricEffect } from "~/lib/impact";

/**
 * Difference-in-differences on daily figures, with a bootstrap interval over
 * days (ADR 027). Pure: the same days and seed give the same numbers.
 *
 * The treated entities' figures after the change are compared with what they
 * would have been had they moved as the control group did:
 *   expected after = treated before × (control after ÷ control before)
 * so a rise the whole account shares (a season, a holiday) is not credited to
 * the change. The comparison is proportional (a difference of logs), because
 * seasons scale every campaign by a factor rather than by the same amount.
 *
 * The interval resamples whole days with replacement, separately before and
 * after, each day keeping its treated and control figures together, so the
 * day-to-day shocks both groups share cancel in every resample as they do in
 * the estimate.
 */

/** Figures measured per day, in this order. */
export const DAILY_METRICS = ["cost", "clicks", "conversions", "value"] as const;
export type DailyFigures = [cost: number, clicks: number, conversions: number, value: number];

export interface Day {
  date: string;
  treated: DailyFigures;
  control: DailyFigures;
}

export interface MeasureOptions {
  seed: number;
  resamples: number;
  /** 0.9 for a 90 % interval. */
  confidence: number;
  /** The account records conversion value: ROAS is derived, else cost per conversion. */
  valueTracked: boolean;
}

/** A repeatable stream in [0, 1) (mulberry32): the same seed, the same interval, every time. */
export function seededStream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a text (FNV-1a): each change's interval is reproducible on its own. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Sums {
  t0: number[];
  c0: number[];
  t1: number[];
  c1: number[];
  n0: number;
  n1: number;
}

function sums(pre: Day[], post: Day[], preIdx: ArrayLike<number>, postIdx: ArrayLike<number>): Sums {
  const s: Sums = { t0: [0, 0, 0, 0], c0: [0, 0, 0, 0], t1: [0, 0, 0, 0], c1: [0, 0, 0, 0], n0: preIdx.length, n1: postIdx.length };
  for (let i = 0; i < preIdx.length; i++) {
    const d = pre[preIdx[i]];
    for (let m = 0; m < 4; m++) {
      s.t0[m] += d.treated[m];
      s.c0[m] += d.control[m];
    }
  }
  for (let i = 0; i < postIdx.length; i++) {
    const d = post[postIdx[i]];
    for (let m = 0; m < 4; m++) {
      s.t1[m] += d.treated[m];
      s.c1[m] += d.control[m];
    }
  }
  return s;
}

interface Point {
  before: number;
  after: number;
  expected: number;
  relative: number | null;
  monthly: number | null;
}

/** Daily means and the counterfactual of one measured metric. */
function point(s: Sums, m: number): Point {
  const before = s.t0[m] / s.n0;
  const after = s.t1[m] / s.n1;
  const controlBefore = s.c0[m] / s.n0;
  const controlAfter = s.c1[m] / s.n1;
  if (controlBefore <= 0 || controlAfter <= 0) return { before, after, expected: before, relative: null, monthly: null };
  // Nothing before (a paused campaign enabled): what came after is all the change's, and no percentage.
  if (before <= 0) return { before, after, expected: 0, relative: null, monthly: after * 30 };
  const expected = before * (controlAfter / controlBefore);
  return { before, after, expected, relative: after / expected - 1, monthly: (after - expected) * 30 };
}

/** A ratio of two metrics (cost per conversion, ROAS), actual against the counterfactual of both. */
function ratioPoint(num: Point, den: Point): Point {
  const ratio = (n: number, d: number) => (d > 0 ? n / d : 0);
  const before = ratio(num.before, den.before);
  const after = ratio(num.after, den.after);
  const expected = ratio(num.expected, den.expected);
  const ok = before > 0 && den.after > 0 && expected > 0 && num.relative !== null && den.relative !== null;
  return { before, after, expected, relative: ok ? after / expected - 1 : null, monthly: null };
}

function pointsOf(s: Sums): Record<ImpactMetric, Point> {
  const [cost, clicks, conversions, value] = DAILY_METRICS.map((_, m) => point(s, m));
  return { cost, clicks, conversions, value, cpa: ratioPoint(cost, conversions), roas: ratioPoint(value, cost) };
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** At least this share of the resamples must be defined for an interval (a metric with conversions on two days has none). */
const MIN_DEFINED = 0.95;

function interval(values: number[], resamples: number, confidence: number): [number, number] | null {
  if (values.length < resamples * MIN_DEFINED) return null;
  const sorted = values.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return [quantile(sorted, tail), quantile(sorted, 1 - tail)];
}

const excludesZero = (i: [number, number] | null) => i !== null && (i[0] > 0 || i[1] < 0);

/**
 * The effect on each metric over one pre-period and one post-period. Which
 * ratio is shown is the account's: ROAS where it records conversion value,
 * cost per conversion otherwise.
 */
export function measure(pre: Day[], post: Day[], opts: MeasureOptions): MetricEffect[] {
  const all = (n: number) => Array.from({ length: n }, (_, i) => i);
  const estimate = pointsOf(sums(pre, post, all(pre.length), all(post.length)));
  const shown: ImpactMetric[] = ["cost", "clicks", "conversions", ...(opts.valueTracked ? (["value", "roas"] as const) : (["cpa"] as const))];
  const draws = new Map<ImpactMetric, { rel: number[]; monthly: number[] }>(shown.map((m) => [m, { rel: [], monthly: [] }]));
  const random = seededStream(opts.seed);
  const preIdx = new Uint16Array(pre.length);
  const postIdx = new Uint16Array(post.length);
  for (let b = 0; b < opts.resamples; b++) {
    for (let i = 0; i < pre.length; i++) preIdx[i] = Math.floor(random() * pre.length);
    for (let i = 0; i < post.length; i++) postIdx[i] = Math.floor(random() * post.length);
    const p = pointsOf(sums(pre, post, preIdx, postIdx));
    for (const m of shown) {
      const d = draws.get(m)!;
      if (p[m].relative !== null) d.rel.push(p[m].relative);
      if (p[m].monthly !== null) d.monthly.push(p[m].monthly);
    }
  }
  return shown.map((m) => {
    const e = estimate[m];
    const d = draws.get(m)!;
    const rel = e.relative === null ? null : interval(d.rel, opts.resamples, opts.confidence);
    const monthly = e.monthly === null ? null : interval(d.monthly, opts.resamples, opts.confidence);
    return {
      metric: m,
      before: e.before,
      after: e.after,
      expected: e.expected,
      relative: e.relative,
      interval: rel,
      monthly: e.monthly,
      monthlyInterval: monthly,
      // A ratio with nothing under it after (no conversions, no cost) has no before/after either.
      naive: e.before > 0 && (e.relative !== null || (m !== "cpa" && m !== "roas")) ? e.after / e.before - 1 : null,
      significant: excludesZero(rel ?? (e.relative === null ? monthly : null)),
    };
  });
}
