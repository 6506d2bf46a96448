import { sql, type Expression, type SqlBool } from "kysely";
import { z } from "zod";
import { addDays, yesterdayIn } from "~/lib/dates";
import { parseListQuery, type ListQuery } from "~/lib/list-query";
import { getDb, getDbHandle, type DB } from "../db/db.server";
import { ON_PLAN_TOLERANCE, pacingDays, pacingOf, RUN_RATE_DAYS, type Pacing, type PacingDays } from "./pacing.server";

// Issue 31 point 1: every client account of every connected manager on one
// screen (/accounts, GET /api/v1/accounts/overview, /export/accounts). One
// SQL statement sorts, filters and pages, so a hundred accounts cost one
// query whatever the page size; nothing is computed per account in JS but
// the formatting.

export const OVERVIEW_SORTS = [
  "name",
  "manager",
  "spend",
  "conversions",
  "cpa",
  "roas",
  "pacing",
  "score",
  "recommendations",
  "impact",
  "alerts",
  "dataAge",
] as const;
export type OverviewSort = (typeof OVERVIEW_SORTS)[number];
export const OVERVIEW_FILTERS = ["all", "attention"] as const;
export type OverviewFilter = (typeof OVERVIEW_FILTERS)[number];

const SHAPE = { sortKeys: OVERVIEW_SORTS, statusFilters: OVERVIEW_FILTERS, defaultSort: "name" as OverviewSort, textKeys: ["name", "manager"] };

/** The overview's metrics are those of the last 30 complete days in each account's own time zone. */
export const OVERVIEW_DAYS = 30;

/** Data older than this is "stale": a scheduled refresh is hours apart, so two days means refreshes are failing. */
export const STALE_AFTER_MS = 48 * 3600_000;

/** Cost per conversion more than this much above target (or ROAS this much below) needs attention. */
export const OFF_TARGET_RATIO = 0.2;

export interface OverviewQuery extends ListQuery<OverviewSort, OverviewFilter> {
  /** Only the clients of this manager (a customer id), or every account. */
  manager: string | null;
}

/** The overview's state from the address (or the API's query): bad values fall back to defaults and are named. */
export function parseOverviewQuery(params: URLSearchParams): { query: OverviewQuery; ignored: string[] } {
  const { query, ignored } = parseListQuery(params, SHAPE);
  const rawManager = params.get("manager");
  let manager: string | null = null;
  if (rawManager) {
    const parsed = z
      .string()
      .regex(/^\d{10}$/)
      .safeParse(rawManager.replace(/-/g, ""));
    if (parsed.success) manager = parsed.data;
    else ignored.push("manager");
  }
  return { query: { ...query, manager }, ignored };
}

export interface OverviewRow {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  /** The manager whose hierarchy reaches the account (null: reached directly). */
  manager: { customerId: string; name: string } | null;
  period: { from: string; to: string };
  costMicros: number;
  conversions: number;
  conversionsValue: number;
  /** Cost per conversion in micros; null without conversions. */
  cpaMicros: number | null;
  /** Conversion value ÷ cost; null without cost. */
  roas: number | null;
  target: { cpaMicros: number | null; roas: number | null };
  /** Performance Score 0–100 of the last engine run; null before one. */
  score: number | null;
  openRecommendations: number;
  /** The open recommendations' estimated impact summed, in account currency units per month. */
  recommendationsImpact: number;
  /** When the account's data was last refreshed successfully; null: never. */
  dataAsOf: string | null;
  syncStatus: "never" | "running" | "ok" | "failed";
  /** Why the account needs attention (empty: it does not). */
  attention: string[];
  /** The month's budget pacing; null without a monthly budget. */
  pacing: Pacing | null;
  /** Open alerts the person has not muted. */
  activeAlerts: number;
}

export interface Overview {
  accounts: OverviewRow[];
  total: number;
  page: number;
  pageSize: number;
  managers: Array<{ customerId: string; name: string; clients: number }>;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The overview page of the user's client accounts. `now` decides "yesterday"
 * in each account's time zone and the data age; `limit: null` returns every
 * row (the CSV).
 */
export async function accountsOverview(userId: string, query: OverviewQuery, opts: { db?: DB; now?: Date; all?: boolean } = {}): Promise<Overview> {
  const db = opts.db ?? getDb();
  const now = opts.now ?? new Date();
  const dialect = getDbHandle().dialect;

  // "The last 30 complete days" differs by time zone: one window per zone the user's accounts are in.
  const zones = await db.selectFrom("ads_accounts").select("time_zone").distinct().where("user_id", "=", userId).where("manager", "=", 0).execute();
  const windows = zones.map(({ time_zone }) => {
    const to = yesterdayIn(time_zone, now);
    // The month so far and the run-rate's week both lie inside the 30 days.
    return { zone: time_zone, from: addDays(to, -(OVERVIEW_DAYS - 1)), to, days: pacingDays(time_zone, now) };
  });
  // A value that depends on the account's time zone, as SQL.
  const perZone = (column: string, value: (days: PacingDays) => string | number) =>
    windows.length
      ? sql`CASE ${sql.ref(column)} ${sql.join(
          windows.map((w) => {
            const v = value(w.days);
            return sql`WHEN ${w.zone} THEN ${typeof v === "number" ? sql.lit(v) : v}`;
          }),
          sql` `,
        )} END`
      : sql`NULL`;
  const nowIso = now.toISOString();
  const staleBefore = new Date(now.getTime() - STALE_AFTER_MS).toISOString();

  const scoreExpr =
    dialect === "postgres" ? sql<number | null>`(o.score_json::jsonb ->> 'value')::float8` : sql<number | null>`json_extract(o.score_json, '$.value')`;

  let base = db
    .selectFrom("ads_accounts as a")
    .leftJoin("ads_accounts as m", (j) => j.onRef("m.user_id", "=", "a.user_id").onRef("m.customer_id", "=", "a.login_customer_id"))
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("ads_campaign_daily as d")
          .innerJoin("ads_accounts as x", "x.customer_id", "d.customer_id")
          .where("x.user_id", "=", userId)
          .where("x.manager", "=", 0)
          .where((w) =>
            w.or(
              windows.length
                ? windows.map((win) => w.and([w("x.time_zone", "=", win.zone), w("d.date", ">=", win.from), w("d.date", "<=", win.to)]))
                : [w.lit(false)],
            ),
          )
          .select([
            "d.customer_id",
            sql<number>`SUM(d.cost_micros)`.as("cost"),
            sql<number>`SUM(d.conversions)`.as("conv"),
            sql<number>`SUM(d.conversions_value)`.as("value"),
            sql<number>`SUM(CASE WHEN d.date >= ${perZone("x.time_zone", (p) => p.monthStart)} THEN d.cost_micros ELSE 0 END)`.as("mtd"),
            sql<number>`SUM(CASE WHEN d.date >= ${perZone("x.time_zone", (p) => p.runRateFrom)} THEN d.cost_micros ELSE 0 END)`.as("recent"),
          ])
          .groupBy("d.customer_id")
          .as("s"),
      (j) => j.onRef("s.customer_id", "=", "a.customer_id"),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("recommendations as r")
          .where("r.present", "=", 1)
          .where((w) => w.or([w("r.status", "=", "open"), w.and([w("r.status", "=", "snoozed"), w("r.snoozed_until", "<=", nowIso)])]))
          .select(["r.customer_id", sql<number>`COUNT(*)`.as("open_count"), sql<number>`SUM(r.impact_amount)`.as("impact")])
          .groupBy("r.customer_id")
          .as("rec"),
      (j) => j.onRef("rec.customer_id", "=", "a.customer_id"),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("alerts as al")
          .where("al.status", "=", "open")
          // The person's mutes hide an alert here as on the bell.
          .where(
            sql<SqlBool>`NOT EXISTS (SELECT 1 FROM alert_mutes mu WHERE mu.user_id = ${userId} AND (mu.customer_id = al.customer_id OR mu.customer_id = '*') AND (mu.rule = al.rule OR mu.rule = '*'))`,
          )
          .select(["al.customer_id", sql<number>`COUNT(*)`.as("alert_count")])
          .groupBy("al.customer_id")
          .as("alr"),
      (j) => j.onRef("alr.customer_id", "=", "a.customer_id"),
    )
    .leftJoin("account_targets as t", "t.customer_id", "a.customer_id")
    .leftJoin("budget_plans as bp", (j) => j.onRef("bp.customer_id", "=", "a.customer_id").on("bp.campaign_id", "=", ""))
    .leftJoin("optimizer_runs as o", "o.customer_id", "a.customer_id")
    .leftJoin("ads_sync_state as ss", "ss.customer_id", "a.customer_id")
    .where("a.user_id", "=", userId)
    .where("a.manager", "=", 0);

  const cost = sql<number>`COALESCE(s.cost, 0)`;
  const conv = sql<number>`COALESCE(s.conv, 0)`;
  const cpa = sql<number | null>`CASE WHEN COALESCE(s.conv, 0) > 0 THEN COALESCE(s.cost, 0) / s.conv END`;
  const roas = sql<number | null>`CASE WHEN COALESCE(s.cost, 0) > 0 THEN COALESCE(s.value, 0) * 1000000.0 / s.cost END`;
  // The same conditions as `attentionReasons` below, in SQL, for the filter.
  const offCpa = sql<SqlBool>`(t.target_cpa_micros IS NOT NULL AND ((COALESCE(s.conv, 0) > 0 AND COALESCE(s.cost, 0) / s.conv > t.target_cpa_micros * ${sql.lit(1 + OFF_TARGET_RATIO)}) OR (COALESCE(s.conv, 0) = 0 AND COALESCE(s.cost, 0) > t.target_cpa_micros)))`;
  const offRoas = sql<SqlBool>`(t.target_roas IS NOT NULL AND COALESCE(s.cost, 0) > 0 AND COALESCE(s.value, 0) * 1000000.0 / s.cost < t.target_roas * ${sql.lit(1 - OFF_TARGET_RATIO)})`;
  // pacingOf's projection, in SQL: (month so far + run-rate × days left) ÷ budget − 1.
  const offPlan = sql<
    number | null
  >`CASE WHEN bp.monthly_budget_micros > 0 THEN (COALESCE(s.mtd, 0) + COALESCE(s.recent, 0) * 1.0 / ${sql.lit(RUN_RATE_DAYS)} * ${perZone("a.time_zone", (p) => p.daysLeft)}) / bp.monthly_budget_micros - 1 END`;
  const offPace = sql<SqlBool>`(bp.monthly_budget_micros IS NOT NULL AND ABS(${offPlan}) > ${sql.lit(ON_PLAN_TOLERANCE)})`;
  const stale = sql<SqlBool>`(ss.last_success_at IS NULL OR ss.last_success_at < ${staleBefore} OR ss.status = 'failed')`;

  if (query.manager) base = base.where("a.login_customer_id", "=", query.manager);
  if (query.q) {
    const like = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const digits = query.q.replace(/-/g, "");
    base = base.where((w) =>
      w.or([sql<SqlBool>`LOWER(a.name) LIKE ${like} ESCAPE '\\'`, ...(/^\d+$/.test(digits) ? [w("a.customer_id", "like", `%${digits}%`)] : [])]),
    );
  }
  if (query.status === "attention") base = base.where(sql<SqlBool>`(${offCpa} OR ${offRoas} OR ${offPace} OR ${stale} OR COALESCE(alr.alert_count, 0) > 0)`);

  const order: Record<OverviewSort, Expression<unknown>> = {
    name: sql`LOWER(a.name)`,
    manager: sql`LOWER(COALESCE(m.name, ''))`,
    spend: cost,
    conversions: conv,
    cpa,
    roas,
    pacing: offPlan,
    score: scoreExpr,
    recommendations: sql`COALESCE(rec.open_count, 0)`,
    impact: sql`COALESCE(rec.impact, 0)`,
    alerts: sql`COALESCE(alr.alert_count, 0)`,
    dataAge: sql`ss.last_success_at`,
  };
  const dir = query.dir === "asc" ? sql`ASC` : sql`DESC`;
  // Empty values last in either direction (both databases order NULL differently), then by name, then id: a stable page.
  const sortExpr = order[query.sort];

  const [countRow, managers, rows] = await Promise.all([
    base.select(sql<number>`COUNT(*)`.as("n")).executeTakeFirstOrThrow(),
    db
      .selectFrom("ads_accounts as a")
      .innerJoin("ads_accounts as m", (j) => j.onRef("m.user_id", "=", "a.user_id").onRef("m.customer_id", "=", "a.login_customer_id"))
      .where("a.user_id", "=", userId)
      .where("a.manager", "=", 0)
      .select(["m.customer_id", "m.name", sql<number>`COUNT(*)`.as("clients")])
      .groupBy(["m.customer_id", "m.name"])
      .orderBy("m.name")
      .execute(),
    (() => {
      let q = base
        .select([
          "a.customer_id",
          "a.name",
          "a.currency_code",
          "a.time_zone",
          "a.login_customer_id",
          "m.name as manager_name",
          cost.as("cost"),
          conv.as("conv"),
          sql<number>`COALESCE(s.value, 0)`.as("value"),
          "t.target_cpa_micros",
          "t.target_roas",
          scoreExpr.as("score"),
          sql<number>`COALESCE(rec.open_count, 0)`.as("open_count"),
          sql<number>`COALESCE(rec.impact, 0)`.as("impact"),
          "ss.last_success_at",
          "ss.status as sync_status",
          "bp.monthly_budget_micros",
          sql<number>`COALESCE(alr.alert_count, 0)`.as("alert_count"),
          sql<number>`COALESCE(s.mtd, 0)`.as("mtd"),
          sql<number>`COALESCE(s.recent, 0)`.as("recent"),
        ])
        .orderBy(sql`CASE WHEN ${sortExpr} IS NULL THEN 1 ELSE 0 END`)
        .orderBy(sql`${sortExpr} ${dir}`)
        .orderBy(sql`LOWER(a.name)`)
        .orderBy("a.customer_id");
      if (!opts.all) q = q.limit(query.pageSize).offset((query.page - 1) * query.pageSize);
      return q.execute();
    })(),
  ]);

  const windowOf = new Map(windows.map((w) => [w.zone, w]));
  return {
    total: num(countRow.n),
    page: query.page,
    pageSize: query.pageSize,
    managers: managers.map((m) => ({ customerId: m.customer_id, name: m.name, clients: num(m.clients) })),
    accounts: rows.map((r) => {
      const costMicros = num(r.cost);
      const conversions = num(r.conv);
      const conversionsValue = num(r.value);
      const win = windowOf.get(r.time_zone)!;
      const row: OverviewRow = {
        customerId: r.customer_id,
        name: r.name,
        currencyCode: r.currency_code,
        timeZone: r.time_zone,
        manager: r.login_customer_id ? { customerId: r.login_customer_id, name: r.manager_name ?? r.login_customer_id } : null,
        period: { from: win.from, to: win.to },
        costMicros,
        conversions,
        conversionsValue,
        cpaMicros: conversions > 0 ? Math.round(costMicros / conversions) : null,
        roas: costMicros > 0 ? (conversionsValue * 1_000_000) / costMicros : null,
        target: { cpaMicros: numOrNull(r.target_cpa_micros), roas: numOrNull(r.target_roas) },
        score: r.score === null || r.score === undefined ? null : Math.round(Number(r.score)),
        openRecommendations: num(r.open_count),
        recommendationsImpact: Math.round(num(r.impact) * 100) / 100,
        dataAsOf: r.last_success_at ?? null,
        syncStatus: r.sync_status ?? "never",
        attention: [],
        activeAlerts: num(r.alert_count),
        pacing:
          r.monthly_budget_micros === null || r.monthly_budget_micros === undefined
            ? null
            : pacingOf(num(r.monthly_budget_micros), num(r.mtd), num(r.recent), win.days),
      };
      row.attention = attentionReasons(row, staleBefore);
      return row;
    }),
  };
}

/** Why an account needs attention, in words; the filter's SQL asks the same questions. */
export function attentionReasons(row: OverviewRow, staleBefore: string): string[] {
  const out: string[] = [];
  const { cpaMicros: target, roas: targetRoas } = row.target;
  if (target !== null && ((row.cpaMicros !== null && row.cpaMicros > target * (1 + OFF_TARGET_RATIO)) || (row.cpaMicros === null && row.costMicros > target))) {
    out.push("Cost per conversion above target");
  }
  if (targetRoas !== null && row.roas !== null && row.roas < targetRoas * (1 - OFF_TARGET_RATIO)) out.push("ROAS below target");
  if (row.pacing?.status === "over") out.push("Spending over the monthly plan");
  if (row.pacing?.status === "under") out.push("Spending under the monthly plan");
  if (row.activeAlerts > 0) out.push(`${row.activeAlerts} open alert${row.activeAlerts === 1 ? "" : "s"}`);
  if (row.syncStatus === "failed") out.push("Last refresh failed");
  else if (row.dataAsOf === null) out.push("Never refreshed");
  else if (row.dataAsOf < staleBefore) out.push("Data more than two days old");
  return out;
}
