import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createDemoStore, DEMO_RICH_CUSTOMER_ID, executeQuery } from "../../../../emulator/ads";
import { NOT_FAST } from "./row-readers.server";
import { STEPS, type StagedTable, type Step } from "./streams.server";

// The fast readers must give exactly what schema + toRow give, for every row
// the schema accepts, and leave every other row to the schema.

type AnyStep = Step<z.ZodType, StagedTable>;
const steps = STEPS as readonly AnyStep[];
const fastSteps = steps.filter((s) => s.fast);
const customerId = DEMO_RICH_CUSTOMER_ID;

/** What the schema's way gives for a row, in the step's column order; undefined if the schema refuses it. */
function slow(s: AnyStep, row: unknown): unknown[] | undefined {
  const parsed = s.schema.safeParse(row);
  if (!parsed.success) return undefined;
  const out = s.toRow(parsed.data, customerId) as Record<string, unknown>;
  return s.columns!.map((c) => out[c] ?? null);
}

function fast(s: AnyStep, row: unknown): unknown[] | "not fast" {
  try {
    return s.fast!(row as Record<string, unknown>, customerId);
  } catch (error) {
    if (error === NOT_FAST) return "not fast";
    throw error;
  }
}

const store = createDemoStore({ today: "2026-11-22" });
const range = { from: "2026-08-24", to: "2026-11-21" };
const sample = (s: AnyStep) => {
  const result = executeQuery(store, customerId, s.query(range));
  const rows: Array<Record<string, unknown>> = [];
  // About 2,000 rows spread over the stream: all kinds of rows, fast enough.
  const every = Math.max(1, Math.floor(result.rowCount / 2000));
  for (let i = 0; i < result.rowCount; i += every) rows.push(result.row(i));
  return rows;
};

describe("the sync's fast row readers", () => {
  it("cover the large streams", () => {
    expect(fastSteps.map((s) => s.table)).toEqual([
      "ads_campaign_daily",
      "ads_ad_group_daily",
      "ads_keywords",
      "ads_keyword_daily",
      "ads_ad_daily",
      "ads_search_term_daily",
    ]);
  });

  it.each(fastSteps.map((s) => [s.label, s] as const))("%s: the same values as schema + toRow for the emulator's rows", (_label, s) => {
    const rows = sample(s);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const expected = slow(s, row);
      expect(expected).toBeDefined();
      expect(Object.keys(s.toRow(s.schema.parse(row), customerId)).sort()).toEqual([...s.columns!].sort());
      expect(fast(s, row)).toEqual(expected);
    }
  });

  // Variations on a real row: values the schema accepts in other spellings, and values it refuses.
  const variants: Array<[string, (row: Record<string, any>) => void]> = [
    ["metrics unset", (r) => r.metrics && (r.metrics = {})],
    ["counts as numbers", (r) => r.metrics && Object.assign(r.metrics, { impressions: 12, clicks: 3 })],
    ["a fractional count", (r) => r.metrics && (r.metrics.clicks = 1.5)],
    ["a count past 2^53", (r) => r.metrics && (r.metrics.impressions = "9007199254740993")],
    ["cost as a decimal string", (r) => r.metrics && (r.metrics.costMicros = "1500000.5")],
    ["cost malformed", (r) => r.metrics && (r.metrics.costMicros = "12.5.3")],
    ["conversions as a string", (r) => r.metrics && (r.metrics.conversions = "2.5")],
    ["conversions NaN", (r) => r.metrics && (r.metrics.conversions = "NaN")],
    ["conversions Infinity as a string", (r) => r.metrics && (r.metrics.conversionsValue = "Infinity")],
    ["conversions null", (r) => r.metrics && (r.metrics.conversions = null)],
    ["impression share NaN", (r) => r.metrics && (r.metrics.searchImpressionShare = "NaN")],
    ["impression share a word", (r) => r.metrics && (r.metrics.searchImpressionShare = "high")],
    ["metrics an array", (r) => r.metrics && (r.metrics = [])],
    ["campaign id a number", (r) => (r.campaign = { id: 17 })],
    ["campaign missing", (r) => delete r.campaign],
    ["ad group id not digits", (r) => (r.adGroup = { id: "12a" })],
    ["date in another format", (r) => (r.segments = { ...r.segments, date: "20261101" })],
    ["extra fields", (r) => Object.assign(r, { extra: { x: 1 }, campaign: { ...r.campaign, name: "x" } })],
    ["search term status unset", (r) => r.searchTermView && delete r.searchTermView.status],
    ["search term status empty", (r) => r.searchTermView && (r.searchTermView.status = "")],
    ["search term keyword unset", (r) => r.segments && delete r.segments.keyword],
    ["search term keyword info unset", (r) => r.segments?.keyword && delete r.segments.keyword.info],
    ["search term criterion empty", (r) => r.segments?.keyword && (r.segments.keyword.adGroupCriterion = "")],
    ["keyword negative unset", (r) => r.adGroupCriterion?.keyword && delete r.adGroupCriterion.negative],
    ["keyword negative a string", (r) => r.adGroupCriterion?.keyword && (r.adGroupCriterion.negative = "false")],
    ["keyword quality info unset", (r) => r.adGroupCriterion && delete r.adGroupCriterion.qualityInfo],
    ["keyword quality score fractional", (r) => r.adGroupCriterion?.qualityInfo && (r.adGroupCriterion.qualityInfo.qualityScore = 7.5)],
    ["keyword bid as a number", (r) => r.adGroupCriterion?.keyword && (r.adGroupCriterion.cpcBidMicros = 1200000)],
    ["keyword text a number", (r) => r.adGroupCriterion?.keyword && (r.adGroupCriterion.keyword.text = 5)],
    ["keyword criterion id unset", (r) => r.adGroupCriterion && delete r.adGroupCriterion.criterionId],
  ];

  it.each(fastSteps.map((s) => [s.label, s] as const))("%s: other spellings give the schema's values, refused rows are left to the schema", (_label, s) => {
    const base = sample(s)[1];
    for (const [name, change] of variants) {
      const row = structuredClone(base);
      change(row);
      const expected = slow(s, row);
      const got = fast(s, row);
      if (expected === undefined) expect(got, name).toBe("not fast");
      else if (got !== "not fast") expect(got, name).toEqual(expected);
    }
  });
});
