// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { addDays, DateRangeSchema, lastNDays, makeDateRangeSchema, presetOf, rangeLength } from "~/lib/dates";
import { averageCpc, conversionValuePerCost, costPerConversion, ctr, emptyMetrics, type Metrics } from "~/lib/metrics";
import { getConnection } from "../auth/google-connection.server";
import type { AdsAdsTable, AdsCampaignsTable, AdsKeywordsTable } from "../db/schema";
import { adsClientFor } from "./accounts.server";
import { Double, Int64, Int64String, Micros, parseRows, type AdsClient } from "./client.server";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import {
  DETAIL_LIST_LIMIT,
  defaultRange,
  getAccountSummary,
  getCampaignDetail,
  getDailySeries,
  listCampaigns,
  type CampaignRow,
  type CampaignSortKey,
  type DateRange,
} from "./reports.server";
import { syncAccount } from "./sync.server";

// Read models over a synced, scaled emulator account (120 campaigns), checked
// against GAQL sent straight to the emulator; edge cases over hand-made rows.

const CID = DEMO_RICH_CUSTOMER_ID;
const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const YESTERDAY = "2026-11-21";
const LAST_30: DateRange = lastNDays(30, YESTERDAY);
const LAST_7: DateRange = lastNDays(7, YESTERDAY);

let emu: RunningEmulator;
let ctx: TestContext;
let direct: AdsClient;

const GaqlCampaign = z.object({
  campaign: z.object({ id: Int64String, name: z.string(), status: z.string() }),
  metrics: z.object({ impressions: Int64, clicks: Int64, costMicros: Micros, conversions: Double, conversionsValue: Double }),
});

/** Per-campaign metrics over the range, straight from the emulator. */
async function gaqlCampaigns(range: DateRange) {
  const rows = parseRows(
    GaqlCampaign,
    await direct.searchStream(
      CID,
      `SELECT campaign.id, campaign.name, campaign.status, metrics.impressions, metrics.clicks, metrics.cost_micros,
        metrics.conversions, metrics.conversions_value FROM campaign WHERE segments.date BETWEEN '${range.from}' AND '${range.to}'`,
      { loginCustomerId: DEMO_MANAGER_CUSTOMER_ID },
    ),
  );
  return new Map(rows.map((r) => [r.campaign.id, { ...r.campaign, metrics: r.metrics as Metrics }]));
}

function sum(list: Metrics[]): Metrics {
  return list.reduce(
    (t, m) => ({
      impressions: t.impressions + m.impressions,
      clicks: t.clicks + m.clicks,
      costMicros: t.costMicros + m.costMicros,
      conversions: t.conversions + m.conversions,
      conversionsValue: t.conversionsValue + m.conversionsValue,
    }),
    emptyMetrics(),
  );
}

function expectMetrics(actual: Metrics, expected: Metrics) {
  expect(actual.impressions).toBe(expected.impressions);
  expect(actual.clicks).toBe(expected.clicks);
  expect(actual.costMicros).toBe(expected.costMicros);
  expect(actual.conversions).toBeCloseTo(expected.conversions, 4);
  expect(actual.conversionsValue).toBeCloseTo(expected.conversionsValue, 2);
}

async function allPages(opts: Parameters<typeof listCampaigns>[2], range = LAST_30): Promise<CampaignRow[]> {
  const rows: CampaignRow[] = [];
  for (let page = 1; ; page++) {
    const result = await listCampaigns(CID, range, { ...opts, page });
    rows.push(...result.rows);
    if (page * result.pageSize >= result.total) return rows;
  }
}

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY, scale: { campaigns: 120, adGroupsPerCampaign: 2, keywordsPerAdGroup: 4 } } });
  ctx = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  direct = adsClientFor((await getConnection(userId))!);
  const state = await syncAccount(userId, CID, { now: () => NOW });
  expect(state.status).toBe("ok");
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("listCampaigns against the emulator", () => {
  it("agrees with GAQL campaign by campaign, and in total, for any range", async () => {
    for (const range of [LAST_30, LAST_7, { from: "2026-10-01", to: "2026-10-01" }]) {
      const expected = await gaqlCampaigns(range);
      const rows = await allPages({ pageSize: 37 }, range);
      expect(rows).toHaveLength(expected.size);
      for (const row of rows) {
        const g = expected.get(row.id)!;
        expect({ name: row.name, status: row.status }).toEqual({ name: g.name, status: g.status });
        expectMetrics(row.metrics, g.metrics);
      }
      const first = await listCampaigns(CID, range, {});
      expect(first.total).toBe(expected.size);
      expectMetrics(first.totals, sum([...expected.values()].map((c) => c.metrics)));
    }
  });

  it("sorts by cost, highest first, 50 to a page by default", async () => {
    const result = await listCampaigns(CID, LAST_30, {});
    expect(result).toMatchObject({ page: 1, pageSize: 50, total: 120 });
    expect(result.rows).toHaveLength(50);
    const costs = result.rows.map((r) => r.metrics.costMicros);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(costs[0]).toBeGreaterThan(0);
  });

  it.each<[CampaignSortKey, (r: CampaignRow) => number | string | null]>([
    ["name", (r) => r.name.toLowerCase()],
    ["status", (r) => r.status],
    ["channelType", (r) => r.channelType],
    ["biddingStrategyType", (r) => r.biddingStrategyType],
    ["budget", (r) => r.budgetMicros],
    ["impressions", (r) => r.metrics.impressions],
    ["clicks", (r) => r.metrics.clicks],
    ["cost", (r) => r.metrics.costMicros],
    ["conversions", (r) => r.metrics.conversions],
    ["ctr", (r) => ctr(r.metrics)],
    ["averageCpc", (r) => averageCpc(r.metrics)],
    ["costPerConversion", (r) => costPerConversion(r.metrics)],
    ["conversionValuePerCost", (r) => conversionValuePerCost(r.metrics)],
  ])("sorts by %s both ways, empty values last, across pages", async (sort, value) => {
    for (const dir of ["asc", "desc"] as const) {
      const rows = await allPages({ sort, dir, pageSize: 45 });
      expect(rows).toHaveLength(120);
      expect(new Set(rows.map((r) => r.id)).size).toBe(120);
      const values = rows.map(value);
      const firstNull = values.indexOf(null);
      if (firstNull >= 0) expect(values.slice(firstNull).every((v) => v === null)).toBe(true);
      const present = values.filter((v) => v !== null) as Array<number | string>;
      for (let i = 1; i < present.length; i++) {
        const [a, b] = [present[i - 1], present[i]];
        if (typeof a === "number" && typeof b === "number") {
          // SQL divides in doubles, JS too, but not necessarily in the same order of operations.
          if (dir === "asc") expect(a).toBeLessThanOrEqual(b * (1 + 1e-12));
          else expect(a).toBeGreaterThanOrEqual(b * (1 - 1e-12));
        } else if (dir === "asc") expect(a <= b).toBe(true);
        else expect(a >= b).toBe(true);
      }
    }
  });

  it("filters by status and searches names case-insensitively, with totals over the filtered set", async () => {
    const expected = [...(await gaqlCampaigns(LAST_30)).values()];
    for (const status of ["ENABLED", "PAUSED", "REMOVED"] as const) {
      const want = expected.filter((c) => c.status === status);
      const result = await listCampaigns(CID, LAST_30, { status, pageSize: 500 });
      expect(result.total).toBe(want.length);
      expect(result.rows.every((r) => r.status === status)).toBe(true);
      expectMetrics(result.totals, sum(want.map((c) => c.metrics)));
    }
    expect(expected.some((c) => c.status === "PAUSED")).toBe(true);

    const tents = await listCampaigns(CID, LAST_30, { q: "  TENTS ", pageSize: 500 });
    const wantTents = expected.filter((c) => c.name.toLowerCase().includes("tents"));
    expect(wantTents.length).toBeGreaterThan(0);
    expect(tents.rows.map((r) => r.id).sort()).toEqual(wantTents.map((c) => c.id).sort());
    expectMetrics(tents.totals, sum(wantTents.map((c) => c.metrics)));

    const exact = await listCampaigns(CID, LAST_30, { q: "#12", status: "all" });
    expect(exact.rows.map((r) => r.name).every((n) => n.includes("#12"))).toBe(true);
    expect(exact.total).toBe(expected.filter((c) => c.name.includes("#12")).length);

    // LIKE wildcards in the search are literal characters.
    expect((await listCampaigns(CID, LAST_30, { q: "%" })).total).toBe(0);
    expect((await listCampaigns(CID, LAST_30, { q: "_" })).total).toBe(0);
    const none = await listCampaigns(CID, LAST_30, { q: "no such campaign" });
    expect(none).toMatchObject({ rows: [], total: 0, page: 1, totals: emptyMetrics() });
  });

  it("pages without gaps or repeats and clamps a page past the end", async () => {
    const all = await listCampaigns(CID, LAST_30, { pageSize: 500 });
    const pages = await allPages({ pageSize: 7 });
    expect(pages.map((r) => r.id)).toEqual(all.rows.map((r) => r.id));
    const past = await listCampaigns(CID, LAST_30, { page: 99, pageSize: 50 });
    expect(past.page).toBe(3);
    expect(past.rows.map((r) => r.id)).toEqual(all.rows.slice(100).map((r) => r.id));
    expect(past.total).toBe(120);
    expectMetrics(past.totals, all.totals);
    const odd = await listCampaigns(CID, LAST_30, { page: -3, pageSize: 100_000 });
    expect(odd).toMatchObject({ page: 1, pageSize: 500 });
  });
});

describe("account summary and daily series", () => {
  it("counts enabled campaigns and sums the account", async () => {
    const expected = [...(await gaqlCampaigns(LAST_30)).values()];
    const summary = await getAccountSummary(CID, LAST_30);
    expect(summary.activeCampaigns).toBe(expected.filter((c) => c.status === "ENABLED").length);
    expectMetrics(summary.metrics, sum(expected.map((c) => c.metrics)));
  });

  it("has every date of the range, zeros where there is no data", async () => {
    const range = { from: "2026-08-01", to: YESTERDAY };
    const series = await getDailySeries(CID, range);
    expect(series).toHaveLength(rangeLength(range));
    expect(series[0].date).toBe("2026-08-01");
    expect(series.at(-1)?.date).toBe(YESTERDAY);
    // Synced data starts 90 days before yesterday.
    expect(series.filter((p) => p.date < "2026-08-24").every((p) => p.impressions === 0 && p.costMicros === 0)).toBe(true);
    const last30 = await getDailySeries(CID, LAST_30);
    expectMetrics(sum(last30), (await getAccountSummary(CID, LAST_30)).metrics);

    const top = (await listCampaigns(CID, LAST_30, { pageSize: 1 })).rows[0];
    expectMetrics(sum(await getDailySeries(CID, LAST_30, top.id)), top.metrics);
  });
});

describe("getCampaignDetail", () => {
  it("returns the campaign with its ad groups, keywords, ads and search terms", async () => {
    // The costliest search campaign (Performance Max and Display have no keywords).
    const top = (await listCampaigns(CID, LAST_30, { pageSize: 500 })).rows.find((r) => r.channelType === "SEARCH")!;
    const detail = (await getCampaignDetail(CID, top.id, LAST_30))!;
    expect(detail.campaign).toEqual(top);
    expect(detail.adGroups).toHaveLength(2);
    expect(detail.keywords.filter((k) => !k.negative)).toHaveLength(8);
    expect(detail.ads.length).toBeGreaterThan(0);
    expect(detail.truncated).toEqual({ adGroups: false, keywords: false, ads: false, searchTerms: false, campaignNegativeKeywords: false });
    expect(detail.limit).toBe(DETAIL_LIST_LIMIT);

    // Ad groups against GAQL for the same range.
    const gaql = parseRows(
      z.object({
        adGroup: z.object({ id: Int64String }),
        metrics: z.object({ impressions: Int64, clicks: Int64, costMicros: Micros, conversions: Double, conversionsValue: Double }),
      }),
      await direct.searchStream(
        CID,
        `SELECT ad_group.id, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value
         FROM ad_group WHERE campaign.id = ${top.id} AND segments.date BETWEEN '${LAST_30.from}' AND '${LAST_30.to}'`,
        { loginCustomerId: DEMO_MANAGER_CUSTOMER_ID },
      ),
    );
    for (const g of detail.adGroups) expectMetrics(g.metrics, gaql.find((r) => r.adGroup.id === g.id)!.metrics as Metrics);

    for (const list of [detail.adGroups, detail.keywords, detail.ads, detail.searchTerms]) {
      const costs = list.map((x) => x.metrics.costMicros);
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
    }
    const ad = detail.ads[0];
    expect(ad.headlines.length).toBeGreaterThanOrEqual(3);
    expect(ad.headlines.every((h) => typeof h.text === "string" && h.text.length > 0)).toBe(true);
    expect(ad.finalUrls[0]).toMatch(/^https:\/\//);
    expect(detail.keywords.every((k) => detail.adGroups.some((g) => g.id === k.adGroupId && g.name === k.adGroupName))).toBe(true);
  });

  it("is null for a campaign the account doesn't have", async () => {
    expect(await getCampaignDetail(CID, "1", LAST_30)).toBeNull();
    expect(await getCampaignDetail(CID, "not-an-id", LAST_30)).toBeNull();
    expect(await getCampaignDetail("9999999999", "17000000000", LAST_30)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Hand-made rows: the corners real data rarely reaches.

describe("edge cases over hand-made rows", () => {
  const X = "9999999990";
  const campaign = (id: string, name: string, extra: Partial<AdsCampaignsTable> = {}): AdsCampaignsTable => ({
    customer_id: X,
    id,
    name,
    status: "ENABLED",
    serving_status: null,
    primary_status: null,
    primary_status_reasons: null,
    advertising_channel_type: "SEARCH",
    bidding_strategy_type: "MANUAL_CPC",
    target_cpa_micros: null,
    target_roas: null,
    budget_resource_name: null,
    budget_amount_micros: null,
    budget_period: null,
    budget_explicitly_shared: null,
    start_date: null,
    end_date: null,
    ...extra,
  });
  const day = (campaignId: string, date: string, m: Partial<Metrics>) => ({
    customer_id: X,
    campaign_id: campaignId,
    date,
    impressions: m.impressions ?? 0,
    clicks: m.clicks ?? 0,
    cost_micros: m.costMicros ?? 0,
    conversions: m.conversions ?? 0,
    conversions_value: m.conversionsValue ?? 0,
    search_impression_share: null,
    search_budget_lost_impression_share: null,
    search_rank_lost_impression_share: null,
  });
  const range = { from: "2026-01-01", to: "2026-01-31" };

  beforeAll(async () => {
    await ctx.db
      .insertInto("ads_campaigns")
      .values([
        campaign("1", "50% off_sale", { budget_amount_micros: 10_000_000 }),
        campaign("2", "Plain", { budget_amount_micros: 5_000_000 }),
        campaign("3", "no traffic"),
        campaign("4", "Ünïcode Çampaign", { status: "PAUSED" }),
      ])
      .execute();
    await ctx.db
      .insertInto("ads_campaign_daily")
      .values([
        day("1", "2026-01-05", { impressions: 100, clicks: 10, costMicros: 5_000_000, conversions: 0 }),
        day("1", "2026-02-05", { impressions: 999, clicks: 999, costMicros: 999 }),
        day("2", "2026-01-31", { impressions: 50, clicks: 5, costMicros: 1_000_000, conversions: 2, conversionsValue: 30 }),
        day("4", "2025-12-31", { impressions: 7 }),
      ])
      .execute();
  });

  it("sorts ratios with nothing to divide by last, in both directions", async () => {
    for (const dir of ["asc", "desc"] as const) {
      const rows = (await listCampaigns(X, range, { sort: "costPerConversion", dir })).rows;
      // Only "2" has conversions; the rest tie at "nothing to divide by" and fall back to name order.
      expect(rows.map((r) => r.id)).toEqual(["2", "1", "3", "4"]);
    }
    const roas = (await listCampaigns(X, range, { sort: "conversionValuePerCost", dir: "desc" })).rows;
    expect(roas[0]).toMatchObject({ id: "2" });
    expect(conversionValuePerCost(roas[0].metrics)).toBe(30);
    const budget = (await listCampaigns(X, range, { sort: "budget", dir: "asc" })).rows.map((r) => r.id);
    expect(budget).toEqual(["2", "1", "3", "4"]);
  });

  it("counts only days inside the range, inclusive at both ends", async () => {
    const rows = (await listCampaigns(X, range, { sort: "name", dir: "asc" })).rows;
    expect(rows.map((r) => r.id)).toEqual(["1", "3", "2", "4"]);
    expect(rows.find((r) => r.id === "1")!.metrics).toEqual({ impressions: 100, clicks: 10, costMicros: 5_000_000, conversions: 0, conversionsValue: 0 });
    expect(rows.find((r) => r.id === "2")!.metrics.clicks).toBe(5);
    expect(rows.find((r) => r.id === "3")!.metrics).toEqual(emptyMetrics());
    expect(rows.find((r) => r.id === "4")!.metrics).toEqual(emptyMetrics());
  });

  it("takes % and _ in a search literally", async () => {
    expect((await listCampaigns(X, range, { q: "50%" })).rows.map((r) => r.id)).toEqual(["1"]);
    expect((await listCampaigns(X, range, { q: "f_s" })).rows.map((r) => r.id)).toEqual(["1"]);
    expect((await listCampaigns(X, range, { q: "0%_o" })).total).toBe(0);
  });

  it("caps long detail lists and says so", async () => {
    const keyword = (i: number): AdsKeywordsTable => ({
      customer_id: X,
      ad_group_id: "10",
      criterion_id: String(1000 + i),
      campaign_id: "1",
      text: `keyword ${i}`,
      match_type: "BROAD",
      status: "ENABLED",
      negative: i === 0 ? 1 : 0,
      cpc_bid_micros: null,
      effective_cpc_bid_micros: null,
      quality_score: null,
      creative_quality_score: null,
      post_click_quality_score: null,
      search_predicted_ctr: null,
      system_serving_status: null,
      approval_status: null,
    });
    await ctx.db
      .insertInto("ads_ad_groups")
      .values({
        customer_id: X,
        id: "10",
        campaign_id: "1",
        name: "Group",
        status: "ENABLED",
        type: null,
        cpc_bid_micros: 1_500_000,
        target_cpa_micros: null,
        target_roas: null,
      })
      .execute();
    await ctx.db
      .insertInto("ads_keywords")
      .values(Array.from({ length: DETAIL_LIST_LIMIT + 1 }, (_, i) => keyword(i)))
      .execute();
    await ctx.db
      .insertInto("ads_keyword_daily")
      .values({
        customer_id: X,
        ad_group_id: "10",
        criterion_id: "1007",
        campaign_id: "1",
        date: "2026-01-10",
        impressions: 9,
        clicks: 3,
        cost_micros: 4_000_000,
        conversions: 1,
        conversions_value: 0,
        search_impression_share: null,
        search_rank_lost_impression_share: null,
      })
      .execute();
    const ad: AdsAdsTable = {
      customer_id: X,
      ad_group_id: "10",
      ad_id: "77",
      campaign_id: "1",
      type: "RESPONSIVE_SEARCH_AD",
      status: "ENABLED",
      ad_strength: "GOOD",
      approval_status: null,
      headlines: JSON.stringify([{ text: "One", pinnedField: "HEADLINE_1" }, { text: "Two", assetPerformanceLabel: "BEST" }, { text: "Three" }]),
      descriptions: JSON.stringify([{ text: "Desc one" }, { text: "Desc two" }]),
      path1: "shop",
      path2: null,
      final_urls: JSON.stringify(["https://example.com/"]),
    };
    await ctx.db.insertInto("ads_ads").values(ad).execute();
    await ctx.db
      .insertInto("ads_ad_assets")
      .values({
        customer_id: X,
        ad_group_id: "10",
        ad_id: "77",
        asset_id: "5",
        field_type: "HEADLINE",
        campaign_id: "1",
        text: "One",
        performance_label: "LOW",
        pinned_field: "HEADLINE_1",
        enabled: 1,
      })
      .execute();

    const detail = (await getCampaignDetail(X, "1", range))!;
    expect(detail.keywords).toHaveLength(DETAIL_LIST_LIMIT);
    expect(detail.truncated).toMatchObject({ keywords: true, adGroups: false, ads: false, searchTerms: false });
    expect(detail.keywords[0]).toMatchObject({ criterionId: "1007", adGroupName: "Group", metrics: { clicks: 3, costMicros: 4_000_000 } });
    expect(detail.ads[0]).toMatchObject({
      adId: "77",
      adStrength: "GOOD",
      path1: "shop",
      finalUrls: ["https://example.com/"],
      headlines: [{ text: "One", pinnedField: "HEADLINE_1", performanceLabel: "LOW" }, { text: "Two", performanceLabel: "BEST" }, { text: "Three" }],
    });
    expect(detail.ads[0].path2).toBeUndefined();
    expect(detail.adGroups).toEqual([{ id: "10", name: "Group", status: "ENABLED", cpcBidMicros: 1_500_000, metrics: emptyMetrics() }]);
  });
});

describe("date ranges", () => {
  it("defaults to the 30 days ending yesterday in the account's time zone", () => {
    // 03:30 UTC on Nov 22 is still Nov 21 in New York and already Nov 22 in Sydney.
    const instant = new Date("2026-11-22T03:30:00Z");
    expect(defaultRange("America/New_York", instant)).toEqual({ from: "2026-10-22", to: "2026-11-20" });
    expect(defaultRange("Australia/Sydney", instant)).toEqual({ from: "2026-10-23", to: "2026-11-21" });
    // An unknown zone falls back to UTC.
    expect(defaultRange("Not/AZone", instant)).toEqual({ from: "2026-10-23", to: "2026-11-21" });
    // Across a DST change the range is still 30 calendar days.
    expect(rangeLength(defaultRange("America/New_York", new Date("2026-11-10T12:00:00Z")))).toBe(30);
  });

  it("validates from/to: real dates, ordered, at most 366 days, not in the future", () => {
    const ok = (r: unknown) => DateRangeSchema.safeParse(r).success;
    expect(ok({ from: "2026-01-01", to: "2026-01-31" })).toBe(true);
    expect(ok({ from: "2024-02-29", to: "2024-02-29" })).toBe(true);
    expect(ok({ from: "2025-02-29", to: "2025-03-01" })).toBe(false);
    expect(ok({ from: "2026-01-31", to: "2026-01-01" })).toBe(false);
    expect(ok({ from: "2026-1-1", to: "2026-01-31" })).toBe(false);
    expect(ok({ from: "2025-01-01", to: "2026-01-01" })).toBe(true);
    expect(ok({ from: "2024-12-31", to: "2026-01-01" })).toBe(false);
    expect(ok({ from: "2026-01-01", to: addDays(new Date().toISOString().slice(0, 10), 3) })).toBe(false);
    const strict = makeDateRangeSchema({ maxDate: "2026-11-21" });
    expect(strict.safeParse({ from: "2026-11-01", to: "2026-11-22" }).success).toBe(false);
    expect(strict.safeParse({ from: "2026-11-01", to: "2026-11-21" }).success).toBe(true);
    expect(presetOf(LAST_7, YESTERDAY)?.id).toBe("7d");
    expect(presetOf({ from: "2026-11-01", to: "2026-11-20" }, YESTERDAY)).toBeUndefined();
  });
});
