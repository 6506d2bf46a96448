// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { ImpactRecord } from "~/lib/impact";
import { CalibrationTable, ImpactRecordSection, ImpactSummary } from "./impact";

afterEach(cleanup);

const series = Array.from({ length: 42 }, (_, i) => ({
  date: `2026-10-${String((i % 28) + 1).padStart(2, "0")}`,
  treated: i < 28 ? 100 : 70,
  control: 600,
}));

const record = (over: Partial<ImpactRecord> = {}): ImpactRecord => ({
  subject: "cs:1",
  customerId: "1112223334",
  currencyCode: "USD",
  verdict: "effect",
  headline: "Over 14 days: cost −$900 a month (−30 %, 90 % interval −33 % to −27 %); conversions unchanged",
  reason: null,
  changeDay: "2026-10-29",
  lastChangeDay: "2026-10-29",
  level: "campaign",
  treated: [{ id: "1", name: "Search | Tents" }],
  control: { count: 6, eligible: 6, rule: "Search campaigns of this account with clicks in the 28 days before", names: ["Search | Boots"] },
  together: [],
  pre: { from: "2026-10-01", to: "2026-10-28", days: 28 },
  periods: [],
  nextMeasureOn: null,
  series: series.map((d, i) => ({ ...d, date: new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10) })),
  method: { preDays: 28, lagDays: 3, resamples: 2000, confidence: 0.9, seed: 1 },
  dataTo: "2026-11-21",
  computedAt: "2026-11-22T00:00:00.000Z",
  ...over,
});

describe("the measured effect on the screens", () => {
  it("History's cell: the verdict, its line, the chart and the way to the whole record", () => {
    render(
      <MemoryRouter>
        <ImpactSummary record={record()} href="/changes/1#impact" />
      </MemoryRouter>,
    );
    expect(screen.getByText("Measured effect")).toBeInTheDocument();
    expect(screen.getByText(/^Over 14 days: cost −\$900 a month/)).toBeInTheDocument();
    expect(screen.getByRole("img", { name: /^Daily cost from Oct 1, 2026 to Nov 11, 2026: the changed entities/ })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "How it was measured" })).toHaveAttribute("href", "/changes/1#impact");
  });

  it("a change too recent to measure says when it will be", () => {
    render(
      <MemoryRouter>
        <ImpactSummary record={record({ verdict: "too_early", nextMeasureOn: "2026-12-08", series: [], headline: "Too early: …" })} href={null} />
      </MemoryRouter>,
    );
    expect(screen.getByText("Too early")).toBeInTheDocument();
    expect(screen.getByText("Measured from Dec 8, 2026")).toBeInTheDocument();
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("the change set's page names what it was measured together with", () => {
    render(
      <MemoryRouter>
        <ImpactRecordSection record={record({ together: [{ subject: "cs:2", title: "Budget of Search | Tents", day: "2026-10-31", changeSetId: "2" }] })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("region", { name: "Did it work?" })).toHaveTextContent(
      /Measured together with Budget of Search \| Tents \(Oct 31, 2026\): they changed the same campaign/,
    );
    expect(screen.getByRole("link", { name: "Budget of Search | Tents" })).toHaveAttribute("href", "/changes/2");
  });

  it("the calibration table flags estimates that run hot", () => {
    render(
      <CalibrationTable
        currencyCode="USD"
        rows={[
          { type: "wasted_keyword", kind: "cost_saved", applied: 3, measured: 2, estimated: 500, actual: 200, ratio: 0.4 },
          { type: "budget_limited", kind: "conversions_gained", applied: 1, measured: 1, estimated: 10, actual: 9, ratio: 0.9 },
        ]}
      />,
    );
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("Keywords that spend without convertingCost saved32 of 3$500$20040 % · runs hot");
    expect(rows[1]).toHaveTextContent("Budget-limited campaigns beating targetConversions gained1110.09.090 %");
  });
});
