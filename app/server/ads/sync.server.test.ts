// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID, generationReports } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { getConnection } from "../auth/google-connection.server";
import { loadAccountData, makePeriod } from "../optimizer/data.server";
import { getAnalysisState } from "../optimizer/in-flight.server";
import { adsClientFor, getAccount } from "./accounts.server";
import { Double, Int64, Micros, parseRows, type AdsClient } from "./client.server";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import {
  DETAIL_STEP_COUNT,
  DETAIL_TABLES,
  OVERVIEW_STEP_COUNT,
  STALE_RUNNING_MS,
  SYNC_STEP_COUNT,
  SYNCED_TABLES,
  getSyncState,
  syncAccount,
  SyncAccessError,
  type SyncState,
} from "./sync.server";
import { z } from "zod";
import { SYNC_STEPS } from "./sync/streams.server";

// The whole sync against the project's Google emulator over HTTP, through the
// app's real connection (OAuth tokens stored encrypted, accounts discovered,
// login-customer-id from ads_accounts). The rich demo account (1112223334) is
// reached through its manager (1234567890); the small bakery (5556667778) keeps
// the single-flight tests quick.

const RICH = DEMO_RICH_CUSTOMER_ID;
const SMALL = DEMO_SMALL_CUSTOMER_ID;
// Pinned, so the 90-day window and the emulator's data agree at any hour of the real day.
const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const clock = () => NOW;
const FIRST_DAY = "2026-08-24";
const LAST_DAY = "2026-11-21";

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
let direct: AdsClient;

const searchStreams = () => emu.calls.searchStream ?? 0;

async function countRows(table: (typeof SYNCED_TABLES)[number], customerId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom(table)
    .select(sql<number>`COUNT(*)`.as("n"))
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function snapshot(customerId: string) {
  const counts: Record<string, number> = {};
  for (const table of SYNCED_TABLES) counts[table] = await countRows(table, customerId);
  const cost = await ctx.db
    .selectFrom("ads_keyword_daily")
    .select(sql<number>`COALESCE(SUM(cost_micros), 0)`.as("cost"))
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  // The engine's stored window totals (0035) and the data window they were made for.
  const totals = await ctx.db
    .selectFrom("ads_window_totals")
    .select([sql<number>`COUNT(*)`.as("n"), sql<number>`COALESCE(SUM(all_cost_micros), 0)`.as("cost"), sql<number>`COALESCE(SUM(l30_clicks), 0)`.as("clicks")])
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  const marker = await ctx.db.selectFrom("ads_sync_state").select("window_totals_for").where("customer_id", "=", customerId).executeTakeFirst();
  return {
    counts,
    keywordCost: Number(cost.cost),
    totals: { rows: Number(totals.n), allCost: Number(totals.cost), last30Clicks: Number(totals.clicks), for: marker?.window_totals_for ?? null },
  };
}

const Totals = z.object({
  metrics: z.object({
    impressions: Int64,
    clicks: Int64,
    costMicros: Micros,
    conversions: Double,
    conversionsValue: Double,
  }),
});

/** Metric totals straight from the emulator (not through the sync), summed over the rows GAQL returns. */
async function gaqlTotals(customerId: string, from: string, resource: string) {
  const rows = parseRows(
    Totals,
    await direct.searchStream(
      customerId,
      `SELECT metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value
       FROM ${resource} WHERE segments.date BETWEEN '${from}' AND '${LAST_DAY}'`,
      { loginCustomerId: DEMO_MANAGER_CUSTOMER_ID },
    ),
  );
  return rows.reduce(
    (t, r) => ({
      impressions: t.impressions + r.metrics.impressions,
      clicks: t.clicks + r.metrics.clicks,
      costMicros: t.costMicros + r.metrics.costMicros,
      conversions: t.conversions + r.metrics.conversions,
      conversionsValue: t.conversionsValue + r.metrics.conversionsValue,
    }),
    { impressions: 0, clicks: 0, costMicros: 0, conversions: 0, conversionsValue: 0 },
  );
}

async function localTotals(table: "ads_campaign_daily" | "ads_keyword_daily" | "ads_ad_group_daily" | "ads_search_term_daily", customerId: string) {
  const row = await ctx.db
    .selectFrom(table)
    .select([
      sql<number>`COALESCE(SUM(impressions), 0)`.as("impressions"),
      sql<number>`COALESCE(SUM(clicks), 0)`.as("clicks"),
      sql<number>`COALESCE(SUM(cost_micros), 0)`.as("costMicros"),
      sql<number>`COALESCE(SUM(conversions), 0)`.as("conversions"),
      sql<number>`COALESCE(SUM(conversions_value), 0)`.as("conversionsValue"),
    ])
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  return {
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    costMicros: Number(row.costMicros),
    conversions: Number(row.conversions),
    conversionsValue: Number(row.conversionsValue),
  };
}

function expectSameTotals(actual: Record<string, number>, expected: Record<string, number>) {
  expect(actual.impressions).toBe(expected.impressions);
  expect(actual.clicks).toBe(expected.clicks);
  expect(actual.costMicros).toBe(expected.costMicros);
  expect(actual.conversions).toBeCloseTo(expected.conversions, 4);
  expect(actual.conversionsValue).toBeCloseTo(expected.conversionsValue, 2);
}

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  direct = adsClientFor((await getConnection(userId))!);
});

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

/** What the screens could read while the first sync's detail import runs (taken in onProgress, the job waiting). */
interface BetweenStages {
  state: SyncState;
  counts: Record<string, number>;
  windowTotals: number;
  analysis: string;
  recommendations: number;
}

async function recommendationCount(customerId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom("recommendations")
    .select(sql<number>`COUNT(*)`.as("n"))
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("a full sync of the rich demo account", () => {
  let state: SyncState;
  const progress: SyncState[] = [];
  let between: BetweenStages | undefined;

  beforeAll(async () => {
    expect(await getSyncState(RICH)).toMatchObject({ status: "never", lastSuccessAt: null });
    const before = searchStreams();
    state = await syncAccount(userId, RICH, {
      now: clock,
      onProgress: async (s) => {
        progress.push(s);
        // Right after stage 1's switch-over (the job waits for this callback): what a page would read now.
        if (s.status === "ok" && s.detail.status === "running" && s.detail.progressDone === 0) {
          const { counts, totals } = await snapshot(RICH);
          between = {
            state: s,
            counts,
            windowTotals: totals.rows,
            analysis: (await getAnalysisState(ctx.db, RICH)).status,
            recommendations: await recommendationCount(RICH),
          };
        }
      },
    });
    expect(searchStreams() - before).toBe(SYNC_STEP_COUNT - 1);
    // ~450,000 rows generated and served by the in-process emulator: minutes on a shared, loaded machine.
  }, 180_000);

  it("reaches the client through its manager and finishes ok", async () => {
    expect((await getAccount(userId, RICH))?.login_customer_id).toBe(DEMO_MANAGER_CUSTOMER_ID);
    expect(state).toMatchObject({
      status: "ok",
      lastError: null,
      // A first sync: its progress bar counts stage 1 (the detail import has its own).
      progressDone: OVERVIEW_STEP_COUNT,
      progressTotal: OVERVIEW_STEP_COUNT,
      currentStep: null,
      dataFrom: FIRST_DAY,
      dataTo: LAST_DAY,
      lastSuccessAt: NOW.toISOString(),
      // Raised with each of the first sync's two switch-overs: the report pages' cached reads are keyed on it.
      dataVersion: 2,
      detail: { status: "ok", currentStep: null, lastError: null, progressDone: DETAIL_STEP_COUNT, progressTotal: DETAIL_STEP_COUNT },
    });
    expect(await getSyncState(RICH, ctx.db, NOW)).toMatchObject({ status: "ok" });
  });

  it("reports progress after every stream, in order: stage 1's streams, its switch-over, then the detail import's", () => {
    const running = progress.filter((p) => p.status === "running");
    expect(running.map((p) => p.progressDone)).toEqual(Array.from({ length: OVERVIEW_STEP_COUNT - 1 }, (_, i) => i + 1));
    expect(running.every((p) => p.progressTotal === OVERVIEW_STEP_COUNT && p.detail.status === "never")).toBe(true);
    expect(running.map((p) => p.currentStep)).toEqual([
      "Loading campaign performance",
      "Loading ad groups",
      "Loading ad group performance",
      "Loading keywords",
      "Loading negative keywords",
      "Loading ads",
      "Loading ad asset performance",
      "Loading asset groups",
      "Loading asset group assets",
      "Loading listing groups",
      "Saving",
    ]);
    // Stage 1 switched in: status "ok" for every existing reader; the detail import goes on.
    const detail = progress.filter((p) => p.status === "ok" && p.detail.status === "running");
    expect(detail.map((p) => [p.detail.progressDone, p.detail.currentStep])).toEqual([
      [0, "Loading keyword performance"],
      [1, "Loading ad performance"],
      [2, "Loading search terms"],
      [3, "Saving"],
    ]);
    expect(detail.every((p) => p.lastSuccessAt === NOW.toISOString() && p.currentStep === null && p.detail.progressTotal === DETAIL_STEP_COUNT)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ status: "ok", detail: { status: "ok" } });
    expect(progress.length).toBe(running.length + detail.length + 1);
  });

  it("between the stages: the overview tables are in, the detail tables empty, the engine not run but announced", () => {
    expect(between).toBeDefined();
    const { counts, state: s } = between!;
    for (const table of SYNCED_TABLES) {
      if (DETAIL_TABLES.includes(table)) expect(counts[table], table).toBe(0);
      else expect(counts[table], table).toBe(state.rowCounts![table]);
    }
    expect(s.rowCounts).toEqual(Object.fromEntries(SYNCED_TABLES.filter((t) => !DETAIL_TABLES.includes(t)).map((t) => [t, counts[t]])));
    expect(s).toMatchObject({ status: "ok", dataFrom: FIRST_DAY, dataTo: LAST_DAY });
    // No window totals and no recommendations from stage 1's data alone; "Analysing your data…" meanwhile.
    expect(between!.windowTotals).toBe(0);
    expect(between!.recommendations).toBe(0);
    expect(between!.analysis).toBe("running");
    // Stage 1's switch-over raised the report cache's version once; stage 2's raises it again (2 at the end).
    expect(s.dataVersion).toBe(1);
  });

  it("queues the engine once the detail is in; its job stores the recommendations", async () => {
    await drainJobs(ctx.db, ["engine-run"]);
    expect(await recommendationCount(RICH)).toBeGreaterThan(0);
    expect((await getAnalysisState(ctx.db, RICH)).status).toBe("idle");
  });

  it("stores every entity the emulator generated", async () => {
    const generated = generationReports.get(emu.store)!.accounts.find((a) => a.customerId === RICH)!;
    const counts = (await snapshot(RICH)).counts;
    expect(state.rowCounts).toEqual(counts);
    expect(counts.ads_campaigns).toBe(generated.campaigns);
    expect(counts.ads_campaigns).toBeGreaterThanOrEqual(12);
    expect(counts.ads_ad_groups).toBe(generated.adGroups);
    expect(counts.ads_ad_groups).toBeGreaterThanOrEqual(60);
    // Positive keywords plus the ad-group negatives.
    expect(counts.ads_keywords).toBe(generated.keywords + generated.negativeKeywords);
    expect(generated.keywords).toBeGreaterThanOrEqual(1500);
    expect(counts.ads_ads).toBe(generated.ads);
    expect(counts.ads_search_term_daily).toBeGreaterThan(0);
    expect(counts.ads_campaign_negative_keywords).toBeGreaterThan(0);
    expect(counts.ads_ad_assets).toBeGreaterThan(0);
    const negatives = await ctx.db
      .selectFrom("ads_keywords")
      .select(sql<number>`COUNT(*)`.as("n"))
      .where("customer_id", "=", RICH)
      .where("negative", "=", 1)
      .executeTakeFirstOrThrow();
    expect(Number(negatives.n)).toBe(generated.negativeKeywords);
  });

  it("keeps 90 days of daily metrics ending yesterday in the account's time zone", async () => {
    for (const table of ["ads_campaign_daily", "ads_keyword_daily", "ads_search_term_daily"] as const) {
      const days = await ctx.db
        .selectFrom(table)
        .select([sql<number>`COUNT(DISTINCT date)`.as("n"), sql<string>`MIN(date)`.as("first"), sql<string>`MAX(date)`.as("last")])
        .where("customer_id", "=", RICH)
        .executeTakeFirstOrThrow();
      expect({ n: Number(days.n), first: days.first, last: days.last }).toEqual({ n: 90, first: FIRST_DAY, last: LAST_DAY });
    }
  });

  it("copies metrics exactly: local sums equal Google's for the same 90 days", async () => {
    expectSameTotals(await localTotals("ads_campaign_daily", RICH), await gaqlTotals(RICH, FIRST_DAY, "campaign"));
    expectSameTotals(await localTotals("ads_ad_group_daily", RICH), await gaqlTotals(RICH, FIRST_DAY, "ad_group"));
    expectSameTotals(await localTotals("ads_keyword_daily", RICH), await gaqlTotals(RICH, FIRST_DAY, "keyword_view"));
    expectSameTotals(await localTotals("ads_search_term_daily", RICH), await gaqlTotals(RICH, FIRST_DAY, "search_term_view"));
  });

  it("keeps what the optimizer needs: targets, budgets, quality scores, impression share, RSA assets", async () => {
    const climbing = await ctx.db
      .selectFrom("ads_campaigns")
      .selectAll()
      .where("customer_id", "=", RICH)
      .where("name", "=", "Search | Climbing Gear")
      .executeTakeFirstOrThrow();
    expect(climbing).toMatchObject({ bidding_strategy_type: "MAXIMIZE_CONVERSION_VALUE", target_roas: 3, advertising_channel_type: "SEARCH" });
    expect(climbing.budget_amount_micros).toBeGreaterThan(0);
    expect(climbing.budget_resource_name).toMatch(/^customers\/1112223334\/campaignBudgets\/\d+$/);
    const lost = await ctx.db
      .selectFrom("ads_campaign_daily")
      .select(sql<number>`AVG(search_budget_lost_impression_share)`.as("lost"))
      .where("customer_id", "=", RICH)
      .where("campaign_id", "=", climbing.id)
      .executeTakeFirstOrThrow();
    expect(Number(lost.lost)).toBeGreaterThan(0.3);

    const boots = await ctx.db
      .selectFrom("ads_keywords")
      .selectAll()
      .where("customer_id", "=", RICH)
      .where("ad_group_id", "=", "140000000137")
      .where("criterion_id", "=", "300000003885")
      .executeTakeFirstOrThrow();
    expect(boots).toMatchObject({
      text: "boots",
      match_type: "BROAD",
      negative: 0,
      quality_score: 2,
      creative_quality_score: "BELOW_AVERAGE",
      post_click_quality_score: "BELOW_AVERAGE",
      search_predicted_ctr: "BELOW_AVERAGE",
      campaign_id: "17000000024",
    });

    const weak = await ctx.db
      .selectFrom("ads_ads")
      .selectAll()
      .where("customer_id", "=", RICH)
      .where("ad_group_id", "=", "140000000078")
      .where("ad_id", "=", "650000000172")
      .executeTakeFirstOrThrow();
    expect(weak.ad_strength).toBe("POOR");
    expect(JSON.parse(weak.headlines)).toHaveLength(3);
    expect(JSON.parse(weak.descriptions)).toHaveLength(2);
    expect(JSON.parse(weak.final_urls)[0]).toMatch(/^https:\/\//);
    const labels = await ctx.db
      .selectFrom("ads_ad_assets")
      .select(["field_type", "performance_label", "text"])
      .where("customer_id", "=", RICH)
      .where("ad_id", "=", "650000000172")
      .execute();
    expect(labels).toHaveLength(5);
    expect(labels.filter((l) => l.performance_label === "LOW").length).toBeGreaterThanOrEqual(3);

    const term = await ctx.db
      .selectFrom("ads_search_term_daily")
      .select(["status", "keyword_text", "keyword_criterion_id", "match_type"])
      .where("customer_id", "=", RICH)
      .where("search_term", "=", "tent rental near me")
      .executeTakeFirstOrThrow();
    expect(term.status).toBe("EXCLUDED");
    expect(term.keyword_criterion_id).toMatch(/^\d+$/);
    expect(term.keyword_text).toBeTruthy();

    const rental = await ctx.db
      .selectFrom("ads_campaign_negative_keywords")
      .select(["match_type"])
      .where("customer_id", "=", RICH)
      .where("text", "=", "rental")
      .execute();
    expect(rental.length).toBeGreaterThan(5);
    expect(rental.every((r) => r.match_type === "PHRASE")).toBe(true);
  });

  it("stores the engine's window totals with the data: the engine reads exactly what aggregating the daily rows gives", async () => {
    const stored = await snapshot(RICH);
    expect(stored.totals.for).toBe(`${FIRST_DAY}/${LAST_DAY}`);
    expect(stored.totals.rows).toBeGreaterThan(1_000);
    expect(stored.totals.allCost).toBeGreaterThan(0);
    const fromTotals = await loadAccountData(ctx.db, RICH, "USD", NOW);
    // Without the marker the engine aggregates the daily rows itself (an account synced before 0035).
    await ctx.db.updateTable("ads_sync_state").set({ window_totals_for: null }).where("customer_id", "=", RICH).execute();
    try {
      const aggregated = await loadAccountData(ctx.db, RICH, "USD", NOW);
      expect(fromTotals).not.toBeNull();
      expect(fromTotals).toStrictEqual(aggregated);
    } finally {
      await ctx.db.updateTable("ads_sync_state").set({ window_totals_for: stored.totals.for }).where("customer_id", "=", RICH).execute();
    }
  }, 60_000);

  it("stores each keyword's window totals as the sums of its daily rows over each window", async () => {
    // Summed here in JavaScript, apart from the SQL that stored them (two steps on PostgreSQL).
    const period = makePeriod(FIRST_DAY, LAST_DAY, null);
    const windows = {
      w30: [period.from30, period.evalTo],
      w60: [period.from60, period.evalTo],
      all: [period.dataFrom, period.evalTo],
      l30: [period.last30From, period.dataTo],
    };
    const metrics = ["impressions", "clicks", "cost_micros", "conversions", "conversions_value"] as const;
    const daily = await ctx.db.selectFrom("ads_keyword_daily").selectAll().where("customer_id", "=", RICH).execute();
    const expected = new Map<string, Record<string, number | string | null>>();
    for (const row of daily) {
      const key = `${row.ad_group_id}/${row.criterion_id}`;
      let sums = expected.get(key);
      if (!sums) expected.set(key, (sums = { first_date: null, last_date: null }));
      for (const [w, [from, to]] of Object.entries(windows)) {
        for (const m of metrics) {
          const name = `${w}_${m}`;
          sums[name] = ((sums[name] as number | undefined) ?? 0) + (row.date >= from && row.date <= to ? Number(row[m]) : 0);
        }
      }
      if (Number(row.impressions) > 0) {
        if (sums.first_date === null || row.date < (sums.first_date as string)) sums.first_date = row.date;
        if (sums.last_date === null || row.date > (sums.last_date as string)) sums.last_date = row.date;
      }
    }
    const stored = await ctx.db.selectFrom("ads_window_totals").selectAll().where("customer_id", "=", RICH).where("entity", "=", "keyword").execute();
    expect(stored.length).toBe(expected.size);
    let windowed = 0;
    for (const row of stored) {
      const want = expected.get(`${row.ad_group_id}/${row.item_id}`);
      expect(want, `${row.ad_group_id}/${row.item_id}`).toBeDefined();
      for (const [name, value] of Object.entries(want!)) {
        const got = (row as Record<string, unknown>)[name];
        if (typeof value === "number") {
          if (name.endsWith("conversions") || name.endsWith("conversions_value")) expect(Number(got)).toBeCloseTo(value, 6);
          else expect(Number(got), name).toBe(value);
          if (name.startsWith("w30") && value > 0) windowed++;
        } else expect(got ?? null, name).toBe(value);
      }
    }
    // Not a vacuous check: the account's keywords have traffic in the judged windows.
    expect(windowed).toBeGreaterThan(100);
  }, 60_000);

  it("keeps the previous data and says which step failed when Google fails midway", async () => {
    const before = await snapshot(RICH);
    const previous = await getSyncState(RICH);
    const streams = searchStreams();
    // A quota error whose retry delay exceeds the client's 30 s cap is not retried: it fails the third stream.
    const failed = await syncAccount(userId, RICH, {
      now: () => new Date(NOW.getTime() + 60_000),
      full: true,
      onProgress: (s) => {
        if (s.status === "running" && s.progressDone === 2) {
          emu.emulator.state.setFaults([{ match: "searchStream", kind: "quota", retryDelaySeconds: 120 }]);
        }
      },
    }).finally(() => emu.emulator.state.clearFaults());
    // Rate limiting that outlasted the client's retries holds scheduled refreshes back a while; not this file's concern.
    await ctx.db.deleteFrom("google_ads_pause").execute();
    expect(searchStreams() - streams).toBe(3);
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toMatch(/^Loading ad groups failed: /);
    expect(failed.lastError).toMatch(/too many requests|quota|rate/i);
    expect(failed.lastSuccessAt).toBe(previous.lastSuccessAt);
    expect(failed.rowCounts).toEqual(previous.rowCounts);
    expect(failed.dataVersion).toBe(previous.dataVersion);
    expect(failed).toMatchObject({ dataFrom: FIRST_DAY, dataTo: LAST_DAY, currentStep: null });
    expect(await snapshot(RICH)).toEqual(before);
  }, 60_000);

  it("fails on a malformed row with the row and field, keeping the previous data", async () => {
    const before = await snapshot(RICH);
    let spoiltLeft = false;
    const bad: AdsClient = {
      ...direct,
      async searchStreamEach(customerId, query, onRows, opts) {
        const spoil = /FROM campaign WHERE/.test(query);
        const decoder = opts?.decoder;
        await direct.searchStreamEach(
          customerId,
          query,
          (rows) => {
            if (spoil) (rows[1] as { metrics: Record<string, unknown> }).metrics.costMicros = "12.5.3";
            return onRows(rows);
          },
          {
            ...opts,
            // The batch decoder sees the same row spoilt in the bytes: it must leave the batch to the general way.
            decoder: decoder && {
              ...decoder,
              decode: (bytes) => {
                if (!spoil) return decoder.decode(bytes);
                let seen = 0;
                const text = Buffer.from(bytes)
                  .toString("latin1")
                  .replace(/"costMicros":"\d+"/g, (m) => (++seen === 2 ? '"costMicros":"12.5.3"' : m));
                const rows = decoder.decode(Buffer.from(text, "latin1"));
                spoiltLeft = seen >= 2 && rows === undefined;
                return rows;
              },
            },
          },
        );
      },
    };
    const failed = await syncAccount(userId, RICH, { client: bad, now: clock });
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toMatch(/^Loading campaign performance failed: .*row 1 of campaign performance .*metrics\.costMicros/);
    expect(await snapshot(RICH)).toEqual(before);
    // The batch decoder saw the spoilt row too, and left its batch to the general way.
    expect(spoiltLeft).toBe(true);
  }, 60_000);

  it("a later sync is a refresh: what changed (nothing), the days still moving, one switch-over", async () => {
    const seen: SyncState[] = [];
    const streams = searchStreams();
    const version = (await getSyncState(RICH)).dataVersion;
    const full = (await getSyncState(RICH)).rowCounts!;
    const later = await syncAccount(userId, RICH, { now: () => new Date(NOW.getTime() + 120_000), onProgress: (s) => void seen.push(s) });
    // change_status, then the five daily streams over the last 14 days; no entity changed, none re-read.
    const daily = SYNC_STEPS.filter((s) => s.daily).length;
    expect(searchStreams() - streams).toBe(1 + daily);
    const total = daily + 2;
    const running = seen.filter((p) => p.status === "running");
    // "Checking for changes", then each stream.
    expect(running.map((p) => p.progressDone)).toEqual(Array.from({ length: total - 1 }, (_, i) => i + 1));
    expect(running.every((p) => p.progressTotal === total && p.detail.status === "ok")).toBe(true);
    expect(seen.filter((p) => p.status !== "running")).toHaveLength(1);
    expect(later).toMatchObject({ status: "ok", progressDone: total, progressTotal: total, dataFrom: FIRST_DAY, dataTo: LAST_DAY, detail: { status: "ok" } });
    // Only the daily tables were read, and only 14 of their 90 days.
    expect(Object.keys(later.rowCounts!).sort()).toEqual(
      SYNC_STEPS.filter((s) => s.daily)
        .map((s) => s.table)
        .sort(),
    );
    for (const [table, n] of Object.entries(later.rowCounts!)) expect(n, table).toBeLessThan(full[table] / 3);
    // The stored data is what it was: nothing changed at Google.
    expect((await snapshot(RICH)).counts).toEqual(full);
    expect(later.dataVersion).toBe(version + 1);
  }, 120_000);

  it("refuses accounts that are not the user's, and manager accounts", async () => {
    await expect(syncAccount(userId, "9998887776")).rejects.toBeInstanceOf(SyncAccessError);
    await expect(syncAccount("someone-else", RICH)).rejects.toBeInstanceOf(SyncAccessError);
    await expect(syncAccount(userId, DEMO_MANAGER_CUSTOMER_ID)).rejects.toThrow(/manager account/);
  });
});

describe("single flight (small account)", () => {
  it("runs one sync for concurrent callers", async () => {
    const streams = searchStreams();
    const [a, b] = await Promise.all([syncAccount(userId, SMALL), syncAccount(userId, SMALL)]);
    expect(a).toBe(b);
    expect(a.status).toBe("ok");
    expect(searchStreams() - streams).toBe(SYNC_STEP_COUNT - 1);
  }, 60_000);

  it("after a failure, says which step failed and why; the next success clears the error", async () => {
    emu.emulator.state.setFaults([{ match: "searchStream", kind: "dailyQuota", customerId: SMALL }]);
    const failed = await syncAccount(userId, SMALL, { full: true }).finally(() => emu.emulator.state.clearFaults());
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toMatch(/^Loading campaigns failed: Google Ads rate limit reached/);
    // Google's daily cap paused every call of the install (quota.server.test.ts); lifted here to go on.
    expect(await ctx.db.selectFrom("google_ads_pause").select("kind").execute()).toEqual([{ kind: "daily" }]);
    await ctx.db.deleteFrom("google_ads_pause").execute();
    expect(await syncAccount(userId, SMALL)).toMatchObject({ status: "ok", lastError: null });
  }, 60_000);

  it("leaves an account alone while another process syncs it, and takes over a claim dead for 15 minutes", async () => {
    const now = Date.now();
    const claim = (heartbeat: number) =>
      ctx.db
        .updateTable("ads_sync_state")
        .set({
          status: "running",
          run_id: "another-process",
          heartbeat_at: new Date(heartbeat).toISOString(),
          current_step: "Loading keywords",
          progress_done: 4,
        })
        .where("customer_id", "=", SMALL)
        .execute();
    const streams = searchStreams();

    await claim(now - 60_000);
    const busy = await syncAccount(userId, SMALL);
    expect(busy).toMatchObject({ status: "running", currentStep: "Loading keywords", progressDone: 4 });
    expect(searchStreams()).toBe(streams);

    await claim(now - STALE_RUNNING_MS - 1_000);
    expect(await getSyncState(SMALL)).toMatchObject({ status: "failed", currentStep: null, lastError: expect.stringMatching(/stopped before it finished/) });
    const taken = await syncAccount(userId, SMALL, { full: true });
    expect(taken.status).toBe("ok");
    expect(searchStreams() - streams).toBe(SYNC_STEP_COUNT - 1);
  }, 60_000);

  it("does not let a sync that lost its claim overwrite newer data", async () => {
    const before = await snapshot(SMALL);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slow: AdsClient = {
      ...direct,
      async searchStreamEach(customerId, query, onRows, opts) {
        // Waits on the first stream until the test has simulated a takeover.
        if (calls++ === 0) await gate;
        await onRows((await direct.searchStream(customerId, query, opts)).slice(0, 1));
      },
    };
    const run = syncAccount(userId, SMALL, { client: slow });
    await expect.poll(() => calls).toBe(1);
    await ctx.db.updateTable("ads_sync_state").set({ run_id: "newer-run" }).where("customer_id", "=", SMALL).execute();
    release();
    const result = await run;
    expect(result.status).toBe("running");
    expect(await snapshot(SMALL)).toEqual(before);
    await ctx.db.updateTable("ads_sync_state").set({ status: "ok", run_id: null }).where("customer_id", "=", SMALL).execute();
  }, 60_000);
});

describe("the large streams, read straight from their bytes", () => {
  it("store exactly the rows the general way (JSON.parse, then the rows) stores", async () => {
    const planned = SYNC_STEPS.filter((s) => s.compiled).map((s) => s.table);
    const dump = async () => {
      const tables: Record<string, string[]> = {};
      for (const table of planned) {
        const rows = await ctx.db.selectFrom(table).selectAll().where("customer_id", "=", SMALL).execute();
        tables[table] = rows.map((r) => JSON.stringify(r)).sort();
      }
      return tables;
    };
    const general: AdsClient = {
      ...direct,
      searchStreamEach: (customerId, query, onRows, opts) => direct.searchStreamEach(customerId, query, onRows, { ...opts, decoder: undefined }),
    };
    let decodedRows = 0;
    const counting: AdsClient = {
      ...direct,
      searchStreamEach: (customerId, query, onRows, opts) => {
        const decoder = opts?.decoder;
        return direct.searchStreamEach(customerId, query, onRows, {
          ...opts,
          decoder: decoder && {
            ...decoder,
            decode: (bytes) => {
              const rows = decoder.decode(bytes);
              decodedRows += rows?.length ?? 0;
              return rows;
            },
          },
        });
      },
    };
    const later = (ms: number) => () => new Date(NOW.getTime() + ms);
    expect((await syncAccount(userId, SMALL, { client: general, now: later(3_600_000), full: true })).status).toBe("ok");
    const viaJson = await dump();
    const counted = await syncAccount(userId, SMALL, { client: counting, now: later(3_700_000), full: true });
    expect(counted.status).toBe("ok");
    // Every batch of the emulator's streams is plain: all of them were decoded.
    expect(decodedRows).toBe(planned.reduce((n, t) => n + (counted.rowCounts?.[t] ?? 0), 0));
    expect(decodedRows).toBeGreaterThan(1000);
    expect(await dump()).toEqual(viaJson);
  }, 60_000);

  it("writes the engine's window totals just after the switch-over, and never over a newer sync's data", async () => {
    const later = (ms: number) => () => new Date(NOW.getTime() + ms);
    const state = () =>
      ctx.db.selectFrom("ads_sync_state").select(["status", "window_totals_for", "data_version"]).where("customer_id", "=", SMALL).executeTakeFirstOrThrow();
    const totals = () =>
      ctx.db
        .selectFrom("ads_window_totals")
        .select(sql<number>`COUNT(*)`.as("n"))
        .where("customer_id", "=", SMALL)
        .executeTakeFirstOrThrow();

    // Between the two commits the new data is in and no totals vouch for it: the engine would aggregate itself.
    let between: Awaited<ReturnType<typeof state>> | undefined;
    const first = await syncAccount(userId, SMALL, {
      client: direct,
      now: later(3_800_000),
      full: true,
      beforeTotals: async () => void (between = await state()),
    });
    expect(first.status).toBe("ok");
    expect(between).toMatchObject({ status: "ok", window_totals_for: null, data_version: first.dataVersion });
    const marker = `${first.dataFrom}/${first.dataTo}`;
    expect((await state()).window_totals_for).toBe(marker);
    expect(Number((await totals()).n)).toBeGreaterThan(0);
    const withTotals = await loadAccountData(ctx.db, SMALL, "USD", NOW);

    // A newer sync claimed the account in between: this run's totals are left out, the data stays in.
    const second = await syncAccount(userId, SMALL, {
      client: direct,
      now: later(3_900_000),
      beforeTotals: async () => {
        await ctx.db.updateTable("ads_sync_state").set({ run_id: "a-newer-run" }).where("customer_id", "=", SMALL).execute();
      },
    });
    try {
      expect(second.status).toBe("ok");
      expect((await state()).window_totals_for).toBeNull();
      // Without them the engine aggregates the daily rows: the same figures.
      const aggregated = await loadAccountData(ctx.db, SMALL, "USD", NOW);
      expect(aggregated).not.toBeNull();
      // The same data, synced later: only the sync's time differs.
      expect(aggregated).toStrictEqual({ ...withTotals, period: { ...withTotals!.period, syncedAt: aggregated!.period.syncedAt } });
    } finally {
      await ctx.db.updateTable("ads_sync_state").set({ run_id: null }).where("customer_id", "=", SMALL).execute();
    }
  }, 60_000);
});
