// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import PerformanceScore from "~/routes/performance-score";
import type { AnalysisView } from "./analysis-status";
import type { SyncView } from "./sync-status";
import { RecommendationsPanel, type PanelData } from "./recommendations-panel";

// While the engine analyses newly synced data the screens say so, never "No
// analysis yet" / "No score yet"; with JavaScript on they poll /analysis and
// show the results when it ends, with it off they refresh themselves.

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const RUNNING: AnalysisView = { status: "running", startedAt: "2026-11-25T10:00:00.000Z" };
const IDLE: AnalysisView = { status: "idle", startedAt: null };
const SYNCED: SyncView = {
  status: "ok",
  lastSuccessAt: "2026-11-25T09:59:00.000Z",
  lastError: null,
  progressDone: 9,
  progressTotal: 9,
  currentStep: null,
  detail: { status: "ok", currentStep: null, lastError: null, progressDone: 4, progressTotal: 4 },
  googlePausedUntil: null,
  googlePauseReason: null,
};

function panelData(analysis: AnalysisView, ranAt: string | null = null): PanelData {
  return {
    list: "open",
    sync: SYNCED,
    analysis,
    counts: { open: 0, dismissed: 0, snoozed: 0, applied: 0 },
    recommendations: [],
    ranAt,
    syncedAt: null,
    score: ranAt ? 72 : null,
    targetSet: true,
    currencyCode: "USD",
    timeZone: "America/New_York",
    now: "2026-11-25T10:20:00.000Z",
  };
}

function renderRoute(Component: React.ComponentType<{ loaderData: never }>, loader: () => unknown) {
  const Stub = createRoutesStub([{ path: "/", Component: Component as any, loader, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={["/"]} />);
}

const scoreData = (analysis: AnalysisView, value: number | null) => ({
  connected: true,
  accountName: "Bakery",
  currencyCode: "EUR",
  calibration: [],
  analysis,
  value,
  breakdown: value === null ? [] : [{ id: "waste", label: "Wasted spend", weight: 1, score: value, explanation: "Spend without conversions", items: [] }],
  ranAt: value === null ? null : "2026-11-25T09:00:00.000Z",
});

describe("Recommendations panel", () => {
  it("first analysis in flight: says it is analysing (polite status), not 'No analysis yet' nor 'Nothing to recommend'", () => {
    const Stub = createRoutesStub([{ path: "/", Component: () => <RecommendationsPanel data={panelData(RUNNING)} error={null} /> }]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    expect(html).toContain("Analysing your data… recommendations appear when it finishes.");
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-live="polite"');
    // Without JavaScript: the page refreshes itself, and a link does it at once.
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="3"/></noscript>');
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Refresh<\/a>/);
    expect(html).not.toContain("No analysis yet");
    expect(html).not.toContain("Nothing to recommend");
  });

  it("idle and never analysed: the existing message, and nothing refreshes", () => {
    const Stub = createRoutesStub([{ path: "/", Component: () => <RecommendationsPanel data={panelData(IDLE)} error={null} /> }]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    expect(html).toContain("No analysis yet: it runs after the first sync.");
    // No verdict before any analysis: the line above says why the list is empty.
    expect(html).not.toContain("Nothing to recommend");
    expect(html).not.toContain("Analysing");
    expect(html).not.toContain("refresh");
  });

  it("a new analysis over earlier results: both the last one and the running one are said", () => {
    const Stub = createRoutesStub([
      { path: "/", Component: () => <RecommendationsPanel data={panelData(RUNNING, "2026-11-25T09:00:00.000Z")} error={null} /> },
    ]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    expect(html).toContain("Analysing your new data… the recommendations below update when it finishes.");
    // Measured from the server's clock at render, so hydrating later says the same.
    expect(html).toContain("Last analysis 1 hour ago");
  });

  it("with JavaScript on, polls /analysis while running and shows the results once it ends, without a reload", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let data = panelData(RUNNING);
    const loader = vi.fn(() => ({ data }));
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(Response.json(RUNNING)).mockResolvedValueOnce(Response.json(IDLE));
    function Page({ loaderData }: { loaderData: { data: PanelData } }) {
      return <RecommendationsPanel data={loaderData.data} error={null} />;
    }
    renderRoute(Page as never, loader);
    const region = await screen.findByRole("region", { name: "Recommendations" });
    expect(within(region).getByRole("status")).toHaveTextContent("Analysing your data…");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(fetchSpy).toHaveBeenCalledWith("/analysis", expect.objectContaining({ headers: { Accept: "application/json" } }));
    // Still running: still said, the page's data not reloaded.
    expect(within(region).getByRole("status")).toHaveTextContent("Analysing your data…");
    expect(loader).toHaveBeenCalledTimes(1);
    data = panelData(IDLE, new Date().toISOString());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(await within(region).findByText(/^Last analysis/)).toBeInTheDocument();
    expect(within(region).queryByRole("status")).toBeNull();
    expect(loader).toHaveBeenCalledTimes(2);
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});

describe("Performance Score page", () => {
  it("no score while the first analysis runs: 'Analysing your data…', not 'No score yet'", async () => {
    renderRoute(PerformanceScore as never, () => scoreData(RUNNING, null));
    expect(await screen.findByRole("heading", { name: "Analysing your data…" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("The score appears here when the analysis of your synced data finishes.");
    expect(screen.getByRole("link", { name: "Refresh" })).toHaveAttribute("href", "/");
    expect(screen.queryByText("No score yet")).toBeNull();
  });

  it("no account connected, or connected and nothing running: 'No score yet' as before", async () => {
    renderRoute(PerformanceScore as never, () => ({ connected: false }));
    expect(await screen.findByRole("heading", { name: "No score yet" })).toBeInTheDocument();
    cleanup();
    renderRoute(PerformanceScore as never, () => scoreData(IDLE, null));
    expect(await screen.findByRole("heading", { name: "No score yet" })).toBeInTheDocument();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("a score with a new analysis running: the score stays, with a note that it will update", async () => {
    renderRoute(PerformanceScore as never, () => scoreData(RUNNING, 64));
    expect(await screen.findByRole("status")).toHaveTextContent("Analysing your new data… the score below updates when it finishes.");
    expect(screen.getByText("64")).toBeInTheDocument();
  });
});
