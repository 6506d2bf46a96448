// Validates a parsed GAQL query against the catalogue and the FROM resource,
// then runs it over the store: entity filters → fact aggregation (grouped by
// the selected segments) → metric filters → ORDER BY / LIMIT. Result rows are
// materialised to REST JSON lazily, one page at a time.

import { loadCatalogue, resolveField, type ResolvedField } from "../../catalogue/catalogue";
import { GoogleAdsFailureError } from "../contract";
import type { AdsStore } from "../store/store";
import { COST_UNIT_MICROS } from "../store/facts";
import { keywordImpressionShare, reportedImpressionShare, reportedLostImpressionShare } from "../store/impression-share";
import { QUALITY_BUCKET_VALUES } from "../store/columns";
import {
  DAY_OF_WEEK_ENUM,
  MONTH_OF_YEAR_ENUM,
  duringRange,
  formatDay,
  monthIndex,
  monthStart,
  mondayOf,
  quarterStart,
  weekday,
  yearOf,
  type DuringLiteral,
} from "../util/dates";
import { hashUnit } from "../util/prng";
import { RowSplitter } from "../store/split";
import { boundsOf, changeDateTimePredicate, compileCondition, type Predicate } from "./conditions";
import { categoryError, queryError, queryErrorEntry } from "./errors";
import { parseQuery, type Condition, type FieldRef, type Query } from "./parser";
import {
  AccountContext,
  CORE_DATE_SEGMENTS,
  DATE_SEGMENTS,
  IMPRESSION_SHARE_METRICS,
  MODELED_METRICS,
  NETWORK_BY_CHANNEL,
  VIEW_RESOURCES,
  viewFor,
  type FactPart,
  type Getter,
  type ViewDef,
} from "./views";

export interface QueryResult {
  /** Comma-separated camelCase paths of the selected fields, in SELECT order. */
  fieldMask: string;
  /** Rows after LIMIT. */
  rowCount: number;
  /** Rows before LIMIT (searchSettings.returnTotalResultsCount ignores LIMIT). */
  totalCount: number;
  row(i: number): Record<string, unknown>;
  /** Rough work units, reported as queryResourceConsumption. */
  consumption: number;
}

const DEVICES = ["MOBILE", "TABLET", "DESKTOP"] as const;
const NETWORKS = ["SEARCH", "CONTENT", "MIXED"] as const;
const DATE_SEGMENT_SET = new Set<string>(DATE_SEGMENTS);

type Category = "attribute" | "metric" | "segment";

interface FieldUse {
  f: ResolvedField;
  ref: FieldRef;
  category: Category;
}

function category(f: ResolvedField): Category {
  return f.resource === "metrics" ? "metric" : f.resource === "segments" ? "segment" : "attribute";
}

function upperResource(r: string): string {
  return r.toUpperCase();
}

// ---------------------------------------------------------------- accumulators

/** Growable struct-of-arrays for aggregated rows. */
class Rows {
  n = 0;
  private cap = 0;
  ent = new Int32Array(0);
  bucket = new Int32Array(0);
  dev = new Int8Array(0);
  net = new Int8Array(0);
  impr = new Float64Array(0);
  clicks = new Float64Array(0);
  cost = new Float64Array(0);
  conv = new Float64Array(0);
  value = new Float64Array(0);
  elig = new Float64Array(0);
  bl = new Float64Array(0);
  rl = new Float64Array(0);

  /** @param withIS keep eligible/lost-impression columns (only when an impression-share metric is used). */
  constructor(
    capacity: number,
    readonly withIS = true,
  ) {
    this.grow(Math.max(16, capacity));
  }

  private grow(cap: number): void {
    const g = <T extends Int32Array | Int8Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a as never);
      return b;
    };
    this.ent = g(this.ent, (n) => new Int32Array(n));
    this.bucket = g(this.bucket, (n) => new Int32Array(n));
    this.dev = g(this.dev, (n) => new Int8Array(n));
    this.net = g(this.net, (n) => new Int8Array(n));
    this.impr = g(this.impr, (n) => new Float64Array(n));
    this.clicks = g(this.clicks, (n) => new Float64Array(n));
    this.cost = g(this.cost, (n) => new Float64Array(n));
    this.conv = g(this.conv, (n) => new Float64Array(n));
    this.value = g(this.value, (n) => new Float64Array(n));
    if (this.withIS) {
      this.elig = g(this.elig, (n) => new Float64Array(n));
      this.bl = g(this.bl, (n) => new Float64Array(n));
      this.rl = g(this.rl, (n) => new Float64Array(n));
    }
    this.cap = cap;
  }

  add(ent: number, bucket: number, dev: number, net: number): number {
    if (this.n === this.cap) this.grow(this.cap * 2);
    const i = this.n++;
    this.ent[i] = ent;
    this.bucket[i] = bucket;
    this.dev[i] = dev;
    this.net[i] = net;
    return i;
  }
}

// ---------------------------------------------------------------- metrics

type MetricFn = (r: Rows, i: number, ent: number) => number | string | undefined;

const div = (a: number, b: number) => (b > 0 ? a / b : 0);
const costMicros = (r: Rows, i: number) => r.cost[i] * COST_UNIT_MICROS;

function metricFn(name: string, ctx: AccountContext, view: ViewDef): MetricFn | undefined {
  const kw = ctx.acct.keywords;
  const qsOf = (ent: number) => (view.resource === "keyword_view" ? kw.qualityScore[ent] : 0);
  const bucket = (col: Uint8Array) => (ent: number) => (qsOf(ent) > 0 ? QUALITY_BUCKET_VALUES[col[ent]] : undefined);
  switch (name) {
    case "metrics.impressions":
      return (r, i) => r.impr[i];
    case "metrics.clicks":
    case "metrics.interactions":
      return (r, i) => r.clicks[i];
    case "metrics.cost_micros":
      return (r, i) => costMicros(r, i);
    case "metrics.conversions":
    case "metrics.all_conversions":
      return (r, i) => r.conv[i] / 100;
    case "metrics.conversions_value":
    case "metrics.all_conversions_value":
      return (r, i) => r.value[i] / 100;
    case "metrics.ctr":
    case "metrics.interaction_rate":
      return (r, i) => div(r.clicks[i], r.impr[i]);
    case "metrics.average_cpc":
    case "metrics.average_cost":
      return (r, i) => div(costMicros(r, i), r.clicks[i]);
    case "metrics.average_cpm":
      return (r, i) => div(costMicros(r, i) * 1000, r.impr[i]);
    case "metrics.cost_per_conversion":
    case "metrics.cost_per_all_conversions":
      return (r, i) => div(costMicros(r, i), r.conv[i] / 100);
    case "metrics.conversions_from_interactions_rate":
    case "metrics.all_conversions_from_interactions_rate":
      return (r, i) => div(r.conv[i] / 100, r.clicks[i]);
    case "metrics.value_per_conversion":
    case "metrics.value_per_all_conversions":
      return (r, i) => div(r.value[i], r.conv[i]);
    case "metrics.conversions_value_per_cost":
    case "metrics.all_conversions_value_per_cost":
      return (r, i) => div(r.value[i] / 100, costMicros(r, i) / 1e6);
    case "metrics.search_impression_share":
      return (r, i) => (r.elig[i] > 0 ? reportedImpressionShare(1 - (r.bl[i] + r.rl[i]) / r.elig[i]) : undefined);
    case "metrics.search_budget_lost_impression_share":
      return (r, i) => (r.elig[i] > 0 ? reportedLostImpressionShare(r.bl[i] / r.elig[i]) : undefined);
    case "metrics.search_rank_lost_impression_share":
      return (r, i) => (r.elig[i] > 0 ? reportedLostImpressionShare(r.rl[i] / r.elig[i]) : undefined);
    case "metrics.historical_quality_score":
      return (_r, _i, ent) => (qsOf(ent) > 0 ? qsOf(ent) : undefined);
    case "metrics.historical_creative_quality_score": {
      const f = bucket(kw.creative);
      return (_r, _i, ent) => f(ent);
    }
    case "metrics.historical_landing_page_quality_score": {
      const f = bucket(kw.postClick);
      return (_r, _i, ent) => f(ent);
    }
    case "metrics.historical_search_predicted_ctr": {
      const f = bucket(kw.predictedCtr);
      return (_r, _i, ent) => f(ent);
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- segments

interface DaySegment {
  name: string;
  valueOfDay: (day: number) => string | number;
}

function daySegment(name: string): DaySegment {
  switch (name) {
    case "segments.date":
      return { name, valueOfDay: (d) => formatDay(d) };
    case "segments.week":
      return { name, valueOfDay: (d) => formatDay(mondayOf(d)) };
    case "segments.month":
      return { name, valueOfDay: (d) => formatDay(monthStart(d)) };
    case "segments.quarter":
      return { name, valueOfDay: (d) => formatDay(quarterStart(d)) };
    case "segments.year":
      return { name, valueOfDay: (d) => yearOf(d) };
    case "segments.day_of_week":
      return { name, valueOfDay: (d) => DAY_OF_WEEK_ENUM[weekday(d)] };
    case "segments.month_of_year":
      return { name, valueOfDay: (d) => MONTH_OF_YEAR_ENUM[monthIndex(d)] };
    default:
      throw new Error(`not a day segment: ${name}`);
  }
}

// ---------------------------------------------------------------- JSON shaping

function toJson(f: ResolvedField, v: unknown): unknown {
  if (v === undefined || v === null) return undefined;
  switch (f.type) {
    case "int64":
      return Array.isArray(v) ? v.map((x) => String(typeof x === "number" ? Math.round(x) : x)) : String(typeof v === "number" ? Math.round(v) : v);
    case "int32":
      return Array.isArray(v) ? v.map((x) => Math.round(Number(x))) : Math.round(Number(v));
    case "message":
      return JSON.parse(JSON.stringify(v));
    default:
      return Array.isArray(v) ? v.slice() : v;
  }
}

function setPath(target: Record<string, unknown>, parts: readonly string[], value: unknown): void {
  let cur = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i];
    let next = cur[k] as Record<string, unknown> | undefined;
    if (!next) {
      next = {};
      cur[k] = next;
    }
    cur = next;
  }
  cur[parts[parts.length - 1]] = value;
}

// ---------------------------------------------------------------- main entry

export function executeQuery(store: AdsStore, customerId: string, gaql: string): QueryResult {
  const query = parseQuery(gaql);
  const acct = store.account(customerId);
  if (!acct) {
    throw new GoogleAdsFailureError(
      [{ errorCode: { authorizationError: "CUSTOMER_NOT_ENABLED" }, message: `Customer ${customerId} does not exist.` }],
      403,
      "PERMISSION_DENIED",
      "The caller does not have permission",
    );
  }
  // Days that passed since the account's history was generated get their metrics first.
  store.catchUp(customerId);
  const ctx = new AccountContext(store, acct);
  const from = query.from.name;
  if (!(VIEW_RESOURCES as readonly string[]).includes(from)) {
    if (loadCatalogue().allRowResources.includes(from)) {
      throw queryError("PROHIBITED_RESOURCE_TYPE_IN_FROM_CLAUSE", `Error in FROM clause: resource '${from}' is not available in this emulator.`, from);
    }
    throw queryError("BAD_RESOURCE_TYPE_IN_FROM_CLAUSE", `Error in FROM clause: invalid resource name '${from}'.`, from);
  }
  const view = viewFor(ctx, from) as ViewDef;
  const changeRule = CHANGE_HISTORY_RULES[from];
  if (changeRule) validateChangeHistoryQuery(query, store.todayFor(customerId), changeRule);
  return new Execution(store, ctx, view, query).run();
}

/** Google's rules for the two change-history resources: a finite time range within their look-back, and a LIMIT ≤ 10,000. */
interface ChangeHistoryRule {
  resource: string;
  field: string;
  category: string;
  maxDays: number;
}

const CHANGE_HISTORY_RULES: Record<string, ChangeHistoryRule> = {
  change_event: { resource: "change_event", field: "change_event.change_date_time", category: "changeEventError", maxDays: 30 },
  // Commonly cited as 90 days (research/google-ads-operations.md); the app reads it back a day or two at most.
  change_status: { resource: "change_status", field: "change_status.last_change_date_time", category: "changeStatusError", maxDays: 90 },
};

/** Fields whose date-only bounds cover whole days, as on the change-history resources. */
const CHANGE_TIME_FIELDS = new Set(Object.values(CHANGE_HISTORY_RULES).map((r) => r.field));

function validateChangeHistoryQuery(q: Query, today: number, rule: ChangeHistoryRule): void {
  const { resource, category } = rule;
  if (q.limit === undefined) {
    throw categoryError(category, "LIMIT_NOT_SPECIFIED", `A LIMIT clause is required when querying ${resource}.`);
  }
  if (q.limit > 10_000) {
    throw categoryError(category, "INVALID_LIMIT_CLAUSE", `The LIMIT for ${resource} queries must not exceed 10000.`, String(q.limit));
  }
  let lo: number | undefined;
  let hi: number | undefined;
  for (const c of q.where) {
    if (c.field.name !== rule.field) continue;
    const b = boundsOf({ ...c, values: c.values.map((v) => (v.kind === "string" ? { ...v, value: v.value.slice(0, 10) } : v)) }, today, (lit, t) =>
      duringRange(lit as DuringLiteral, t),
    );
    if (b.lo !== undefined) lo = lo === undefined ? b.lo : Math.max(lo, b.lo);
    if (b.hi !== undefined) hi = hi === undefined ? b.hi : Math.min(hi, b.hi);
  }
  if (lo === undefined || hi === undefined) {
    throw categoryError(category, "CHANGE_DATE_RANGE_INFINITE", `${resource} queries must filter ${rule.field} to a finite range.`);
  }
  if (lo > hi) throw categoryError(category, "CHANGE_DATE_RANGE_NEGATIVE", `The ${resource} date range ends before it starts.`);
  if (lo < today - rule.maxDays) {
    throw categoryError(category, "START_DATE_TOO_OLD", `${resource} data is only available for the past ${rule.maxDays} days.`, formatDay(lo));
  }
}

class Execution {
  private readonly acct;
  private readonly D: number;
  private readonly startDay: number;
  private select: FieldUse[] = [];
  private consumption = 0;

  constructor(
    private readonly store: AdsStore,
    private readonly ctx: AccountContext,
    private readonly view: ViewDef,
    private readonly q: Query,
  ) {
    this.acct = ctx.acct;
    this.D = ctx.acct.dataDays;
    this.startDay = ctx.acct.dataStartDay;
  }

  private resolve(refs: FieldRef[], clause: "SELECT" | "WHERE" | "ORDER BY"): FieldUse[] {
    const unknown: string[] = [];
    const out: FieldUse[] = [];
    for (const ref of refs) {
      const f = resolveField(ref.name);
      if (!f) {
        unknown.push(ref.name);
        continue;
      }
      out.push({ f, ref, category: category(f) });
    }
    if (unknown.length) {
      throw new GoogleAdsFailureError(unknown.map((n) => queryErrorEntry("UNRECOGNIZED_FIELD", `Unrecognized field in the query: '${n}'.`, n)));
    }
    const view = this.view;
    const badResources = [...new Set(out.filter((u) => u.category === "attribute" && !(u.f.resource in view.joins)).map((u) => u.f.resource))];
    if (badResources.length) {
      const list = badResources.map((r) => `'${upperResource(r)}'`).join(", ");
      if (clause === "WHERE") {
        throw queryError(
          "PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE",
          `Cannot filter on fields from the following resources: ${list}, since the resource is incompatible with the resource in FROM clause.`,
          badResources[0],
        );
      }
      throw queryError(
        "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE",
        `Cannot select fields from the following resources: ${list}, since the resource is incompatible with the resource in FROM clause.`,
        badResources[0],
      );
    }
    const from = upperResource(view.resource);
    const badMetrics = out.filter((u) => u.category === "metric" && (view.metrics === null || (MODELED_METRICS.has(u.f.name) && !view.metrics.has(u.f.name))));
    if (badMetrics.length) {
      const list = badMetrics.map((u) => `'${u.f.name.slice("metrics.".length)}'(could not support requested resources: '${from}')`).join(", ");
      throw queryError(
        "PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE",
        `Cannot select or filter on the following metrics: ${list}, since metric is incompatible with the resource in the FROM clause or other selected segmenting resources.`,
        badMetrics[0].f.name,
      );
    }
    const badSegments = out.filter((u) => u.category === "segment" && !view.segments.has(u.f.name));
    if (badSegments.length) {
      const list = badSegments.map((u) => `'${u.f.name}'(could not support requested resources: '${from}')`).join(", ");
      throw queryError(
        "PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE",
        `Cannot select or filter on the following segments: ${list}, since segment is incompatible with the resource in the FROM clause or other selected segmenting resources.`,
        badSegments[0].f.name,
      );
    }
    return out;
  }

  run(): QueryResult {
    const q = this.q;
    const view = this.view;
    const acct = this.acct;

    // Duplicate SELECT entries collapse, as the field mask can hold each path once.
    const seenSel = new Set<string>();
    const selRefs = q.select.filter((r) => (seenSel.has(r.name) ? false : (seenSel.add(r.name), true)));
    this.select = this.resolve(selRefs, "SELECT");
    const where = this.resolve(
      q.where.map((c) => c.field),
      "WHERE",
    );
    const order = this.resolve(
      q.orderBy.map((o) => o.field),
      "ORDER BY",
    );
    const selectedNames = new Set(this.select.map((u) => u.f.name));

    for (const o of order) {
      if (!selectedNames.has(o.f.name)) {
        throw queryError("EXPECTED_REFERENCED_FIELD_IN_SELECT_CLAUSE", `The following field must be present in SELECT clause: '${o.f.name}'.`, o.f.name);
      }
      if (o.f.type === "message" || o.f.repeated) {
        throw queryError("PROHIBITED_FIELD_IN_ORDER_BY_CLAUSE", `Error in ORDER BY clause: field '${o.f.name}' cannot be used for ordering.`, o.f.name);
      }
    }
    for (const w of where) {
      if (w.category === "segment" && !CORE_DATE_SEGMENTS.has(w.f.name) && !selectedNames.has(w.f.name)) {
        throw queryError("EXPECTED_REFERENCED_FIELD_IN_SELECT_CLAUSE", `The following field must be present in SELECT clause: '${w.f.name}'.`, w.f.name);
      }
    }

    const metricsUsed = [...this.select, ...where].some((u) => u.category === "metric");
    if (metricsUsed && acct.customer.manager) {
      throw queryError(
        "REQUESTED_METRICS_FOR_MANAGER",
        "Metrics cannot be requested for a manager account. To retrieve metrics, issue separate requests against each client account under the manager account.",
      );
    }

    // Compile conditions (value checks happen here).
    const today = this.store.todayFor(acct.customerId);
    const attrConds: Array<{ join: (i: number) => number; get: Getter; pred: Predicate }> = [];
    const rowSegConds: Array<{ get: Getter; pred: Predicate }> = [];
    const dayTests: Array<(day: number) => boolean> = [];
    const deviceConds: Predicate[] = [];
    const networkConds: Predicate[] = [];
    const metricConds: Array<{ fn: MetricFn; pred: Predicate }> = [];
    let lo: number | undefined;
    let hi: number | undefined;
    q.where.forEach((cond, k) => {
      const use = where[k];
      const f = use.f;
      let pred = compileCondition(f, cond);
      if (CHANGE_TIME_FIELDS.has(f.name)) pred = changeDateTimePredicate(cond, pred, today, (lit, t) => duringRange(lit as DuringLiteral, t));
      if (use.category === "attribute") {
        const acc = this.ctx.accessor(f.resource);
        const join = view.joins[f.resource];
        const path = f.json.slice(f.json.indexOf(".") + 1);
        if (!acc)
          throw queryError(
            "PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE",
            `Cannot filter on fields from the following resources: '${upperResource(f.resource)}'.`,
            f.name,
          );
        const get = path === "resourceName" ? (i: number) => acc.resourceName(i) : acc.field(path);
        attrConds.push({ join, get, pred });
      } else if (use.category === "metric") {
        const fn = metricFn(f.name, this.ctx, view);
        // Unmodelled metrics are unset: only IS NULL-style predicates can pass.
        metricConds.push({ fn: fn ?? (() => undefined), pred });
      } else if (DATE_SEGMENT_SET.has(f.name)) {
        if (cond.op === "DURING") {
          const v = cond.values[0];
          const [a, z] = duringRange((v.kind === "number" ? v.raw : v.value).toUpperCase() as DuringLiteral, today);
          dayTests.push((d) => d >= a && d <= z);
        } else {
          const seg = daySegment(f.name);
          dayTests.push((d) => pred(seg.valueOfDay(d)));
        }
        if (CORE_DATE_SEGMENTS.has(f.name)) {
          const b = boundsOf(cond, today, (lit, t) => duringRange(lit as DuringLiteral, t));
          if (b.lo !== undefined) lo = lo === undefined ? b.lo : Math.max(lo, b.lo);
          if (b.hi !== undefined) hi = hi === undefined ? b.hi : Math.min(hi, b.hi);
        }
        if (["segments.week", "segments.month", "segments.quarter"].includes(f.name)) this.checkAligned(f.name, cond);
      } else if (f.name === "segments.device") {
        deviceConds.push(pred);
      } else if (f.name === "segments.ad_network_type") {
        networkConds.push(pred);
      } else {
        const get = view.rowSegments?.[f.name];
        if (!get) throw queryError("PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE", `Cannot select or filter on the following segments: '${f.name}'.`, f.name);
        rowSegConds.push({ get, pred });
      }
    });

    const selectedSegments = this.select.filter((u) => u.category === "segment").map((u) => u.f.name);
    const selectedDaySegs = selectedSegments.filter((s) => DATE_SEGMENT_SET.has(s));
    if (selectedSegments.some((s) => CORE_DATE_SEGMENTS.has(s)) && (lo === undefined || hi === undefined)) {
      const first = selectedSegments.find((s) => CORE_DATE_SEGMENTS.has(s)) as string;
      throw queryError("EXPECTED_FILTERS_ON_DATE_RANGE", `Expects filters on the following field to limit a finite date range: '${first}'.`, first);
    }

    // ---- entity scan
    const fromAcc = this.ctx.accessor(view.resource);
    const candidates = view.rows ? view.rows() : null;
    const total = candidates ? candidates.length : (fromAcc?.count ?? 0);
    const ents: number[] = [];
    outer: for (let k = 0; k < total; k++) {
      const i = candidates ? candidates[k] : k;
      for (const c of attrConds) {
        const j = c.join(i);
        if (!c.pred(j < 0 ? undefined : c.get(j))) continue outer;
      }
      for (const c of rowSegConds) if (!c.pred(c.get(i))) continue outer;
      ents.push(i);
    }
    this.consumption += total;

    const segmenting = selectedSegments.some((s) => !(view.rowSegments && s in view.rowSegments));
    const needFacts =
      !!view.facts && (metricsUsed || segmenting || !!view.statsOnly || dayTests.length > 0 || deviceConds.length > 0 || networkConds.length > 0);

    let rows: Rows;
    if (!needFacts) {
      rows = new Rows(ents.length, false);
      for (let k = 0; k < ents.length; k++) rows.add(ents[k], -1, -1, -1);
    } else {
      const isUsed = [...this.select, ...where].some((u) => IMPRESSION_SHARE_METRICS.includes(u.f.name));
      rows = this.aggregate(
        ents,
        selectedDaySegs,
        dayTests,
        selectedSegments.includes("segments.device"),
        deviceConds,
        selectedSegments.includes("segments.ad_network_type"),
        networkConds,
        isUsed,
      );
    }

    // ---- metric filters and zero-row suppression
    const selectedMetrics = this.select.filter((u) => u.category === "metric");
    const selMetricFns = selectedMetrics.map((u) => metricFn(u.f.name, this.ctx, view));
    const dropZero = needFacts && (segmenting || !!view.statsOnly);
    let keep: number[] = [];
    for (let r = 0; r < rows.n; r++) {
      const ent = rows.ent[r];
      let ok = true;
      for (const c of metricConds) {
        if (!c.pred(c.fn(rows, r, ent))) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (dropZero) {
        // Google drops segmented rows whose selected metrics are all zero.
        const anyTraffic = rows.impr[r] > 0 || rows.clicks[r] > 0 || rows.cost[r] > 0 || rows.conv[r] > 0;
        if (selMetricFns.length === 0 ? !anyTraffic : selMetricFns.every((fn) => !fn || !fn(rows, r, ent))) continue;
      }
      keep.push(r);
    }

    // ---- ORDER BY / LIMIT
    const valueOf = this.select.map((u) => this.valueFn(u, rows));
    const byName = new Map(this.select.map((u, k) => [u.f.name, valueOf[k]]));
    const totalCount = keep.length;
    if (q.orderBy.length) {
      const keys = q.orderBy.map((o) => ({ fn: byName.get(o.field.name) as (r: number) => unknown, desc: o.descending }));
      const cmp = (a: number, b: number): number => {
        for (const k of keys) {
          const va = k.fn(a);
          const vb = k.fn(b);
          if (va === vb) continue;
          // Unset sorts as the smallest value.
          let c: number;
          if (va === undefined) c = -1;
          else if (vb === undefined) c = 1;
          else if (typeof va === "number" && typeof vb === "number") c = va - vb;
          else c = String(va) < String(vb) ? -1 : String(va) > String(vb) ? 1 : 0;
          if (c !== 0) return k.desc ? -c : c;
        }
        return a - b;
      };
      keep = q.limit !== undefined && q.limit * 4 < keep.length ? topK(keep, q.limit, cmp) : keep.sort(cmp);
    }
    if (q.limit !== undefined && keep.length > q.limit) keep = keep.slice(0, q.limit);

    // ---- output shaping
    const omitNames = this.q.parameters.omit_unselected_resource_names === "true";
    const emitters = this.emitters(rows, valueOf, omitNames);
    const fieldMask = this.select.map((u) => u.f.json).join(",");
    const consumption = Math.max(1, Math.round(this.consumption / 100));
    return {
      fieldMask,
      rowCount: keep.length,
      totalCount,
      consumption,
      row: (i: number) => {
        const r = keep[i];
        const out: Record<string, unknown> = {};
        for (const e of emitters) e(r, out);
        return out;
      },
    };
  }

  private checkAligned(name: string, cond: Condition): void {
    const align = name === "segments.week" ? mondayOf : name === "segments.month" ? monthStart : quarterStart;
    for (const v of cond.values) {
      if (v.kind !== "string") continue;
      const d = Date.parse(`${v.value.length === 8 ? `${v.value.slice(0, 4)}-${v.value.slice(4, 6)}-${v.value.slice(6)}` : v.value}T00:00:00Z`) / 86_400_000;
      if (Number.isFinite(d) && align(d) !== d) {
        throw queryError("MISALIGNED_DATE_FOR_FILTER", `Error in WHERE clause: ${v.value} is not the first day of a ${name.slice(9)} for ${name}.`, v.value);
      }
    }
  }

  /** Raw value of a selected field for an aggregated row. */
  private valueFn(u: FieldUse, rows: Rows): (r: number) => unknown {
    const view = this.view;
    const f = u.f;
    if (u.category === "metric") {
      const fn = metricFn(f.name, this.ctx, view);
      if (!fn) return () => undefined;
      return (r) => fn(rows, r, rows.ent[r]);
    }
    if (u.category === "segment") {
      if (DATE_SEGMENT_SET.has(f.name)) {
        const seg = daySegment(f.name);
        const perBucket = this.bucketDay.map((d) => seg.valueOfDay(this.startDay + d));
        return (r) => (rows.bucket[r] >= 0 ? perBucket[rows.bucket[r]] : undefined);
      }
      if (f.name === "segments.device") return (r) => (rows.dev[r] >= 0 ? DEVICES[rows.dev[r]] : undefined);
      if (f.name === "segments.ad_network_type") return (r) => (rows.net[r] >= 0 ? NETWORKS[rows.net[r]] : undefined);
      const get = view.rowSegments?.[f.name];
      return get ? (r) => get(rows.ent[r]) : () => undefined;
    }
    const acc = this.ctx.accessor(f.resource);
    const join = view.joins[f.resource];
    if (!acc || !join) return () => undefined;
    const path = f.json.slice(f.json.indexOf(".") + 1);
    const get = path === "resourceName" ? (j: number) => acc.resourceName(j) : acc.field(path);
    return (r) => {
      const j = join(rows.ent[r]);
      return j < 0 || j >= acc.count ? undefined : get(j);
    };
  }

  private emitters(rows: Rows, valueOf: Array<(r: number) => unknown>, omitNames: boolean): Array<(r: number, out: Record<string, unknown>) => void> {
    const view = this.view;
    const out: Array<(r: number, o: Record<string, unknown>) => void> = [];
    // resourceName of the FROM resource and of every other resource with selected fields, first.
    if (!omitNames) {
      const resources = [view.resource, ...this.select.filter((u) => u.category === "attribute").map((u) => u.f.resource)];
      for (const res of [...new Set(resources)]) {
        const acc = this.ctx.accessor(res);
        const join = view.joins[res];
        const key = resolveField(`${res}.resource_name`)?.json.split(".")[0];
        if (!acc || !join || !key) continue;
        out.push((r, o) => {
          const j = join(rows.ent[r]);
          if (j < 0 || j >= acc.count) return;
          const slot = (o[key] ??= {}) as Record<string, unknown>;
          slot.resourceName = acc.resourceName(j);
        });
      }
    }
    this.select.forEach((u, k) => {
      const parts = u.f.json.split(".");
      const fn = valueOf[k];
      out.push((r, o) => {
        const v = toJson(u.f, fn(r));
        if (v !== undefined) setPath(o, parts, v);
        else if (u.category === "attribute" && !omitNames) {
          // Keep the resource object present (it carries resourceName) even when the field is unset.
          const top = parts[0];
          o[top] ??= {};
        }
      });
    });
    return out;
  }

  // ---------------------------------------------------------------- aggregation

  private bucketDay: number[] = [];
  private splitter = new RowSplitter();
  private rollups = new Map<FactPart, Map<string, Rollup>>();

  /**
   * Daily sums of a part's sources for one rollup key (e.g. all keywords of an
   * ad group), optionally split to one ad's share; cached per query.
   */
  private rollup(part: FactPart, key: number, ent: number, split?: { weights: Float64Array; index: number }): Rollup {
    let byKey = this.rollups.get(part);
    if (!byKey) {
      byKey = new Map();
      this.rollups.set(part, byKey);
    }
    const cacheKey = split ? `${key}:${split.index}` : String(key);
    const hit = byKey.get(cacheKey);
    if (hit) return hit;
    if (split) {
      const whole = this.rollup(part, key, ent);
      const n = split.weights.length;
      const out = new Float64Array(5 * n);
      const r: Rollup = {
        n: whole.n,
        campaign: whole.campaign,
        day: whole.day,
        impr: new Float64Array(whole.n),
        clicks: new Float64Array(whole.n),
        cost: new Float64Array(whole.n),
        conv: new Float64Array(whole.n),
        value: new Float64Array(whole.n),
      };
      const o = split.index * 5;
      for (let i = 0; i < whole.n; i++) {
        this.splitter.split(whole.impr[i], whole.clicks[i], whole.cost[i], whole.conv[i], whole.value[i], split.weights, n, out);
        r.impr[i] = out[o];
        r.clicks[i] = out[o + 1];
        r.cost[i] = out[o + 2];
        r.conv[i] = out[o + 3];
        r.value[i] = out[o + 4];
      }
      byKey.set(cacheKey, r);
      return r;
    }
    const D = Math.max(1, this.D);
    const cols = Array.from({ length: 5 }, () => new Float64Array(D));
    const sources = part.sources(ent);
    const t = part.table;
    let campaign = -1;
    for (let s = 0; s < sources.length; s++) {
      const e = sources[s];
      if (campaign < 0) campaign = part.campaignOf(e);
      for (let r = t.start(e), end = t.end(e); r < end; r++) {
        const d = t.day[r];
        cols[0][d] += t.impressions[r];
        cols[1][d] += t.clicks[r];
        cols[2][d] += t.cost[r];
        cols[3][d] += t.conv[r];
        cols[4][d] += t.value[r];
      }
    }
    const days: number[] = [];
    for (let d = 0; d < this.D; d++) if (cols[0][d] > 0 || cols[1][d] > 0 || cols[2][d] > 0) days.push(d);
    const pick = (c: Float64Array) => Float64Array.from(days, (d) => c[d]);
    const r: Rollup = {
      n: days.length,
      campaign,
      day: Int32Array.from(days),
      impr: pick(cols[0]),
      clicks: pick(cols[1]),
      cost: pick(cols[2]),
      conv: pick(cols[3]),
      value: pick(cols[4]),
    };
    byKey.set(cacheKey, r);
    return r;
  }

  private aggregate(
    ents: number[],
    daySegs: string[],
    dayTests: Array<(day: number) => boolean>,
    byDevice: boolean,
    deviceConds: Predicate[],
    byNetwork: boolean,
    networkConds: Predicate[],
    withIS: boolean,
  ): Rows {
    const view = this.view;
    const parts = view.facts as FactPart[];
    const D = this.D;
    const acct = this.acct;

    // Day mask + bucket per day (a bucket is one combination of the selected day segments).
    const dayBucket = new Int32Array(Math.max(D, 1)).fill(-1);
    const bucketIds = new Map<string, number>();
    this.bucketDay = [];
    let firstDay = D;
    let lastDay = -1;
    const segFns = daySegs.map(daySegment);
    for (let d = 0; d < D; d++) {
      const dayNum = this.startDay + d;
      if (!dayTests.every((t) => t(dayNum))) continue;
      const key = segFns.map((sf) => sf.valueOfDay(dayNum)).join("|");
      let b = bucketIds.get(key);
      if (b === undefined) {
        b = bucketIds.size;
        bucketIds.set(key, b);
        this.bucketDay.push(d);
      }
      dayBucket[d] = b;
      if (d < firstDay) firstDay = d;
      lastDay = d;
    }
    const hasDaySegs = segFns.length > 0;
    const nBuckets = Math.max(1, bucketIds.size);
    const devAllowed = DEVICES.map((dv) => deviceConds.every((p) => p(dv)));
    const netAllowed = NETWORKS.map((nw) => networkConds.every((p) => p(nw)));
    const nDev = byDevice ? 3 : 1;
    const nNet = byNetwork ? 3 : 1;
    const perEnt = nBuckets * nDev * nNet;
    const splitDevices = byDevice || deviceConds.length > 0;

    const rows = new Rows(ents.length, withIS);
    // Unsegmented: one row per entity, present even with zero traffic (Google returns those).
    const dense = !hasDaySegs && !byDevice && !byNetwork;
    if (dense) for (let k = 0; k < ents.length; k++) rows.add(ents[k], -1, -1, -1);
    // Segmented: slot lookup by (entity, bucket, device, network) key — a flat array when
    // the key space is small enough, a Map otherwise (1M keywords × 90 days).
    const keySpace = ents.length * perEnt;
    const flat = !dense && keySpace <= 4_000_000 ? new Int32Array(keySpace).fill(-1) : undefined;
    const slotOf = new Map<number, number>();
    const slot = (k: number, ent: number, b: number, x: number, net: number): number => {
      if (dense) return k;
      const key = k * perEnt + (b * nDev + x) * nNet + net;
      let s = flat ? flat[key] : slotOf.get(key);
      if (s === undefined || s < 0) {
        s = rows.add(ent, hasDaySegs ? b : -1, byDevice ? x : -1, byNetwork ? net : -1);
        if (flat) flat[key] = s;
        else slotOf.set(key, s);
      }
      return s;
    };

    const campaigns = acct.campaigns;
    const rates = acct.isRates;
    const devOut = new Float64Array(3 * 5);
    const adOut = new Float64Array(5 * 8);
    const shares = new Float64Array(3);
    const splitter = this.splitter;
    let scanned = 0;

    if (lastDay >= 0) {
      for (const part of parts) {
        const table = part.table;
        const isMode = part.impressionShare;
        for (let k = 0; k < ents.length; k++) {
          const ent = ents[k];
          // Most long-tail keywords have no rows at all: skip them before any per-entity work.
          if (part.identity && table.start(ent) === table.end(ent)) continue;
          const sources = part.identity ? [ent] : part.sources(ent);
          if (sources.length === 0) continue;
          const share = part.share ? part.share(ent) : 1;
          const split = part.split ? part.split(ent) : undefined;
          if (split && split.index < 0) continue;
          let splitOut = adOut;
          if (split && splitOut.length < split.weights.length * 5) splitOut = new Float64Array(split.weights.length * 5);
          // Ads of one ad group share the group's daily sums; each ad's split series is cached too.
          const rollup = part.rollupKey ? this.rollup(part, part.rollupKey(ent), ent, split) : undefined;
          const nSources = rollup ? 1 : sources.length;
          for (let s = 0; s < nSources; s++) {
            const e = rollup ? -1 : sources[s];
            const c = rollup ? rollup.campaign : part.campaignOf(e);
            const camp = campaigns[c];
            const netIdx = camp ? NETWORKS.indexOf(NETWORK_BY_CHANNEL[camp.data.advertisingChannelType] as (typeof NETWORKS)[number]) : 0;
            if (!netAllowed[netIdx]) continue;
            const net = byNetwork ? netIdx : 0;
            const qs = !rollup && part.qualityScore ? part.qualityScore(e) : 0;
            const rowEnd = rollup ? rollup.n : table.end(e);
            for (let row = rollup ? 0 : table.lowerBound(e, firstDay); row < rowEnd; row++) {
              const d = rollup ? rollup.day[row] : table.day[row];
              if (d < firstDay) continue;
              if (d > lastDay) break;
              const b = dayBucket[d];
              if (b < 0) continue;
              scanned++;
              let impr = rollup ? rollup.impr[row] : table.impressions[row];
              let clicks = rollup ? rollup.clicks[row] : table.clicks[row];
              let cost = rollup ? rollup.cost[row] : table.cost[row];
              let conv = rollup ? rollup.conv[row] : table.conv[row];
              let value = rollup ? rollup.value[row] : table.value[row];
              if (split && !rollup) {
                splitter.split(impr, clicks, cost, conv, value, split.weights, split.weights.length, splitOut);
                const o = split.index * 5;
                impr = splitOut[o];
                clicks = splitOut[o + 1];
                cost = splitOut[o + 2];
                conv = splitOut[o + 3];
                value = splitOut[o + 4];
              }
              if (share !== 1) {
                impr = Math.round(impr * share);
                clicks = Math.min(impr, Math.round(clicks * share));
                cost = Math.round(cost * share);
                conv = Math.round(conv * share);
                value = Math.round(value * share);
              }
              if (impr === 0 && clicks === 0 && cost === 0 && conv === 0) continue;
              let elig = 0;
              let bl = 0;
              let rl = 0;
              if (rollup) {
                // Rolled-up (ad-level) rows carry no impression share: ads don't report it.
              } else if (isMode === "stored" && table.eligible && table.budgetLost && table.rankLost) {
                elig = table.eligible[row];
                bl = table.budgetLost[row];
                rl = table.rankLost[row];
              } else if (isMode === "keyword" && rates && impr > 0) {
                const idx = c * rates.days + d;
                const blis = idx < rates.budgetLost.length ? rates.budgetLost[idx] : NaN;
                if (!Number.isNaN(blis)) {
                  const is = keywordImpressionShare(blis, rates.rankLost[idx], qs);
                  elig = impr / is;
                  bl = elig * blis;
                  rl = elig - impr - bl;
                }
              }
              if (!splitDevices) {
                accumulate(rows, slot(k, ent, b, 0, net), impr, clicks, cost, conv, value, elig, bl, rl);
                continue;
              }
              // Device shares depend only on (campaign, day), so every level splits alike.
              const m = (camp?.mobileShare ?? 0.6) * (0.92 + 0.16 * hashUnit(c, d));
              const t = (camp?.tabletShare ?? 0.05) * (0.85 + 0.3 * hashUnit(c, d + 7919));
              shares[0] = m;
              shares[1] = t;
              shares[2] = 1 - m - t;
              splitter.split(impr, clicks, cost, conv, value, shares, 3, devOut);
              for (let x = 0; x < 3; x++) {
                if (!devAllowed[x]) continue;
                const di = devOut[x * 5];
                if (di === 0 && devOut[x * 5 + 1] === 0 && devOut[x * 5 + 2] === 0 && devOut[x * 5 + 3] === 0) continue;
                const f = impr > 0 ? di / impr : 0;
                accumulate(
                  rows,
                  slot(k, ent, b, byDevice ? x : 0, net),
                  di,
                  devOut[x * 5 + 1],
                  devOut[x * 5 + 2],
                  devOut[x * 5 + 3],
                  devOut[x * 5 + 4],
                  elig * f,
                  bl * f,
                  rl * f,
                );
              }
            }
          }
        }
      }
    }
    this.consumption += scanned;

    if (dense) return rows;
    // Order: entity scan order, then day bucket (chronological), device, network.
    let order: number[];
    if (flat) {
      order = [];
      for (let key = 0; key < flat.length; key++) if (flat[key] >= 0) order.push(flat[key]);
    } else {
      order = [...slotOf.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    }
    const sorted = new Rows(order.length, withIS);
    for (const i of order) {
      const j = sorted.add(rows.ent[i], rows.bucket[i], rows.dev[i], rows.net[i]);
      accumulate(sorted, j, rows.impr[i], rows.clicks[i], rows.cost[i], rows.conv[i], rows.value[i], rows.elig[i], rows.bl[i], rows.rl[i]);
    }
    return sorted;
  }
}

function accumulate(
  rows: Rows,
  s: number,
  impr: number,
  clicks: number,
  cost: number,
  conv: number,
  value: number,
  elig: number,
  bl: number,
  rl: number,
): void {
  rows.impr[s] += impr;
  rows.clicks[s] += clicks;
  rows.cost[s] += cost;
  rows.conv[s] += conv;
  rows.value[s] += value;
  if (rows.withIS) {
    rows.elig[s] += elig;
    rows.bl[s] += bl;
    rows.rl[s] += rl;
  }
}

interface Rollup {
  n: number;
  campaign: number;
  day: Int32Array;
  impr: Float64Array;
  clicks: Float64Array;
  cost: Float64Array;
  conv: Float64Array;
  value: Float64Array;
}

/** The k smallest items under cmp, sorted: a bounded max-heap, O(n log k). */
function topK(items: number[], k: number, cmp: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(heap[i], heap[p]) <= 0) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && cmp(heap[l], heap[m]) > 0) m = l;
      if (r < n && cmp(heap[r], heap[m]) > 0) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const it of items) {
    if (heap.length < k) {
      heap.push(it);
      up(heap.length - 1);
    } else if (cmp(it, heap[0]) < 0) {
      heap[0] = it;
      down(0);
    }
  }
  return heap.sort(cmp);
}
