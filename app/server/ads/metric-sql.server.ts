import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { DateRange } from "~/lib/dates";
import { fractionalSum, RATIOS, type MetricKey, type Metrics, type RatioKey } from "~/lib/metrics";
import { getDb } from "../db/db.server";

/**
 * The SQL of the five metrics over the ads_*_daily tables, for every reader of
 * the local copy: the report screens (reports.server.ts), the campaign
 * detail's tabs (detail-lists.server.ts), the assistant's account-wide reads
 * (ai/account-data.server.ts) and the recommendations engine
 * (optimizer/data.server.ts). Sums, ratios and sorting are done in SQL the
 * same way everywhere, so a number on a screen, in an answer and in a finding
 * agree.
 */

export const METRIC_COLUMN: Record<MetricKey, string> = {
  impressions: "impressions",
  clicks: "clicks",
  costMicros: "cost_micros",
  conversions: "conversions",
  conversionsValue: "conversions_value",
};

/** The daily tables' metric columns. */
export const METRIC_COLUMNS = ["impressions", "clicks", "cost_micros", "conversions", "conversions_value"] as const;
export type MetricColumn = (typeof METRIC_COLUMNS)[number];

/** SUM of each metric column of `table` (a table or alias), named after the column. */
export function metricSums(table: string) {
  return METRIC_COLUMNS.map((column) => sql<number>`COALESCE(SUM(${sql.ref(`${table}.${column}`)}), 0)`.as(column));
}

/** The daily tables and the columns that name one row's entity in each. */
const DAILY_KEYS = {
  ads_ad_group_daily: ["ad_group_id"],
  ads_keyword_daily: ["ad_group_id", "criterion_id"],
  ads_ad_daily: ["ad_group_id", "ad_id"],
} as const;

/**
 * Each entity's metric sums over the range from its daily table, keyed by its
 * id columns (one campaign's entities when campaignId is given): the subquery
 * the lists LEFT JOIN as "m", so entities without traffic still show.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dailySums(table: keyof typeof DAILY_KEYS, customerId: string, range: DateRange, campaignId?: string): SelectQueryBuilder<any, any, any> {
  const keys = DAILY_KEYS[table].map((key) => `d.${key}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let query = (getDb() as unknown as Kysely<any>)
    .selectFrom(`${table} as d`)
    .select([...keys, ...metricSums("d")])
    .where("d.customer_id", "=", customerId)
    .where("d.date", ">=", range.from)
    .where("d.date", "<=", range.to);
  if (campaignId !== undefined) query = query.where("d.campaign_id", "=", campaignId);
  return query.groupBy(keys);
}

/** The metric columns of an aggregated subquery `alias`, 0 where the entity had no rows. */
export function metricColumnsOf(alias: string) {
  return METRIC_COLUMNS.map((column) => sql<number>`COALESCE(${sql.ref(`${alias}.${column}`)}, 0)`.as(column));
}

/**
 * A ratio of lib/metrics.ts RATIOS over aggregated columns of `alias`, NULL
 * when the denominator is 0, so sorting and display divide the same way.
 */
export function ratioSql(key: RatioKey, alias: string): RawBuilder<number | null> {
  const def = RATIOS[key];
  const numerator = sql`CAST(COALESCE(${sql.ref(`${alias}.${METRIC_COLUMN[def.numerator]}`)}, 0) AS double precision)`;
  const denominator = sql`(CAST(COALESCE(${sql.ref(`${alias}.${METRIC_COLUMN[def.denominator]}`)}, 0) AS double precision) * ${sql.lit(def.denominatorScale)})`;
  return sql<number | null>`CASE WHEN ${denominator} = 0 THEN NULL ELSE ${numerator} / ${denominator} END`;
}

/** The sort expression of a metric (a column or a ratio) of the summed subquery `alias`, or null when `key` is not one. */
export function metricSortSql(key: string, alias: string): RawBuilder<unknown> | null {
  switch (key) {
    case "impressions":
    case "clicks":
    case "conversions":
      return sql`COALESCE(${sql.ref(`${alias}.${key}`)}, 0)`;
    case "cost":
      return sql`COALESCE(${sql.ref(`${alias}.cost_micros`)}, 0)`;
    case "ctr":
    case "averageCpc":
    case "costPerConversion":
    case "conversionValuePerCost":
      return ratioSql(key, alias);
    default:
      return null;
  }
}

/**
 * The filtered rows' count and metric totals as window aggregates over the
 * summed subquery `alias`: they see every row before LIMIT, so they come with
 * the page in the same scan. Read back with windowTotalsOf.
 */
export function windowTotals(alias: string) {
  return [
    sql<number>`COUNT(*) OVER ()`.as("total_count"),
    ...METRIC_COLUMNS.map((column) => sql<number>`SUM(COALESCE(${sql.ref(`${alias}.${column}`)}, 0)) OVER ()`.as(`total_${column}`)),
  ];
}

export function windowTotalsOf(row: Record<string, unknown>): { total: number; totals: Metrics } {
  return {
    total: Number(row.total_count),
    totals: metricsOf({
      impressions: row.total_impressions,
      clicks: row.total_clicks,
      cost_micros: row.total_cost_micros,
      conversions: row.total_conversions,
      conversions_value: row.total_conversions_value,
    }),
  };
}

/**
 * A search term's columns summed over days (and match types) in
 * ads_search_term_daily `alias`: its status, the keyword it matched (NULL when
 * it matched several: no single one to name), and the metric sums.
 */
export function searchTermSums(alias: string) {
  return [
    sql<string>`MAX(${sql.ref(`${alias}.status`)})`.as("status"),
    sql<
      string | null
    >`CASE WHEN MIN(${sql.ref(`${alias}.keyword_text`)}) = MAX(${sql.ref(`${alias}.keyword_text`)}) THEN MAX(${sql.ref(`${alias}.keyword_text`)}) END`.as(
      "keyword_text",
    ),
    ...metricSums(alias),
  ];
}

export type MetricRow = Record<MetricColumn, unknown>;

export function metricsOf(row: MetricRow): Metrics {
  return {
    impressions: Number(row.impressions ?? 0),
    clicks: Number(row.clicks ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
    conversions: fractionalSum(Number(row.conversions ?? 0)),
    conversionsValue: fractionalSum(Number(row.conversions_value ?? 0)),
  };
}

export const nullableNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** "%term%" for LIKE, with the user's own % and _ taken literally (ESCAPE '!'). */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}
