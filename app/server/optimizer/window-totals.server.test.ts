// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../tests/setup/test-db";
import { addDays } from "~/lib/dates";
import { seededRandom } from "../../../tests/support/seeded-random";
import { METRIC_COLUMNS } from "../ads/metric-sql.server";
import { makePeriod } from "./data.server";
import { WindowTotalsSum, writeSummedTotals, writeWindowTotals } from "./window-totals.server";

// The totals a SQLite sync sums as it stages the rows must be the SQL
// aggregation's, value for value (doubles to the last bit) and row for row.
// PostgreSQL sums its doubles as numeric and keeps the SQL aggregation.
describe.skipIf(testDialect !== "sqlite")("WindowTotalsSum", () => {
  const CID = "1112223334";
  const FROM = "2026-08-24";
  const TO = "2026-11-21";
  const period = makePeriod(FROM, TO, null);
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await setupTestEnvironment();
  });
  afterAll(() => ctx.cleanup());
  beforeEach(async () => {
    for (const table of ["ads_keyword_daily", "ads_search_term_daily", "ads_campaign_daily", "ads_window_totals"] as const)
      await ctx.db.deleteFrom(table).execute();
  });

  const KEYWORD_COLUMNS = ["customer_id", "ad_group_id", "criterion_id", "campaign_id", "date", ...METRIC_COLUMNS];
  const TERM_COLUMNS = [
    "customer_id",
    "campaign_id",
    "ad_group_id",
    "search_term",
    "status",
    "keyword_criterion_id",
    "keyword_text",
    "date",
    ...METRIC_COLUMNS,
  ];

  const random = seededRandom(11);
  const metrics = () => {
    const impressions = random() < 0.2 ? 0 : Math.floor(random() * 500);
    // Fractions that do not add up exactly (data-driven attribution), and plain ones.
    const conversions = random() < 0.5 ? 0 : random() < 0.5 ? Math.floor(random() * 4) : random() * 3;
    return [impressions, Math.floor(impressions * random() * 0.1), Math.floor(random() * 2e7), conversions, conversions * (random() * 97.3 + 0.01)];
  };

  /** Rows as the streams send them: one entity's days in a row, some days missing. */
  function keywordRows(): unknown[][] {
    const rows: unknown[][] = [];
    for (const adGroup of ["140000000002", "140000000010"]) {
      for (let k = 0; k < 6; k++) {
        for (let day = 0; day < 90; day++) if (random() < 0.8) rows.push([CID, adGroup, `30000000${k}`, "17000000000", addDays(FROM, day), ...metrics()]);
      }
    }
    return rows;
  }

  function termRows(): unknown[][] {
    // NULL keys, characters past ASCII in an order UTF-16 and UTF-8 disagree on (U+FF5A, U+1F600).
    const terms: Array<[string, string, string | null, string | null]> = [
      ["tents", "ADDED", "300000001", "tents"],
      ["tents", "NONE", null, null],
      ["tents", "NONE", "300000001", null],
      ["\uff5a tent", "NONE", "300000002", "tent"],
      ["\u{1f600} tent", "NONE", "300000002", "tent"],
      ["tent stakes", "EXCLUDED", "300000003", "tent stakes"],
      ["Tents", "NONE", "300000001", "tents"],
    ];
    const rows: unknown[][] = [];
    for (const [term, status, criterion, text] of terms) {
      for (let day = 0; day < 90; day++)
        if (random() < 0.6) rows.push([CID, "17000000000", "140000000002", term, status, criterion, text, addDays(FROM, day), ...metrics()]);
    }
    return rows;
  }

  async function insert(table: "ads_keyword_daily" | "ads_search_term_daily", columns: string[], rows: unknown[][]) {
    for (let i = 0; i < rows.length; i += 500) {
      const values = rows.slice(i, i + 500).map((r) => Object.fromEntries(columns.map((c, j) => [c, r[j]])));
      await ctx.db
        .insertInto(table)
        .values(values as never)
        .execute();
    }
  }

  const stored = () => ctx.db.selectFrom("ads_window_totals").selectAll().orderBy(sqlRowid).execute();
  const sqlRowid = "rowid" as never;

  async function bothWays(sums: WindowTotalsSum) {
    await writeWindowTotals(ctx.db, CID, period);
    const aggregated = await stored();
    expect(sums.ready()).toBe(true);
    await writeSummedTotals(ctx.db, CID, sums.rows(CID));
    return { aggregated, summed: await stored() };
  }

  it("gives exactly the SQL aggregation's totals, in its order", async () => {
    const keywords = keywordRows();
    const terms = termRows();
    await insert("ads_keyword_daily", KEYWORD_COLUMNS, keywords);
    await insert("ads_search_term_daily", TERM_COLUMNS, terms);
    const sums = new WindowTotalsSum(period);
    // In batches, as a stream stages them.
    for (let i = 0; i < keywords.length; i += 97) sums.add("ads_keyword_daily", KEYWORD_COLUMNS, keywords.slice(i, i + 97));
    sums.add("ads_search_term_daily", TERM_COLUMNS, terms);
    sums.add("ads_campaigns", ["customer_id", "id"], [[CID, "17000000000"]]);
    const { aggregated, summed } = await bothWays(sums);
    expect(aggregated.filter((r) => r.entity === "keyword")).toHaveLength(12);
    expect(aggregated.filter((r) => r.entity === "search_term")).toHaveLength(7);
    expect(aggregated.some((r) => !Number.isInteger(r.w30_conversions))).toBe(true);
    expect(summed).toStrictEqual(aggregated);
  });

  it("keeps a large account's many groups apart", async () => {
    const rows: unknown[][] = [];
    for (let k = 0; k < 700; k++) {
      for (let day = 80; day < 90; day += 3)
        rows.push([CID, `14000000${String(k % 37).padStart(4, "0")}`, `3${String(k).padStart(8, "0")}`, "17000000000", addDays(FROM, day), ...metrics()]);
    }
    await insert("ads_keyword_daily", KEYWORD_COLUMNS, rows);
    const sums = new WindowTotalsSum(period);
    for (let i = 0; i < rows.length; i += 1000) sums.add("ads_keyword_daily", KEYWORD_COLUMNS, rows.slice(i, i + 1000));
    const { aggregated, summed } = await bothWays(sums);
    expect(aggregated).toHaveLength(700);
    expect(summed).toStrictEqual(aggregated);
  });

  it("drops a table's sums when its stream starts over", async () => {
    const keywords = keywordRows();
    await insert("ads_keyword_daily", KEYWORD_COLUMNS, keywords);
    const sums = new WindowTotalsSum(period);
    sums.add("ads_keyword_daily", KEYWORD_COLUMNS, keywords.slice(0, 300));
    sums.reset("ads_keyword_daily");
    sums.add("ads_keyword_daily", KEYWORD_COLUMNS, keywords);
    const { aggregated, summed } = await bothWays(sums);
    expect(summed).toStrictEqual(aggregated);
  });

  it("gives up on values it cannot vouch for, so the SQL aggregation runs", () => {
    const row = keywordRows()[0];
    const spoilt = (at: number, value: unknown) => {
      const sums = new WindowTotalsSum(period);
      const copy = [...row];
      copy[at] = value;
      sums.add("ads_keyword_daily", KEYWORD_COLUMNS, [row, copy]);
      return sums.ready();
    };
    expect(spoilt(5, "12")).toBe(false); // a count as text
    expect(spoilt(5, 1.5)).toBe(false); // a count with a fraction
    expect(spoilt(8, Number.NaN)).toBe(false);
    expect(spoilt(1, 14)).toBe(false); // a key not text
    expect(spoilt(4, null)).toBe(false); // no date
    expect(spoilt(7, 2 ** 53)).toBe(false); // a sum past what a double holds exactly
    expect(spoilt(6, 3)).toBe(true);
  });
});
