import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../../tests/setup/test-db";
import { withStager } from "./bulk-insert.server";

// Staged rows must come out of the switch-over exactly as they went in, on
// both databases: on PostgreSQL they travel as array literals built by hand.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await setupTestEnvironment();
});
afterAll(async () => {
  await ctx.cleanup();
});

const AD_COLUMNS = [
  "customer_id",
  "ad_group_id",
  "ad_id",
  "campaign_id",
  "type",
  "status",
  "ad_strength",
  "approval_status",
  "headlines",
  "descriptions",
  "path1",
  "path2",
  "final_urls",
] as const;
const DAILY_COLUMNS = [
  "customer_id",
  "campaign_id",
  "date",
  "impressions",
  "clicks",
  "cost_micros",
  "conversions",
  "conversions_value",
  "search_impression_share",
  "search_budget_lost_impression_share",
  "search_rank_lost_impression_share",
] as const;

const awkward = ['say "hi"', "back\\slash", "NULL", "", "a,b", "{braces}", "é漢字 ✓", " spaced ", '\\"', "tab\there", "line\nbreak"];

describe(`staging and switch-over (${testDialect})`, () => {
  it("keeps every value: quotes, backslashes, the word NULL, empty strings, nulls, large and fractional numbers", async () => {
    const ads = awkward.map((text, i) => [
      "1112223334",
      "10",
      String(100 + i),
      "7",
      i % 2 ? null : "RESPONSIVE_SEARCH_AD",
      "ENABLED",
      null,
      "APPROVED",
      JSON.stringify([{ text }]),
      JSON.stringify([{ text: `${text}!` }]),
      text,
      i % 3 ? null : text,
      JSON.stringify([`https://example.com/${encodeURIComponent(text)}`]),
    ]);
    const daily = Array.from({ length: 2_500 }, (_, i) => [
      "1112223334",
      String(17_000_000_000 + (i % 50)),
      `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (Math.floor(i / 50) % 28)).padStart(2, "0")}`,
      i * 1_000,
      i,
      9_007_199_254_740_000 + i,
      i / 3,
      i === 7 ? 0 : 1e-7 * i,
      i % 4 ? 0.123456789012345 : null,
      null,
      i % 5 === 0 ? 1 : null,
    ]);

    const ok = await ctx.db.connection().execute((conn) =>
      withStager(conn, testDialect, ["ads_ads", "ads_campaign_daily"], async (stager) => {
        await stager.append("ads_ads", AD_COLUMNS, ads);
        // Several appends: batches add up, in flight while the next is given.
        await stager.append("ads_campaign_daily", DAILY_COLUMNS, daily.slice(0, 1_000));
        await stager.append("ads_campaign_daily", DAILY_COLUMNS, daily.slice(1_000, 1_700));
        await stager.append("ads_campaign_daily", DAILY_COLUMNS, daily.slice(1_700));
        expect(stager.counts()).toEqual({ ads_ads: ads.length, ads_campaign_daily: daily.length });
        return stager.switchOver("1112223334", async () => true);
      }),
    );
    expect(ok).toBe(true);

    const storedAds = await ctx.db.selectFrom("ads_ads").select(AD_COLUMNS).orderBy("ad_id").execute();
    expect(storedAds.map((r) => AD_COLUMNS.map((c) => r[c]))).toEqual(ads);
    const storedDaily = await ctx.db.selectFrom("ads_campaign_daily").select(DAILY_COLUMNS).orderBy("campaign_id").orderBy("date").execute();
    const key = (r: unknown[]) => `${r[1]} ${r[2]}`;
    expect(storedDaily.map((r) => DAILY_COLUMNS.map((c) => r[c]))).toEqual([...daily].sort((a, b) => (key(a) < key(b) ? -1 : 1)));
  });

  it("rolls the whole switch-over back when what is derived from the new rows fails: previous rows stay", async () => {
    const before = await ctx.db.selectFrom("ads_ads").select(AD_COLUMNS).orderBy("ad_id").execute();
    expect(before.length).toBeGreaterThan(0);
    const failed = ctx.db.connection().execute((conn) =>
      withStager(conn, testDialect, ["ads_ads"], async (stager) => {
        await stager.append("ads_ads", AD_COLUMNS, [["1112223334", "10", "999", "7", null, "ENABLED", null, null, "[]", "[]", null, null, "[]"]]);
        return stager.switchOver(
          "1112223334",
          async () => true,
          async (trx) => {
            // The rows are in at this point, inside the transaction…
            expect(await trx.selectFrom("ads_ads").select("ad_id").where("customer_id", "=", "1112223334").execute()).toEqual([{ ad_id: "999" }]);
            throw new Error("totals failed");
          },
        );
      }),
    );
    await expect(failed).rejects.toThrow("totals failed");
    // …and out again after the failure.
    expect(await ctx.db.selectFrom("ads_ads").select(AD_COLUMNS).orderBy("ad_id").execute()).toEqual(before);
  });

  it("a batch that cannot be written fails the sync before anything is switched in, even when its write ran behind", async () => {
    const before = await ctx.db.selectFrom("ads_ads").select(AD_COLUMNS).orderBy("ad_id").execute();
    let claimed = false;
    const failed = ctx.db.connection().execute((conn) =>
      withStager(conn, testDialect, ["ads_ads"], async (stager) => {
        await stager.append("ads_ads", AD_COLUMNS, [["1112223334", "10", "1001", "7", null, "ENABLED", null, null, "[]", "[]", null, null, "[]"]]);
        // A column the table does not have: PostgreSQL reports it only once the write has run.
        await stager.append(
          "ads_ads",
          [...AD_COLUMNS.slice(0, -1), "no_such_column"],
          [["1112223334", "10", "1002", "7", null, "ENABLED", null, null, "[]", "[]", null, null, "[]"]],
        );
        return stager.switchOver("1112223334", async () => (claimed = true));
      }),
    );
    await expect(failed).rejects.toThrow(/no_such_column/);
    expect(claimed).toBe(false);
    expect(await ctx.db.selectFrom("ads_ads").select(AD_COLUMNS).orderBy("ad_id").execute()).toEqual(before);
  });
});
