import { PostgresAdapter, sql, type AliasedRawBuilder, type Kysely, type SelectQueryBuilder } from "kysely";
import { METRIC_COLUMNS } from "../ads/metric-sql.server";
import type { Database } from "../db/schema";
import type { Period } from "./data.server";

// Each entity's metric totals over the engine's four windows, from its daily
// table. Summing ~930,000 daily rows per run was most of the engine's time on
// a 100,000-keyword account (README, benchmarks), so the sync's switch-over
// stores the totals (ads_window_totals, 0035) in the transaction that switches
// the rows in, and the engine reads those; it runs the same aggregation itself
// when they are missing or were made for another data window. Both paths run
// the one query below, so they give the same numbers.

export type Entity = "campaign" | "ad_group" | "keyword" | "search_term" | "ad";

/** ads_window_totals key column → the daily table's column it holds. */
type KeyColumn = "campaign_id" | "ad_group_id" | "item_id" | "status" | "keyword_criterion_id" | "keyword_text";

const ENTITIES: Record<Entity, { table: string; keys: Array<[KeyColumn, string]> }> = {
  campaign: { table: "ads_campaign_daily", keys: [["campaign_id", "campaign_id"]] },
  ad_group: { table: "ads_ad_group_daily", keys: [["ad_group_id", "ad_group_id"]] },
  keyword: {
    table: "ads_keyword_daily",
    keys: [
      ["ad_group_id", "ad_group_id"],
      ["item_id", "criterion_id"],
    ],
  },
  // Per status and matched keyword too: the engine merges a term's rows itself (data.server.ts).
  search_term: {
    table: "ads_search_term_daily",
    keys: [
      ["campaign_id", "campaign_id"],
      ["ad_group_id", "ad_group_id"],
      ["item_id", "search_term"],
      ["status", "status"],
      ["keyword_criterion_id", "keyword_criterion_id"],
      ["keyword_text", "keyword_text"],
    ],
  },
  ad: {
    table: "ads_ad_daily",
    keys: [
      ["ad_group_id", "ad_group_id"],
      ["item_id", "ad_id"],
    ],
  },
};

export const ENTITY_NAMES = Object.keys(ENTITIES) as Entity[];

const WINDOWS = ["w30", "w60", "all", "l30"] as const;

/** The totals' metric column names, `${window}_${metric}`, in a fixed order. */
export const TOTAL_COLUMNS = WINDOWS.flatMap((w) => METRIC_COLUMNS.map((m) => `${w}_${m}`));

/** The double precision metrics (the others are int64 counts and micros, summed exactly). */
const DOUBLE_METRICS = new Set<string>(["conversions", "conversions_value"]);

type Bounds = Record<(typeof WINDOWS)[number], [string, string]>;

const boundsOf = (p: Period): Bounds => ({
  w30: [p.from30, p.evalTo],
  w60: [p.from60, p.evalTo],
  all: [p.dataFrom, p.evalTo],
  l30: [p.last30From, p.dataTo],
});

/** SUM(CASE …) columns for every metric × window, plus first/last traffic day (SQLite). */
function windowColumns(p: Period): AliasedRawBuilder<unknown, string>[] {
  const bounds = boundsOf(p);
  const cols: AliasedRawBuilder<unknown, string>[] = [];
  for (const w of WINDOWS) {
    const [from, to] = bounds[w];
    for (const m of METRIC_COLUMNS) cols.push(sql`SUM(CASE WHEN date BETWEEN ${from} AND ${to} THEN ${sql.ref(m)} ELSE 0 END)`.as(`${w}_${m}`));
  }
  cols.push(sql`MIN(CASE WHEN impressions > 0 THEN date END)`.as("first_date"));
  cols.push(sql`MAX(CASE WHEN impressions > 0 THEN date END)`.as("last_date"));
  return cols;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Aggregation = SelectQueryBuilder<any, any, Record<string, unknown>>;

/** The aggregation over the daily rows: key columns under their ads_window_totals names, then the totals. */
function aggregate(db: Kysely<Database>, entity: Entity, customerId: string, period: Period): Aggregation {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return aggregateExactly(db, entity, customerId, period);
  const { table, keys } = ENTITIES[entity];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (db as unknown as Kysely<any>)
    .selectFrom(table)
    .select(keys.map(([as, column]) => sql.ref(column).as(as)))
    .select(windowColumns(period))
    .where("customer_id", "=", customerId)
    .groupBy(keys.map(([, column]) => column));
}

/**
 * PostgreSQL sums the doubles as numeric: a float sum depends on the order the
 * rows arrive in, which there follows the plan (before and after ANALYZE, in
 * the switch-over's transaction or not), so the stored totals and a later
 * aggregation could differ in the last digit. Summed exactly, they cannot.
 * Turning a double into numeric is costly (about half of the totals' time on
 * the 100,000-keyword bench account), so each row is converted once, not once
 * per window: the rows are first summed per key and window mask (which of
 * the four windows the day is in), then those sums per key. Exact sums in two
 * steps are the same sums.
 */
function aggregateExactly(db: Kysely<Database>, entity: Entity, customerId: string, period: Period): Aggregation {
  const { table, keys } = ENTITIES[entity];
  const bounds = boundsOf(period);
  const mask = sql.join(
    WINDOWS.map((w, bit) => sql`CASE WHEN date BETWEEN ${bounds[w][0]} AND ${bounds[w][1]} THEN ${sql.lit(1 << bit)} ELSE 0 END`),
    sql` | `,
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const k = db as unknown as Kysely<any>;
  const perMask = k
    .selectFrom(table)
    .select(keys.map(([as, column]) => sql.ref(column).as(as)))
    .select(sql<number>`${mask}`.as("window_mask"))
    .select(METRIC_COLUMNS.map((m) => (DOUBLE_METRICS.has(m) ? sql`SUM(CAST(${sql.ref(m)} AS numeric))` : sql`SUM(${sql.ref(m)})`).as(m)))
    .select([sql`MIN(CASE WHEN impressions > 0 THEN date END)`.as("first_date"), sql`MAX(CASE WHEN impressions > 0 THEN date END)`.as("last_date")])
    .where("customer_id", "=", customerId)
    // By the output column's name: the mask written out again would bind its dates as other parameters.
    .groupBy([...keys.map(([, column]) => sql.ref(column)), sql.ref("window_mask")]);
  return k
    .selectFrom(perMask.as("per_mask"))
    .select(keys.map(([as]) => sql.ref(`per_mask.${as}`).as(as)))
    .select(
      WINDOWS.flatMap((w, bit) =>
        METRIC_COLUMNS.map((m) => sql`SUM(CASE WHEN window_mask & ${sql.lit(1 << bit)} <> 0 THEN ${sql.ref(`per_mask.${m}`)} ELSE 0 END)`.as(`${w}_${m}`)),
      ),
    )
    .select([sql`MIN(per_mask.first_date)`.as("first_date"), sql`MAX(per_mask.last_date)`.as("last_date")])
    .groupBy(keys.map(([as]) => `per_mask.${as}`));
}

/**
 * Search terms are merged across rows in the order they come (data.server.ts),
 * so both paths read them in key order: the order SQLite's GROUP BY gives anyway.
 */
function inMergeOrder<Q extends { orderBy(ref: never): Q }>(query: Q, entity: Entity): Q {
  if (entity !== "search_term") return query;
  for (const [as] of ENTITIES[entity].keys) query = query.orderBy(as as never);
  return query;
}

export type TotalsRow = Partial<Record<KeyColumn, string | null>> & Record<string, unknown>;

/** One entity kind's totals, aggregated from the daily rows now. */
export async function aggregateTotals(db: Kysely<Database>, entity: Entity, customerId: string, period: Period): Promise<TotalsRow[]> {
  return (await inMergeOrder(aggregate(db, entity, customerId, period), entity).execute()) as TotalsRow[];
}

/** One entity kind's stored totals. */
export async function storedTotals(db: Kysely<Database>, entity: Entity, customerId: string): Promise<TotalsRow[]> {
  const keys = ENTITIES[entity].keys.map(([as]) => as);
  const query = db
    .selectFrom("ads_window_totals")
    .select([...keys, ...(TOTAL_COLUMNS as Array<`w30_impressions`>), "first_date", "last_date"])
    .where("customer_id", "=", customerId)
    .where("entity", "=", entity);
  return (await inMergeOrder(query, entity).execute()) as TotalsRow[];
}

/** The marker ads_sync_state.window_totals_for holds when the stored totals fit `period`. */
export const totalsMarker = (period: Pick<Period, "dataFrom" | "dataTo">) => `${period.dataFrom}/${period.dataTo}`;

/**
 * Replaces the account's stored totals with the aggregation of its daily rows
 * over `period`. Called inside the sync's switch-over transaction, after the
 * new rows are in: a sync that fails leaves the previous rows and totals.
 */
export async function writeWindowTotals(trx: Kysely<Database>, customerId: string, period: Period): Promise<void> {
  await trx.deleteFrom("ads_window_totals").where("customer_id", "=", customerId).execute();
  for (const entity of ENTITY_NAMES) {
    const keys = ENTITIES[entity].keys.map(([as]) => as);
    const select = aggregate(trx, entity, customerId, period).select([sql<string>`${customerId}`.as("customer_id"), sql<string>`${entity}`.as("entity")]);
    // Column order = the select's: keys, totals, first/last day, then customer and entity.
    await trx
      .insertInto("ads_window_totals")
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .columns([...keys, ...TOTAL_COLUMNS, "first_date", "last_date", "customer_id", "entity"] as any)
      .expression(select)
      .execute();
  }
}
