// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { RecommendationsPanel, type PanelData, type PanelRecommendation } from "./recommendations-panel";
import type { SyncView } from "./sync-status";

afterEach(cleanup);

const CHAT = "6b0234e5-8aba-4886-b8ab-e71d349dfda0";

const snoozed: PanelRecommendation = {
  id: "rec-1",
  type: "weak_ad",
  title: "Rewrite the weak ad in Tents",
  status: "snoozed",
  confidence: 0.9,
  confidenceLabel: "Strong",
  impact: { kind: "clicks", monthly: 12, riskConversions: null, assumption: "CTR rises to the ad group's median", currencyCode: "USD" },
  evidence: {
    summary: "CTR 0.4 % against 2.1 % for the ad group",
    dateRange: { from: "2026-10-27", to: "2026-11-25" },
    syncedAt: "2026-11-26T03:30:00.000Z",
    figures: [],
    target: null,
    test: null,
    notes: [],
  },
  actions: [],
  links: [],
  dismissedReason: null,
  snoozedUntil: "2026-12-03T04:00:00.000Z",
  changeSetId: null,
};

const SYNCED: SyncView = {
  status: "ok",
  lastSuccessAt: "2026-11-26T03:30:00.000Z",
  lastError: null,
  progressDone: 9,
  progressTotal: 9,
  currentStep: null,
  detail: { status: "ok", currentStep: null, lastError: null, progressDone: 4, progressTotal: 4 },
  googlePausedUntil: null,
  googlePauseReason: null,
};
const FIRST_SYNC: SyncView = {
  ...SYNCED,
  status: "running",
  lastSuccessAt: null,
  progressDone: 1,
  progressTotal: 5,
  currentStep: "Loading campaign performance",
  detail: { status: "never", currentStep: null, lastError: null, progressDone: 0, progressTotal: 4 },
};

const data: PanelData = {
  list: "snoozed",
  sync: SYNCED,
  analysis: { status: "idle", startedAt: null },
  counts: { open: 3, snoozed: 1, dismissed: 0, applied: 0 },
  recommendations: [snoozed],
  ranAt: "2026-11-26T03:31:00.000Z",
  syncedAt: "2026-11-26T03:30:00.000Z",
  score: 72,
  targetSet: true,
  currencyCode: "USD",
  timeZone: "America/New_York",
  now: "2026-11-26T05:00:00.000Z",
};

function renderAt(url: string, panel: PanelData = data) {
  const Stub = createRoutesStub([{ path: "/ai-optimizer", Component: () => <RecommendationsPanel data={panel} error={null} /> }]);
  return render(<Stub initialEntries={[url]} />);
}

describe("RecommendationsPanel", () => {
  it("shows times in the account's time zone, not UTC", async () => {
    renderAt("/ai-optimizer?recs=snoozed");
    const item = within(await screen.findByRole("region", { name: "Recommendations" })).getByRole("listitem");
    // 04:00 UTC on Dec 3 is 11 PM on Dec 2 in New York: the date a UTC slice gave was a day late.
    expect(item).toHaveTextContent(/Snoozed until Dec 2, 2026.*11:00 PM EST/);
    expect(item).toHaveTextContent(/data synced Nov 25, 2026.*10:30 PM EST/);
  });

  it("during the first sync, says the account is importing and that recommendations come after, not 'No analysis yet'", async () => {
    const importing: PanelData = {
      ...data,
      list: "open",
      sync: FIRST_SYNC,
      recommendations: [],
      ranAt: null,
      score: null,
      counts: { open: 0, snoozed: 0, dismissed: 0, applied: 0 },
    };
    renderAt("/ai-optimizer", importing);
    const region = await screen.findByRole("region", { name: "Recommendations" });
    expect(within(region).getByRole("status")).toHaveTextContent("Importing your account from Google Ads… recommendations appear once it is analysed.");
    expect(region).not.toHaveTextContent("No analysis yet");
    expect(region).not.toHaveTextContent("Nothing to recommend");
  });

  it("after the first sync and before any analysis, says when it runs", async () => {
    renderAt("/ai-optimizer", { ...data, list: "open", recommendations: [], ranAt: null, score: null });
    const region = await screen.findByRole("region", { name: "Recommendations" });
    expect(region).toHaveTextContent("No analysis yet: it runs after the first sync.");
    expect(within(region).queryByRole("status")).toBeNull();
  });

  it("leads with the top ten by impact, then shows a group's top five, and all of it on asking, keeping the chat open", async () => {
    const weak = Array.from({ length: 17 }, (_, i) => ({ ...snoozed, id: `rec-${i}`, status: "open", snoozedUntil: null, title: `Weak ad ${i + 1}` }));
    const open: PanelData = { ...data, list: "open", recommendations: weak, counts: { open: 17, snoozed: 0, dismissed: 0, applied: 0 } };
    renderAt(`/ai-optimizer?chat=${CHAT}`, open);
    const region = await screen.findByRole("region", { name: "Recommendations" });
    const titles = () =>
      within(region)
        .getAllByRole("listitem")
        .map((li) => li.querySelector("p")?.textContent);
    expect(within(screen.getByTestId("top-ten")).getByRole("heading")).toHaveTextContent("Top 10 by impact");
    expect(titles()).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `Weak ad ${i + 1}`),
      "Weak ad 11",
      "Weak ad 12",
      "Weak ad 13",
      "Weak ad 14",
      "Weak ad 15",
    ]);
    const more = within(region).getByRole("link", { name: /^Show all 7/ });
    expect(more).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}&group=weak_ad#group-weak_ad`);
    cleanup();

    renderAt(`/ai-optimizer?chat=${CHAT}&group=weak_ad`, open);
    const whole = await screen.findByRole("region", { name: "Recommendations" });
    expect(within(whole).getAllByRole("listitem")).toHaveLength(17);
    expect(within(whole).getByRole("link", { name: /^Show the top 5/ })).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}#group-weak_ad`);
  });

  it("filters by campaign and type with a plain GET form, totals each item once, and applies ticked items together", async () => {
    const pause = {
      ...snoozed,
      id: "a".repeat(24),
      type: "wasted_keyword",
      status: "open",
      snoozedUntil: null,
      title: "Pause “tent footprint”",
      impact: { kind: "cost_saved", monthly: 324, riskConversions: 0, assumption: "", currencyCode: "USD" },
      actions: [{ type: "status" }],
      alternatives: [
        {
          key: "k1",
          type: "wasted_search_term",
          title: "Exclude “tent footprint ground sheet”",
          impact: { kind: "cost_saved", monthly: 120 },
          currencyCode: "USD",
        },
      ],
    };
    const open: PanelData = {
      ...data,
      list: "open",
      recommendations: [pause],
      counts: { open: 1, snoozed: 0, dismissed: 0, applied: 0 },
      filter: { type: "wasted_keyword" },
      campaigns: [
        { id: "101", name: "Search | Tents" },
        { id: "102", name: "Search | Boots" },
      ],
      types: ["wasted_keyword", "weak_ad"],
      totals: { count: 1, costSaved: 324, conversions: 0, value: 0 },
    };
    renderAt(`/ai-optimizer?chat=${CHAT}&type=wasted_keyword`, open);
    const region = await screen.findByRole("region", { name: "Recommendations" });
    const filters = within(region).getByRole("form", { name: "Filter recommendations" });
    expect(filters).toHaveAttribute("method", "get");
    expect(within(filters).getByRole("combobox", { name: "Campaign" })).toHaveDisplayValue("All campaigns");
    expect(within(filters).getByRole("combobox", { name: "Type" })).toHaveDisplayValue("Keywords that spend without converting");
    expect(filters.querySelector('input[name="chat"]')).toHaveValue(CHAT);
    expect(within(region).getByRole("link", { name: "Clear filters" })).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}`);
    // Counted once: the alternative's $120 is not added.
    expect(screen.getByTestId("rec-totals")).toHaveTextContent("1 matching recommendation · saves about $324 a month (each counted once)");
    expect(within(region).getByTestId("alternatives")).toHaveTextContent("Exclude “tent footprint ground sheet” — Saves about $120 a month, not counted again");
    const tick = within(region).getByRole("checkbox", { name: "Select “Pause “tent footprint”” to apply with others" });
    expect(tick).toHaveAttribute("form", "bulk-apply");
    expect(tick).toHaveAttribute("name", "ids");
    const bulk = document.getElementById("bulk-apply")!;
    expect(bulk.querySelector('input[name="intent"]')).toHaveValue("rec-bulk-apply");
    expect(within(bulk).getByRole("button", { name: "Apply selected" })).toBeInTheDocument();
  });

  it("switches lists without closing the chat beside it", async () => {
    renderAt(`/ai-optimizer?chat=${CHAT}&recs=snoozed`);
    const lists = await screen.findByRole("navigation", { name: "Recommendation lists" });
    expect(within(lists).getByRole("link", { name: "Open (3)" })).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}&recs=open`);
  });

  it("says when no target is set anywhere, and links to the setting; says nothing once one is", async () => {
    renderAt("/ai-optimizer", { ...data, targetSet: false });
    const region = await screen.findByRole("region", { name: "Recommendations" });
    expect(region).toHaveTextContent("No target is set for this account: campaigns are compared with the account's other campaigns.");
    expect(within(region).getByRole("link", { name: "set one in Settings" })).toHaveAttribute("href", "/settings#targets-heading");
    cleanup();
    renderAt("/ai-optimizer", data);
    expect(await screen.findByRole("region", { name: "Recommendations" })).not.toHaveTextContent("No target is set");
  });
});
