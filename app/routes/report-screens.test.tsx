// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DetailImportNotice } from "~/components/detail-import";
import { SyncStatus, type SyncView } from "~/components/sync-status";
import type { Metrics } from "~/lib/metrics";
import CampaignDetailPage from "./campaign-detail";
import Campaigns from "./campaigns";
import Dashboard from "./dashboard";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const NOW = "2026-11-22T12:00:00.000Z";
const metrics = (n: number): Metrics => ({ impressions: n * 100, clicks: n * 10, costMicros: n * 5_000_000, conversions: n / 2, conversionsValue: n * 20 });
const detailOk: SyncView["detail"] = { status: "ok", currentStep: null, lastError: null, progressDone: 4, progressTotal: 4 };
const ok: SyncView = {
  status: "ok",
  lastSuccessAt: "2026-11-22T11:57:00.000Z",
  lastError: null,
  progressDone: 12,
  progressTotal: 12,
  currentStep: null,
  detail: detailOk,
  googlePausedUntil: null,
  googlePauseReason: null,
};
const running: SyncView = {
  status: "running",
  lastSuccessAt: null,
  lastError: null,
  progressDone: 4,
  progressTotal: 12,
  currentStep: "Loading keywords",
  detail: { ...detailOk, status: "never", progressDone: 0 },
  googlePausedUntil: null,
  googlePauseReason: null,
};
/** A first sync's stage 1 is in; its detail import runs. */
const importing: SyncView = {
  ...ok,
  progressDone: 9,
  progressTotal: 9,
  detail: { status: "running", currentStep: "Loading keyword performance", lastError: null, progressDone: 0, progressTotal: 4 },
};
const account = { customerId: "1112223334", name: "Northwind Outdoor Gear", currencyCode: "USD", timeZone: "America/New_York" };
const base = {
  connected: true as const,
  account,
  now: NOW,
  sync: ok,
  firstSync: false,
  range: { from: "2026-10-23", to: "2026-11-21" },
  presetId: "30d" as const,
  rangeNotice: null,
  today: "2026-11-22",
};

function campaignsData(overrides: Record<string, unknown> = {}) {
  return {
    ...base,
    query: { sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50 },
    queryNotice: null,
    hiddenColumns: [],
    list: {
      rows: [
        {
          id: "1",
          name: "Search | Tents",
          status: "ENABLED",
          channelType: "SEARCH",
          biddingStrategyType: "TARGET_CPA",
          budgetMicros: 120_000_000,
          metrics: metrics(3),
        },
        {
          id: "2",
          name: "Search | Ski & Snow",
          status: "PAUSED",
          channelType: "SEARCH",
          biddingStrategyType: "MANUAL_CPC",
          budgetMicros: null,
          metrics: metrics(1),
        },
      ],
      total: 2,
      totals: metrics(4),
      page: 1,
      pageSize: 50,
    },
    ...overrides,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function renderRoute(path: string, Component: any, loader: () => unknown, url = path) {
  const Stub = createRoutesStub([{ path, Component, loader, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={[url]} />);
}

describe("Campaigns screen", () => {
  it("unconnected: exactly the seed's empty state", async () => {
    renderRoute("/campaigns", Campaigns, () => ({ connected: false }));
    expect(await screen.findByRole("heading", { name: "No Campaigns Yet" })).toBeInTheDocument();
    expect(screen.getByText("Connect your Google Ads account to view and manage campaigns")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Connect Google Ads" })).toHaveAttribute("href", "/api/v1/auth/google?returnTo=/campaigns");
    expect(screen.getByText("Manage your Google Ads campaigns")).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("connected: the table with every column, sort links, totals, filters and freshness", async () => {
    renderRoute("/campaigns", Campaigns, () => campaignsData(), "/campaigns?q=&token=secret-token-value");
    const table = await screen.findByRole("table", { name: "Campaigns of Northwind Outdoor Gear" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, ""));
    expect(headers).toEqual([
      "",
      "Campaign",
      "Status",
      "Type",
      "Budget/day",
      "Bidding",
      "Impressions",
      "Clicks",
      "CTR",
      "Avg. CPC",
      "Cost",
      "Conversions",
      "Cost/conv.",
      "Conv. value/cost",
    ]);
    expect(within(table).getByRole("columnheader", { name: /Cost$|Cost▼/ })).toHaveAttribute("aria-sort", "descending");
    const tents = within(table).getByRole("row", { name: /Search \| Tents/ });
    expect(within(tents).getByRole("link", { name: "Search | Tents" })).toHaveAttribute("href", "/campaigns/1");
    expect(tents).toHaveTextContent("$120.00");
    expect(tents).toHaveTextContent("Target CPA");
    expect(tents).toHaveTextContent("10.00%");
    expect(within(table).getByRole("row", { name: /Ski & Snow/ })).toHaveTextContent("Paused");
    expect(screen.getByTestId("totals-row")).toHaveTextContent("Total (2 campaigns)");
    expect(screen.getByTestId("totals-row")).toHaveTextContent("$20.00");
    expect(screen.getByTestId("last-synced")).toHaveTextContent("Updated 3 min ago");
    expect(screen.getByRole("button", { name: "Sync now" })).toBeEnabled();
    // The sign-in token in the address never spreads into links or forms.
    expect(document.body.innerHTML).not.toContain("secret-token-value");
    expect(within(screen.getByRole("navigation", { name: "Status filter" })).getByRole("link", { name: "Paused" })).toHaveAttribute(
      "href",
      "/campaigns?status=paused",
    );
    expect(screen.getByRole("search", { name: "Search campaigns" })).toHaveAttribute("method", "get");
    expect(screen.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", "/export/campaigns");
    // The column chooser: a POST form, every column ticked by default.
    const chooser = screen.getByRole("form", { name: "Choose columns" });
    expect(chooser).toHaveAttribute("method", "post");
    expect(
      within(chooser)
        .getAllByRole("checkbox")
        .every((b) => (b as HTMLInputElement).checked),
    ).toBe(true);
  });

  it("hides the columns the person chose to hide, and says how many show", async () => {
    renderRoute("/campaigns", Campaigns, () => campaignsData({ hiddenColumns: ["channelType", "biddingStrategyType", "impressions"] }));
    const table = await screen.findByRole("table", { name: "Campaigns of Northwind Outdoor Gear" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, ""));
    expect(headers).toEqual(["", "Campaign", "Status", "Budget/day", "Clicks", "CTR", "Avg. CPC", "Cost", "Conversions", "Cost/conv.", "Conv. value/cost"]);
    expect(screen.getByText("Columns (9 of 12)")).toBeInTheDocument();
    expect(within(screen.getByRole("form", { name: "Choose columns" })).getByRole("checkbox", { name: "Type" })).not.toBeChecked();
  });

  it("first visit: the import's progress, not an empty table", async () => {
    renderRoute("/campaigns", Campaigns, () =>
      campaignsData({ sync: running, firstSync: true, list: { rows: [], total: 0, totals: metrics(0), page: 1, pageSize: 50 } }),
    );
    expect(await screen.findByRole("heading", { name: "Importing your campaigns" })).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
    const bars = screen.getAllByRole("progressbar");
    expect(bars[0]).toHaveAttribute("max", "12");
    expect(bars[0]).toHaveAttribute("value", "4");
    expect(screen.getAllByText("Syncing: Loading keywords (4 of 12)").length).toBeGreaterThan(0);
    expect(screen.getByRole("button", { name: "Syncing…" })).toBeDisabled();
  });

  it("a failed sync keeps the table and says what failed", async () => {
    renderRoute("/campaigns", Campaigns, () => campaignsData({ sync: { ...ok, status: "failed", lastError: "Loading keywords failed: quota exhausted" } }));
    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("The last sync failed: Loading keywords failed: quota exhausted.");
    expect(screen.getByRole("alert")).toHaveTextContent("Showing the data from the last successful sync.");
  });

  it("shows what it ignored in the address", async () => {
    renderRoute("/campaigns", Campaigns, () =>
      campaignsData({
        queryNotice: "Ignored an invalid sort column in the address; showing the default instead.",
        rangeNotice: "Enter a date as YYYY-MM-DD. Showing the last 30 days.",
      }),
    );
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toEqual([
      "Ignored an invalid sort column in the address; showing the default instead.",
      "Enter a date as YYYY-MM-DD. Showing the last 30 days.",
    ]);
  });
});

describe("Dashboard screen", () => {
  it("unconnected: the seed's cards and Getting Started", async () => {
    renderRoute("/dashboard", Dashboard, () => ({ connected: false }));
    const card = async (name: string) => screen.findByRole("region", { name });
    expect(await card("Active Campaigns")).toHaveTextContent("Active Campaigns-Connect Google Ads account");
    expect(await card("Total Spend")).toHaveTextContent("Total Spend$0Last 30 days");
    expect(await card("AI Optimizations")).toHaveTextContent("AI Optimizations0This month");
    expect(await card("Performance Score")).toHaveTextContent("Performance Score-AI analysis");
    expect(screen.getByRole("region", { name: "Getting Started" })).toBeInTheDocument();
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("connected: real numbers in the account currency and the chart", async () => {
    renderRoute("/dashboard", Dashboard, () => ({
      ...base,
      account: { ...account, currencyCode: "EUR" },
      summary: { activeCampaigns: 11, metrics: metrics(200) },
      series: [
        { date: "2026-11-20", costMicros: 1_000_000, clicks: 1, conversions: 0 },
        { date: "2026-11-21", costMicros: 2_000_000, clicks: 3, conversions: 1 },
      ],
      // Not analysed yet: no score; nothing applied from recommendations this month.
      optimizer: { aiOptimizations: { saved: 0, earned: 0, applied: 0, measured: 0 }, score: null },
    }));
    expect(await screen.findByRole("region", { name: "Active Campaigns" })).toHaveTextContent("Active Campaigns11Enabled campaigns");
    expect(screen.getByRole("region", { name: "Total Spend" })).toHaveTextContent("€1,000.00Last 30 days (Oct 23 – Nov 21, 2026)");
    expect(screen.getByRole("region", { name: "AI Optimizations" })).toHaveTextContent("€0This month0 applied this month");
    expect(screen.getByRole("region", { name: "Performance Score" })).toHaveTextContent("-AI analysis");
    expect(screen.getByRole("img", { name: /Spend, clicks and conversions, Oct 23 – Nov 21, 2026/ })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
    expect(screen.queryByRole("region", { name: "Getting Started" })).toBeNull();
  });
});

describe("Campaign detail screen", () => {
  const detail = (tab: string, rows: unknown[], query: Record<string, unknown> = {}) => ({
    ...base,
    tab,
    tabNotice: null,
    recommendations: {
      totals: { count: 7, costSaved: 324, conversions: 0, value: 0 },
      items: [
        {
          id: "a".repeat(24),
          type: "wasted_keyword",
          title: "Pause “tent footprint”",
          impact: { kind: "cost_saved", monthly: 324, riskConversions: 0, assumption: "", currencyCode: "USD" },
          confidenceLabel: "Strong",
        },
      ],
    },
    query: { sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50, ...query },
    detail: {
      campaign: {
        id: "1",
        name: "Search | Tents",
        status: "ENABLED",
        channelType: "SEARCH",
        biddingStrategyType: "TARGET_CPA",
        budgetMicros: 50_000_000,
        metrics: metrics(10),
      },
      counts: { adgroups: 1, keywords: 1200, ads: 1, searchterms: 0 },
      adGroupOptions: [{ id: "9", name: "Family Tents" }],
    },
    opened: { tab, list: { rows, total: tab === "keywords" ? 1200 : rows.length, totals: metrics(30), page: 1, pageSize: 50 } },
  });

  it("keywords tab: match type, bid and quality score, sortable columns, totals, paging and the CSV link", async () => {
    renderRoute(
      "/campaigns/:campaignId",
      CampaignDetailPage,
      () =>
        detail("keywords", [
          {
            adGroupId: "9",
            adGroupName: "Family Tents",
            criterionId: "5",
            text: "cheap camping tents",
            matchType: "BROAD",
            status: "ENABLED",
            negative: false,
            cpcBidMicros: 1_500_000,
            qualityScore: 3,
            systemServingStatus: null,
            metrics: metrics(2),
          },
          {
            adGroupId: "9",
            adGroupName: "Family Tents",
            criterionId: "6",
            text: "free",
            matchType: "PHRASE",
            status: "ENABLED",
            negative: true,
            cpcBidMicros: null,
            qualityScore: null,
            systemServingStatus: null,
            metrics: metrics(0),
          },
        ]),
      "/campaigns/1?tab=keywords&range=90d",
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Search | Tents" })).toBeInTheDocument();
    // The campaign's own recommendations (issue 29 point 5), largest first, leading to the AI Optimizer filtered to it.
    const recs = screen.getByRole("region", { name: "Recommendations for this campaign" });
    expect(recs).toHaveTextContent("7 open recommendations · saves about $324 a month");
    expect(within(recs).getByRole("link", { name: "Pause “tent footprint”" })).toHaveAttribute("href", `/ai-optimizer?campaign=1#rec-${"a".repeat(24)}`);
    expect(within(recs).getByRole("link", { name: "See all 7 in the AI Optimizer" })).toHaveAttribute("href", "/ai-optimizer?campaign=1");
    const tabs = screen.getByRole("navigation", { name: "Campaign sections" });
    expect(within(tabs).getByRole("link", { name: /Keywords/ })).toHaveAttribute("aria-current", "page");
    expect(within(tabs).getByRole("link", { name: /Ad groups/ })).toHaveAttribute("href", "/campaigns/1?range=90d");
    expect(within(tabs).getByRole("link", { name: /Search terms/ })).toHaveAttribute("href", "/campaigns/1?tab=searchterms&range=90d");
    const row = screen.getByRole("row", { name: /cheap camping tents/ });
    expect(row).toHaveTextContent("Broad");
    expect(row).toHaveTextContent("$1.50");
    expect(row).toHaveTextContent("3/10");
    expect(screen.getByRole("row", { name: /free/ })).toHaveTextContent("Negative");
    // Each row can be ticked for the bulk bar; new keywords and negatives have their forms.
    expect(within(row).getByRole("checkbox", { name: "Select cheap camping tents (Broad) in Family Tents" })).toHaveAttribute("form", "keyword-bulk");
    expect(screen.getByRole("form", { name: "Change selected keywords" })).toHaveAttribute("action", "/campaigns/1?tab=keywords&range=90d");
    // The ad group of new keywords is an explicit choice: nothing is preselected.
    const adGroup = within(screen.getByRole("form", { name: "Add keywords" })).getByRole("combobox", { name: "Ad group" });
    expect(adGroup).toHaveTextContent("Family Tents");
    expect(adGroup).toHaveValue("");
    expect(adGroup).toBeRequired();
    expect(screen.getByRole("form", { name: "Add negative keywords" })).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Keywords" });
    expect(within(table).getByRole("columnheader", { name: "Cost" })).toHaveAttribute("aria-sort", "descending");
    expect(within(table).getByRole("link", { name: /Quality score/ })).toHaveAttribute("href", "/campaigns/1?tab=keywords&range=90d&sort=qualityScore");
    expect(within(table).getByRole("link", { name: /^Keyword/ })).toHaveAttribute("href", "/campaigns/1?tab=keywords&range=90d&sort=text");
    expect(screen.getByTestId("totals-row")).toHaveTextContent("Total (1,200 keywords)");
    expect(screen.getByTestId("page-summary")).toHaveTextContent("Showing 1–50 of 1,200 keywords");
    expect(screen.getByRole("link", { name: "Page 24" })).toHaveAttribute("href", "/campaigns/1?tab=keywords&range=90d&page=24");
    expect(screen.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", "/export/campaigns/1?tab=keywords&range=90d");
    expect(screen.getByRole("navigation", { name: "Status filter" })).toBeInTheDocument();
    expect(screen.getByRole("search", { name: "Search keywords" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "← All campaigns" })).toHaveAttribute("href", "/campaigns?range=90d");
    expect(screen.getByRole("region", { name: "Campaign settings" })).toHaveTextContent("$50.00/day");
    expect(screen.getByRole("region", { name: "Campaign metrics" })).toHaveTextContent("Cost$50.00");
  });

  it("ads tab: the search-result preview and every asset with pins and labels", async () => {
    renderRoute(
      "/campaigns/:campaignId",
      CampaignDetailPage,
      () =>
        detail("ads", [
          {
            adGroupId: "9",
            adGroupName: "Family Tents",
            adId: "77",
            type: "RESPONSIVE_SEARCH_AD",
            status: "ENABLED",
            headlines: [
              { text: "Family Tents", pinnedField: "HEADLINE_1", performanceLabel: "BEST" },
              { text: "Free Shipping Over $50", performanceLabel: "LOW" },
              { text: "Room for Everyone" },
            ],
            descriptions: [{ text: "Roomy tents for the whole family." }, { text: "Order today." }],
            path1: "tents",
            path2: "family",
            finalUrls: ["https://www.northwind-outdoor.example/tents/family"],
            adStrength: "GOOD",
            metrics: metrics(4),
          },
        ]),
      "/campaigns/1?tab=ads",
    );
    expect(await screen.findByTestId("rsa-headline")).toHaveTextContent("Family Tents | Free Shipping Over $50 | Room for Everyone");
    expect(screen.getByTestId("rsa-display-url")).toHaveTextContent("northwind-outdoor.example/tents/family");
    expect(screen.getByText("Ad strength: Good")).toBeInTheDocument();
    expect(screen.getByText("Pinned to headline 1")).toBeInTheDocument();
    expect(screen.getByText("Low")).toBeInTheDocument();
  });
});

describe("Campaign detail while a first sync imports keyword, ad and search-term performance", () => {
  const detailData = (tab: string, sync: SyncView) => ({
    ...base,
    sync,
    tab,
    recommendations: { totals: { count: 0, costSaved: 0, conversions: 0, value: 0 }, items: [] },
    tabNotice: null,
    query: { sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50 },
    detail: {
      campaign: {
        id: "1",
        name: "Search | Tents",
        status: "ENABLED",
        channelType: "SEARCH",
        biddingStrategyType: "TARGET_CPA",
        budgetMicros: 50_000_000,
        metrics: metrics(10),
      },
      counts: { adgroups: 1, keywords: 2, ads: 1, searchterms: 0 },
      adGroupOptions: [{ id: "9", name: "Family Tents" }],
    },
    opened: { tab, list: { rows: [], total: 0, totals: metrics(0), page: 1, pageSize: 50 } },
  });

  it("JavaScript on: the search-terms tab says it is importing (with the step), offers no CSV, and updates itself when the import ends", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let sync: SyncView = importing;
    const loader = vi.fn(() => detailData("searchterms", sync));
    const fetchSpy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(Response.json({ ...importing, detail: { ...importing.detail, progressDone: 2, currentStep: "Loading search terms" } }))
      .mockResolvedValueOnce(Response.json(ok));
    renderRoute("/campaigns/:campaignId", CampaignDetailPage, loader, "/campaigns/1?tab=searchterms");
    const notice = await screen.findByTestId("detail-importing");
    expect(notice).toHaveAttribute("role", "status");
    expect(notice).toHaveAttribute("aria-live", "polite");
    expect(notice).toHaveTextContent("Search terms are still importing (loading keyword performance): figures missing here are not zeros.");
    expect(within(notice).getByRole("link", { name: "Refresh" })).toHaveAttribute("href", "/campaigns/1?tab=searchterms");
    expect(screen.getByText("Search terms appear here once they are imported.")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Download CSV" })).toBeNull();
    // The sync status says the same for the whole page.
    expect(screen.getByRole("region", { name: "Data freshness" })).toHaveTextContent(
      "Your campaigns are ready; keyword, ad and search-term performance is still importing (Loading keyword performance).",
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    // One poll for the page; the step follows it.
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("detail-importing")).toHaveTextContent("(loading search terms)");
    sync = ok;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(loader).toHaveBeenCalledTimes(2);
    expect(await screen.findByRole("link", { name: "Download CSV" })).toBeInTheDocument();
    expect(screen.queryByTestId("detail-importing")).toBeNull();
    expect(screen.getByText("No search terms in this range.")).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6000);
    });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it("the ad groups tab (stage 1's data) has no notice; a failed import says so on the tab and in the sync status", async () => {
    renderRoute("/campaigns/:campaignId", CampaignDetailPage, () => detailData("adgroups", importing), "/campaigns/1");
    expect(await screen.findByRole("heading", { level: 1, name: "Search | Tents" })).toBeInTheDocument();
    expect(screen.queryByTestId("detail-importing")).toBeNull();
    expect(screen.getByRole("link", { name: "Download CSV" })).toBeInTheDocument();
    cleanup();
    const failed: SyncView = { ...ok, detail: { ...importing.detail, status: "failed", currentStep: null, lastError: "Loading search terms failed: quota" } };
    renderRoute("/campaigns/:campaignId", CampaignDetailPage, () => detailData("keywords", failed), "/campaigns/1?tab=keywords");
    expect(await screen.findByTestId("detail-import-failed")).toHaveTextContent("Keyword performance could not be imported");
    expect(screen.getByRole("alert")).toHaveTextContent("Keyword, ad and search-term performance could not be imported: Loading search terms failed: quota.");
    expect(screen.queryByRole("link", { name: "Download CSV" })).toBeNull();
  });

  it("JavaScript off: the notice refreshes the page (server HTML) and has a Refresh link", () => {
    const Stub = createRoutesStub([{ path: "/campaigns/:id", Component: () => <DetailImportNotice sync={importing} tab="keywords" /> }]);
    const html = renderToString(<Stub initialEntries={["/campaigns/1?tab=keywords"]} />);
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="3"/></noscript>');
    expect(html).toContain('href="/campaigns/1?tab=keywords"');
    expect(html).toContain("Keyword performance is still importing");
    // While the sync itself runs, the sync status refreshes the page already.
    const Running = createRoutesStub([{ path: "/", Component: () => <DetailImportNotice sync={{ ...importing, status: "running" }} tab="ads" /> }]);
    expect(renderToString(<Running initialEntries={["/"]} />)).not.toContain("refresh");
  });
});

describe("SyncStatus", () => {
  it("with JavaScript off, a running sync's page refreshes itself (server HTML)", () => {
    const Stub = createRoutesStub([
      { path: "/", Component: () => <SyncStatus sync={{ ...running, lastSuccessAt: NOW }} now={NOW} timeZone="UTC" returnTo="/campaigns" /> },
    ]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="3"/></noscript>');
    expect(html).toContain('name="returnTo" value="/campaigns"');
    const Idle = createRoutesStub([{ path: "/", Component: () => <SyncStatus sync={ok} now={NOW} timeZone="UTC" returnTo="/" /> }]);
    expect(renderToString(<Idle initialEntries={["/"]} />)).not.toContain("refresh");
  });

  it("with JavaScript on, polls while running and reloads the page's data when the sync ends", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state: SyncView = { ...running, lastSuccessAt: "2026-11-22T11:00:00.000Z" };
    const loader = vi.fn(() => ({ sync: state }));
    const fetchSpy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(Response.json({ ...running, progressDone: 8, currentStep: "Loading ads" }))
      .mockResolvedValueOnce(Response.json(ok));
    function Page({ loaderData }: { loaderData: { sync: SyncView } }) {
      return <SyncStatus sync={loaderData.sync} now={NOW} timeZone="UTC" returnTo="/" />;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    renderRoute("/", Page as any, loader);
    expect(await screen.findByText("Syncing: Loading keywords (4 of 12)")).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(fetchSpy).toHaveBeenCalledWith("/sync", expect.objectContaining({ headers: { Accept: "application/json" } }));
    expect(screen.getByText("Syncing: Loading ads (8 of 12)")).toBeInTheDocument();
    state = ok;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(await screen.findByRole("button", { name: "Sync now" })).toBeEnabled();
    expect(loader).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("progressbar")).toBeNull();
    // Polling stops once the sync is over.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6000);
    });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
