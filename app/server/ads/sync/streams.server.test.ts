import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createDemoStore, DEMO_RICH_CUSTOMER_ID, executeQuery } from "../../../../emulator/ads";
import { seededRandom } from "../../../../tests/support/seeded-random";
import { decodeBatch } from "./batch-decoder.server";
import { STEPS, type StagedTable, type Step } from "./streams.server";

// The plans' batch decoder (a batch's bytes) must give exactly what schema +
// toRow give, for every row the schema accepts, and leave every batch with
// another row to the schema. (The plans' reader of parsed rows was removed:
// it no longer paid on the backfill, ADR 021.)

type AnyStep = Step<z.ZodType, StagedTable>;
const steps = STEPS as readonly AnyStep[];
const fastSteps = steps.filter((s) => s.compiled);
const customerId = DEMO_RICH_CUSTOMER_ID;

/** What the schema's way gives for a row, in the step's column order; undefined if the schema refuses it. */
function slow(s: AnyStep, row: unknown): unknown[] | undefined {
  const parsed = s.schema.safeParse(row);
  if (!parsed.success) return undefined;
  const out = s.toRow(parsed.data, customerId) as Record<string, unknown>;
  return s.columns!.map((c) => out[c] ?? null);
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

/** The batch decoder's reading of rows sent as one searchStream batch. */
function decoded(s: AnyStep, rows: unknown[], indent?: number): unknown[][] | undefined {
  const element = JSON.stringify({ results: rows, fieldMask: "campaign.id", requestId: "r1" }, null, indent);
  return decodeBatch(s.compiled!, Buffer.from(element, "utf8"), customerId);
}

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
    }
    // Straight from the bytes: compact as the emulator sends it, indented as Google does.
    const expected = rows.map((row) => slow(s, row));
    expect(decoded(s, rows)).toEqual(expected);
    expect(decoded(s, rows, 2)).toEqual(expected);
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
      // The row alone: decoded to the schema's values, or left to the schema (always, when it refuses it).
      const alone = decoded(s, [row]);
      if (expected === undefined) expect(alone, name).toBeUndefined();
      else if (alone !== undefined) expect(alone, name).toEqual([expected]);
      // A batch holding the row beside a plain one: decoded whole, or left whole to the general way.
      const batch = decoded(s, [base, row]);
      if (expected === undefined) expect(batch, name).toBeUndefined();
      else if (batch !== undefined) expect(batch, name).toEqual([slow(s, base), expected]);
    }
  });
});

describe("the batch decoder", () => {
  const keywords = steps.find((s) => s.table === "ads_keywords")!;
  const daily = steps.find((s) => s.table === "ads_keyword_daily")!;
  const row = sample(keywords)[1];
  const dailyRow = sample(daily)[1];
  const bytes = (text: string) => Buffer.from(text, "utf8");
  const decode = (s: AnyStep, text: string) => decodeBatch(s.compiled!, bytes(text), customerId);

  it("reads the plain batches every stream sends, however spaced", () => {
    expect(decode(daily, "{}")).toEqual([]);
    expect(decode(daily, '{"fieldMask":"x","requestId":"r"}')).toEqual([]);
    expect(decode(daily, ' { "results" : [ ] } ')).toEqual([]);
    const spaced = JSON.stringify({ results: [dailyRow] }, null, "\t").replace(/:/g, " :\r\n");
    expect(decode(daily, spaced)).toEqual([slow(daily, dailyRow)]);
    expect(decode(daily, JSON.stringify({ queryResourceConsumption: "12", results: [dailyRow, dailyRow] }))).toEqual([
      slow(daily, dailyRow),
      slow(daily, dailyRow),
    ]);
  });

  it("reads text as JSON.parse does: escapes, characters past ASCII, unknown values skipped", () => {
    for (const text of ['say "hi"\\', "café ☕ 𝄞", "tab\there", "\u00e9\u2028"]) {
      const variant = structuredClone(row) as Record<string, any>;
      variant.adGroupCriterion.keyword.text = text;
      variant.adGroupCriterion.extra = { list: [1, -2.5e3, true, false, null, 'x"y', { z: [] }], s: "é" };
      const got = decode(keywords, JSON.stringify({ results: [variant] }));
      expect(got, text).toEqual([slow(keywords, variant)]);
      expect(got![0][4]).toBe(text);
    }
  });

  it("reads every number exactly as JSON.parse does: fractions by the fast path, the rest by Number()", () => {
    // Decimal fractions up to 2^53 in their digits take the decoder's own path (digits ÷ 10^k);
    // longer ones, exponents and integers past 15 digits go through Number(). Each value is
    // checked as a double (Object.is: -0 too), across the boundaries of both paths.
    const texts = ["0.1", "0.5", "1.25", "-0.0", "0.0", "-2.75", "0.30000000000000004", "0.6380065637826919", "9007199254740.992", "9007199254740.993"];
    texts.push(
      "900719925474099.3",
      "0.0000000000000000000001",
      "0.00000000000000000000001",
      "123456789012345678.5",
      "1e-7",
      "2.5E+3",
      "-1.5e2",
      "1234567890123456",
    );
    const random = seededRandom(7);
    for (let k = 0; k < 3000; k++) {
      const d = random() * 10 ** Math.floor(random() * 12 - 4);
      texts.push(String(d), d.toFixed(Math.floor(random() * 20)), (-d).toPrecision(1 + Math.floor(random() * 17)));
    }
    for (const text of texts) {
      const element = JSON.stringify({ results: [dailyRow] }).replace(/"conversions":[^,}]+/, `"conversions":${text}`);
      const got = decode(daily, element);
      const expected = slow(daily, JSON.parse(element).results[0]);
      expect(got, text).toBeDefined();
      const at = daily.columns!.indexOf("conversions");
      expect(Object.is(got![0][at], expected![at]), `${text}: ${String(got![0][at])} against ${String(expected![at])}`).toBe(true);
    }
  });

  it("leaves every batch out of the ordinary to the general way", () => {
    const plain = JSON.stringify({ results: [dailyRow] });
    const odd = [
      ["an error", JSON.stringify({ error: { code: 8, status: "RESOURCE_EXHAUSTED" } })],
      ["a summary row", JSON.stringify({ results: [dailyRow], summaryRow: { metrics: {} } })],
      ["results twice", plain.replace(/}$/, ',"results":[]}')],
      ["results not a list", JSON.stringify({ results: dailyRow })],
      ["a row not an object", JSON.stringify({ results: [dailyRow, 5] })],
      ["a key escaped", plain.replace('"campaign"', '"\\u0063ampaign"')],
      ["a message twice", plain.replace('"campaign":', '"campaign":{"id":"9"},"campaign":')],
      ["a value twice", plain.replace('"impressions":', '"clicks":"1","impressions":')],
      ["a value null", plain.replace(/"clicks":"?\d+"?/, '"clicks":null')],
      ["cut off", plain.slice(0, -2)],
      ["trailing bytes", `${plain} x`],
      ["a trailing comma", plain.replace("]}", ",]}")],
      ["a control character in a string", plain.replace('"metrics":{', '"metrics":{"n":"a\u0001b",')],
      ["a bad escape", plain.replace('"metrics":{', '"metrics":{"n":"a\\qb",')],
      ["a number with a leading zero", plain.replace('"metrics":{', '"metrics":{"n":01,')],
      ["a bare word", plain.replace('"metrics":{', '"metrics":{"n":nope,')],
      ["an unknown key beside results", plain.replace(/}$/, ',"n":1}')],
      ["a list cut short", plain.replace('"metrics":{', '"metrics":{"n":[1,],')],
    ] as const;
    for (const [name, text] of odd) expect(decode(daily, text), name).toBeUndefined();
    expect(decode(daily, plain)).toEqual([slow(daily, dailyRow)]);
  });
});
