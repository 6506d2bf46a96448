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

  it("shows a group's top five, and all of it on asking, keeping the chat open", async () => {
    const weak = Array.from({ length: 7 }, (_, i) => ({ ...snoozed, id: `rec-${i}`, status: "open", snoozedUntil: null, title: `Weak ad ${i + 1}` }));
    const open: PanelData = { ...data, list: "open", recommendations: weak, counts: { open: 7, snoozed: 0, dismissed: 0, applied: 0 } };
    renderAt(`/ai-optimizer?chat=${CHAT}`, open);
    const region = await screen.findByRole("region", { name: "Recommendations" });
    expect(
      within(region)
        .getAllByRole("listitem")
        .map((li) => li.querySelector("p")?.textContent),
    ).toEqual(["Weak ad 1", "Weak ad 2", "Weak ad 3", "Weak ad 4", "Weak ad 5"]);
    const more = within(region).getByRole("link", { name: /^Show all 7/ });
    expect(more).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}&group=weak_ad#group-weak_ad`);
    cleanup();

    renderAt(`/ai-optimizer?chat=${CHAT}&group=weak_ad`, open);
    const whole = await screen.findByRole("region", { name: "Recommendations" });
    expect(within(whole).getAllByRole("listitem")).toHaveLength(7);
    expect(within(whole).getByRole("link", { name: /^Show the top 5/ })).toHaveAttribute("href", `/ai-optimizer?chat=${CHAT}#group-weak_ad`);
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
