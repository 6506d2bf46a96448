// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { RecommendationsPanel, type PanelData, type PanelRecommendation } from "./recommendations-panel";

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

const data: PanelData = {
  list: "snoozed",
  analysis: { status: "idle", startedAt: null },
  counts: { open: 3, snoozed: 1, dismissed: 0, applied: 0 },
  recommendations: [snoozed],
  ranAt: "2026-11-26T03:31:00.000Z",
  syncedAt: "2026-11-26T03:30:00.000Z",
  score: 72,
  currencyCode: "USD",
  timeZone: "America/New_York",
  now: "2026-11-26T05:00:00.000Z",
};

function renderAt(url: string) {
  const Stub = createRoutesStub([{ path: "/ai-optimizer", Component: () => <RecommendationsPanel data={data} error={null} /> }]);
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

  it("switches lists without closing the chat beside it", async () => {
    renderAt(`/ai-optimizer?chat=${CHAT}&recs=snoozed`);
    const lists = await screen.findByRole("navigation", { name: "Recommendation lists" });
    expect(within(lists).getByRole("link", { name: "Open (3)" })).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}&recs=open`);
  });
});
