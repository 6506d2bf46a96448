import { describe, it, expect } from "vitest";
import { DURING_LITERALS, duringRange, formatDay, parseDay } from "../util/dates";
import { demoSource, failure, RICH, SMALL, TODAY, type Row } from "../test/helpers";
import { createDemoStore } from "../demo/generate";
import { createAdsDataSource } from "./datasource";

const today = parseDay(TODAY) as number; // Sunday 2026-11-22
const range = (lit: (typeof DURING_LITERALS)[number]) => duringRange(lit, today).map(formatDay);

describe("DURING date literals (relative to the customer's today)", () => {
  it("computes every literal Google supports", () => {
    expect(range("TODAY")).toEqual(["2026-11-22", "2026-11-22"]);
    expect(range("YESTERDAY")).toEqual(["2026-11-21", "2026-11-21"]);
    expect(range("LAST_7_DAYS")).toEqual(["2026-11-15", "2026-11-21"]);
    expect(range("LAST_14_DAYS")).toEqual(["2026-11-08", "2026-11-21"]);
    expect(range("LAST_30_DAYS")).toEqual(["2026-10-23", "2026-11-21"]);
    expect(range("THIS_MONTH")).toEqual(["2026-11-01", "2026-11-22"]);
    expect(range("LAST_MONTH")).toEqual(["2026-10-01", "2026-10-31"]);
    expect(range("THIS_WEEK_SUN_TODAY")).toEqual(["2026-11-22", "2026-11-22"]);
    expect(range("THIS_WEEK_MON_TODAY")).toEqual(["2026-11-16", "2026-11-22"]);
    expect(range("LAST_WEEK_SUN_SAT")).toEqual(["2026-11-15", "2026-11-21"]);
    expect(range("LAST_WEEK_MON_SUN")).toEqual(["2026-11-09", "2026-11-15"]);
    expect(range("LAST_BUSINESS_WEEK")).toEqual(["2026-11-09", "2026-11-13"]);
    expect(DURING_LITERALS).toHaveLength(12);
  });

  it("handles month and year boundaries", () => {
    const jan2 = parseDay("2026-01-02") as number; // Friday
    expect(duringRange("LAST_MONTH", jan2).map(formatDay)).toEqual(["2025-12-01", "2025-12-31"]);
    expect(duringRange("THIS_WEEK_MON_TODAY", jan2).map(formatDay)).toEqual(["2025-12-29", "2026-01-02"]);
    expect(duringRange("LAST_7_DAYS", jan2).map(formatDay)).toEqual(["2025-12-26", "2026-01-01"]);
  });

  it("rejects LAST_90_DAYS with Google's exact error", () => {
    const ds = demoSource();
    const e = failure(() => ds.query(RICH, "SELECT campaign.id, metrics.clicks FROM campaign WHERE segments.date DURING LAST_90_DAYS"));
    expect(e.errorCode).toEqual({ queryError: "INVALID_VALUE_WITH_DURING_OPERATOR" });
    expect(e.message).toBe("Invalid date literal supplied for DURING operator: LAST_90_DAYS.");
    expect(e.trigger).toEqual({ stringValue: "LAST_90_DAYS" });
  });

  it("rejects DURING on a non-date field", () => {
    const e = failure(() => demoSource().query(RICH, "SELECT campaign.id FROM campaign WHERE campaign.name DURING LAST_7_DAYS"));
    expect(e.errorCode).toEqual({ queryError: "OPERATOR_FIELD_MISMATCH" });
  });

  it("DURING, BETWEEN and >=/<= select the same days", () => {
    const ds = demoSource();
    const dates = (where: string) =>
      (ds.query(RICH, `SELECT customer.id, segments.date, metrics.clicks FROM customer WHERE ${where}`).results as Row[]).map((r) => r.segments.date);
    const during = dates("segments.date DURING LAST_7_DAYS");
    expect(during).toEqual(["2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"]);
    expect(dates("segments.date BETWEEN '2026-11-15' AND '2026-11-21'")).toEqual(during);
    expect(dates("segments.date >= '2026-11-15' AND segments.date <= '2026-11-21'")).toEqual(during);
    expect(dates("segments.date BETWEEN '20261115' AND '20261121'")).toEqual(during);
  });

  it("TODAY has no data yet (history ends yesterday)", () => {
    const r = demoSource().query(RICH, "SELECT campaign.id, segments.date, metrics.clicks FROM campaign WHERE segments.date DURING TODAY");
    expect(r.results).toEqual([]);
  });

  it("resolves DURING in each customer's own time zone", () => {
    // 03:00 UTC on 22 Nov: still the 21st in New York, already the 22nd in Berlin.
    const store = createDemoStore({ now: () => new Date("2026-11-22T03:00:00Z"), scale: { days: 14 } });
    const src = createAdsDataSource(store);
    const yesterday = (cid: string) =>
      (src.query(cid, "SELECT customer.id, segments.date, metrics.impressions FROM customer WHERE segments.date DURING YESTERDAY").results as Row[]).map(
        (r) => r.segments.date,
      );
    expect(yesterday(RICH)).toEqual(["2026-11-20"]);
    expect(yesterday(SMALL)).toEqual(["2026-11-21"]);
  });

  it("validates date literals", () => {
    const ds = demoSource();
    expect(failure(() => ds.query(RICH, "SELECT campaign.id FROM campaign WHERE segments.date >= '2026/11/01'")).errorCode).toEqual({
      queryError: "INVALID_DATE_FORMAT",
    });
    expect(failure(() => ds.query(RICH, "SELECT campaign.id FROM campaign WHERE segments.date BETWEEN 'x' AND 'y'")).errorCode).toEqual({
      queryError: "INVALID_VALUE_WITH_BETWEEN_OPERATOR",
    });
    expect(failure(() => ds.query(RICH, "SELECT campaign.id FROM campaign WHERE segments.date = '2026-02-30'")).errorCode).toEqual({
      queryError: "INVALID_DATE_FORMAT",
    });
  });

  it("requires a finite range when a date segment is selected", () => {
    const ds = demoSource();
    const e = failure(() => ds.query(RICH, "SELECT campaign.id, segments.date, metrics.clicks FROM campaign WHERE segments.date >= '2026-11-01'"));
    expect(e.errorCode).toEqual({ queryError: "EXPECTED_FILTERS_ON_DATE_RANGE" });
    expect(e.message).toBe("Expects filters on the following field to limit a finite date range: 'segments.date'.");
    expect(failure(() => ds.query(RICH, "SELECT campaign.id, segments.month, metrics.clicks FROM campaign")).errorCode).toEqual({
      queryError: "EXPECTED_FILTERS_ON_DATE_RANGE",
    });
  });

  it("requires week/month/quarter filters on the first day of the period", () => {
    const ds = demoSource();
    const ok = ds.query(RICH, "SELECT customer.id, segments.week, metrics.clicks FROM customer WHERE segments.week = '2026-11-16'").results as Row[];
    expect(ok).toHaveLength(1);
    expect(ok[0].segments.week).toBe("2026-11-16");
    const e = failure(() => ds.query(RICH, "SELECT customer.id, segments.week, metrics.clicks FROM customer WHERE segments.week = '2026-11-18'"));
    expect(e.errorCode).toEqual({ queryError: "MISALIGNED_DATE_FOR_FILTER" });
  });
});
