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

const MAX_EXACT_INTEGER = 2 ** 53;

/**
 * One group: its keys, first and last day with impressions, and where its
 * running sums start in the pool (per window × metric a sum, then the
 * compensations of SQLite's summation of the doubles).
 */
interface Group {
  keys: Array<string | null>;
  at: number;
  first: string | null;
  last: string | null;
}

const SLOTS = WINDOWS.length * METRIC_COLUMNS.length;
/** Each metric's place among the doubles (-1 for counts and micros, which need no compensation). */
const DOUBLE_AT = (() => {
  let next = 0;
  return METRIC_COLUMNS.map((m) => (DOUBLE_METRICS.has(m) ? next++ : -1));
})();
const DOUBLES = DOUBLE_AT.filter((d) => d >= 0).length;
/** A group's slots: its sums, then the doubles' compensations. */
const GROUP_SLOTS = SLOTS + WINDOWS.length * DOUBLES;

/** Where a daily table's values sit in the rows a sync stages. */
interface Layout {
  columns: readonly string[];
  keys: number[];
  date: number;
  metrics: number[];
}

/**
 * The same totals, summed in JavaScript as a SQLite sync stages the daily
 * rows, so the switch-over writes them instead of aggregating a million rows
 * inside its transaction (issue 14: 1.5 s of the 100,000-keyword bench
 * account's sync, on the one thread that does the sync's work).
 *
 * The numbers are the aggregation's exactly: counts and micros are integers
 * summed exactly (it gives up past 2^53); the doubles are summed as SQLite's
 * SUM() sums them (Kahan-Babuška-Neumaier, sqlite3/func.c), rows in the order
 * they come, which for the streams a sync reads (each entity's days in a row)
 * is the order SQLite's GROUP BY reads them from its index; groups come out in
 * GROUP BY's order (its keys in BINARY collation, NULL first). Anything it
 * cannot vouch for (a value not a number, a key not text) makes it give up,
 * and the SQL aggregation runs as before. PostgreSQL sums the doubles as
 * numeric (aggregateExactly), which this does not reproduce: SQLite only.
 */
export class WindowTotalsSum {
  private readonly bounds: Array<[string, string]>;
  private readonly groups = new Map<Entity, Map<string, Group>>();
  private readonly layouts = new Map<string, Layout>();
  private readonly last = new Map<Entity, Group>();
  private failed = false;
  /** Every group's sums and compensations side by side (GROUP_SLOTS each): one allocation, not two per group. */
  private pool = new Float64Array(256 * GROUP_SLOTS);
  private used = 0;

  constructor(period: Period) {
    const b = boundsOf(period);
    this.bounds = WINDOWS.map((w) => b[w]);
  }

  /** Rows staged for `table` (values in `columns` order); tables without totals are ignored. */
  add(table: string, columns: readonly string[], rows: readonly unknown[][]): void {
    const entity = ENTITY_OF_TABLE.get(table);
    if (!entity || this.failed) return;
    const layout = this.layoutOf(entity, columns);
    if (!layout) return this.giveUp();
    let groups = this.groups.get(entity);
    if (!groups) this.groups.set(entity, (groups = new Map()));
    const metricCount = METRIC_COLUMNS.length;
    const windowCount = this.bounds.length;
    let group = this.last.get(entity);
    let lastDate = "";
    let inWindow = 0;
    for (const row of rows) {
      // Rows of one entity come one after the other: the previous row's group is tried first.
      if (!group || !sameKeys(group.keys, row, layout.keys)) {
        const keys = layout.keys.map((at) => row[at] as string | null);
        if (keys.some((k) => k !== null && typeof k !== "string")) return this.giveUp();
        const id = JSON.stringify(keys);
        group = groups.get(id);
        if (!group) groups.set(id, (group = { keys, at: this.slots(), first: null, last: null }));
      }
      const date = row[layout.date];
      if (typeof date !== "string") return this.giveUp();
      if (date !== lastDate) {
        lastDate = date;
        inWindow = 0;
        for (let w = 0; w < windowCount; w++) if (date >= this.bounds[w][0] && date <= this.bounds[w][1]) inWindow |= 1 << w;
      }
      for (let m = 0; m < metricCount; m++) {
        const v = row[layout.metrics[m]];
        if (typeof v !== "number" || !Number.isFinite(v)) return this.giveUp();
        if (m === 0 && v > 0) {
          if (group.first === null || date < group.first) group.first = date;
          if (group.last === null || date > group.last) group.last = date;
        }
        if (inWindow === 0) continue;
        const doubleAt = DOUBLE_AT[m];
        const double = doubleAt >= 0;
        // Integers summed exactly as SQLite does (non-negative, so no partial sum exceeds the total).
        if (!double && (v < 0 || !Number.isInteger(v))) return this.giveUp();
        // SQLite keeps a REAL with no fraction as an integer on disk and reads it back as +0.0 for -0.0.
        const value = v + 0;
        const pool = this.pool;
        for (let w = 0; w < windowCount; w++) {
          if ((inWindow & (1 << w)) === 0) continue;
          const at = group.at + w * metricCount + m;
          if (!double) pool[at] += value;
          else {
            // kahanBabuskaNeumaierStep (sqlite3/func.c); out-of-window rows add SUM's integer 0, which changes nothing.
            const s = pool[at];
            const t = s + value;
            const err = group.at + SLOTS + w * DOUBLES + doubleAt;
            if (Math.abs(s) > Math.abs(value)) pool[err] += s - t + value;
            else pool[err] += value - t + s;
            pool[at] = t;
          }
        }
      }
    }
    this.last.set(entity, group!);
  }

  /** A stream that starts over: its table's sums so far are dropped. */
  reset(table: string): void {
    const entity = ENTITY_OF_TABLE.get(table);
    if (!entity) return;
    this.groups.delete(entity);
    this.last.delete(entity);
  }

  /** True unless it gave up: every value summed as the aggregation sums it, every integer sum exact. */
  ready(): boolean {
    if (this.failed) return false;
    for (const groups of this.groups.values()) {
      for (const g of groups.values()) {
        for (let at = 0; at < TOTAL_COLUMNS.length; at++)
          if (DOUBLE_AT[at % METRIC_COLUMNS.length] < 0 && this.pool[g.at + at] > MAX_EXACT_INTEGER) return false;
      }
    }
    return true;
  }

  /**
   * The totals rows as ads_window_totals holds them, in GROUP BY's order, one
   * at a time (the switch-over writes them in small statements, so they never
   * all exist as objects at once). Only when ready().
   */
  *rows(customerId: string): Generator<Record<string, unknown>> {
    if (!this.ready()) throw new Error("the summed window totals are not usable: write the aggregation instead");
    for (const entity of ENTITY_NAMES) {
      const keys = ENTITIES[entity].keys.map(([as]) => as);
      const groups = [...(this.groups.get(entity)?.values() ?? [])].sort((a, b) => compareKeys(a.keys, b.keys));
      for (const g of groups) {
        const row: Record<string, unknown> = { customer_id: customerId, entity, first_date: g.first, last_date: g.last };
        keys.forEach((k, i) => (row[k] = g.keys[i]));
        for (let at = 0; at < TOTAL_COLUMNS.length; at++) {
          const doubleAt = DOUBLE_AT[at % METRIC_COLUMNS.length];
          const w = Math.floor(at / METRIC_COLUMNS.length);
          row[TOTAL_COLUMNS[at]] = doubleAt >= 0 ? this.pool[g.at + at] + this.pool[g.at + SLOTS + w * DOUBLES + doubleAt] : this.pool[g.at + at];
        }
        yield row;
      }
    }
  }

  private layoutOf(entity: Entity, columns: readonly string[]): Layout | undefined {
    const table = ENTITIES[entity].table;
    const known = this.layouts.get(table);
    if (known?.columns === columns) return known;
    const at = (name: string) => columns.indexOf(name);
    const layout = { columns, keys: ENTITIES[entity].keys.map(([, column]) => at(column)), date: at("date"), metrics: METRIC_COLUMNS.map(at) };
    if ([...layout.keys, layout.date, ...layout.metrics].some((i) => i < 0)) return undefined;
    this.layouts.set(table, layout);
    return layout;
  }

  /** A new group's place in the pool, zeroed. */
  private slots(): number {
    if (this.used + GROUP_SLOTS > this.pool.length) {
      const grown = new Float64Array(Math.ceil((this.pool.length * 1.5) / GROUP_SLOTS) * GROUP_SLOTS);
      grown.set(this.pool);
      this.pool = grown;
    }
    const at = this.used;
    this.used += GROUP_SLOTS;
    return at;
  }

  private giveUp(): void {
    this.failed = true;
    this.groups.clear();
  }
}

const ENTITY_OF_TABLE = new Map(ENTITY_NAMES.map((e) => [ENTITIES[e].table, e]));

function sameKeys(keys: Array<string | null>, row: readonly unknown[], at: number[]): boolean {
  for (let i = 0; i < at.length; i++) if (keys[i] !== row[at[i]]) return false;
  return true;
}

/** SQLite's ORDER of GROUP BY keys: NULL first, then text in BINARY collation (UTF-8 bytes, i.e. code points). */
function compareKeys(a: Array<string | null>, b: Array<string | null>): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return compareCodePoints(x, y);
  }
  return 0;
}

function compareCodePoints(x: string, y: string): number {
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const cx = x.codePointAt(i)!;
    const cy = y.codePointAt(j)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
    i += cx > 0xffff ? 2 : 1;
    j += cy > 0xffff ? 2 : 1;
  }
  return x.length - i === 0 ? (y.length - j === 0 ? 0 : -1) : 1;
}

/**
 * Replaces the account's stored totals with `rows` (WindowTotalsSum.rows), in
 * the switch-over's transaction like writeWindowTotals.
 */
export async function writeSummedTotals(trx: Kysely<Database>, customerId: string, rows: Iterable<Record<string, unknown>>): Promise<void> {
  await trx.deleteFrom("ads_window_totals").where("customer_id", "=", customerId).execute();
  // Every entity's key columns: a row leaves the others NULL, as the aggregation's INSERT does.
  const keyColumns = [...new Set(ENTITY_NAMES.flatMap((e) => ENTITIES[e].keys.map(([as]) => as)))];
  const columns = ["customer_id", "entity", ...keyColumns, ...TOTAL_COLUMNS, "first_date", "last_date"];
  // Statements of a few hundred rows: large ones cost more to build and prepare than they save.
  const per = 200;
  let values: Array<Record<string, unknown>> = [];
  const flush = async () => {
    // Rows of the table's own columns, built by name.
    if (values.length > 0)
      await trx
        .insertInto("ads_window_totals")
        .values(values as never)
        .execute();
    values = [];
  };
  for (const r of rows) {
    values.push(Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
    if (values.length === per) await flush();
  }
  await flush();
}
