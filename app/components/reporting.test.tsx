// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { hrefWith } from "~/lib/query";
import { DataTable, type Column } from "./data-table";
import { DateRangePicker } from "./date-range-picker";
import { Pagination, pageWindow } from "./pagination";
import { PerformanceChart } from "./performance-chart";
import { AdStrengthBadge, displayUrl, pickForPreview, RsaAssetList, RsaPreview } from "./rsa-preview";

afterEach(cleanup);

function renderAt(ui: React.ReactNode, url = "/x") {
  const Stub = createRoutesStub([{ path: "/x", Component: () => <>{ui}</> }]);
  return render(<Stub initialEntries={[url]} />);
}

interface Row {
  id: string;
  name: string;
  clicks: number;
}
const columns: Column<Row>[] = [
  { key: "name", label: "Campaign", sortable: true, rowHeader: true, cell: (r) => r.name },
  { key: "clicks", label: "Clicks", numeric: true, sortable: true, cell: (r) => r.clicks, total: "30" },
  { key: "note", label: "Note", cell: () => "n" },
];
const rows: Row[] = [
  { id: "1", name: "Alpha", clicks: 10 },
  { id: "2", name: "Beta", clicks: 20 },
];

describe("DataTable", () => {
  it("links sortable headers, marks the active one with aria-sort and toggles its direction", async () => {
    renderAt(
      <DataTable
        caption="Campaigns"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        showTotals
        sort={{ key: "clicks", dir: "desc", href: (key, dir) => hrefWith("/x", "q=a", { sort: key, dir }) }}
      />,
    );
    const table = await screen.findByRole("table", { name: "Campaigns" });
    const clicks = within(table).getByRole("columnheader", { name: /Clicks/ });
    expect(clicks).toHaveAttribute("aria-sort", "descending");
    expect(within(clicks).getByRole("link")).toHaveAttribute("href", "/x?q=a&sort=clicks&dir=asc");
    const name = within(table).getByRole("columnheader", { name: /Campaign/ });
    expect(name).not.toHaveAttribute("aria-sort");
    // Text sorts A→Z first; numbers biggest first.
    expect(within(name).getByRole("link")).toHaveAttribute("href", "/x?q=a&sort=name&dir=asc");
    expect(within(table).getByRole("columnheader", { name: "Note" }).querySelector("a")).toBeNull();
    expect(within(table).getByRole("rowheader", { name: "Alpha" })).toBeInTheDocument();
    const totals = screen.getByTestId("totals-row");
    expect(totals).toHaveTextContent("Total");
    expect(totals).toHaveTextContent("30");
  });

  it("says so when there are no rows, and shows no totals then", async () => {
    renderAt(<DataTable caption="T" columns={columns} rows={[]} rowKey={(r) => r.id} showTotals empty="No campaigns match." />);
    expect(await screen.findByText("No campaigns match.")).toBeInTheDocument();
    expect(screen.queryByTestId("totals-row")).toBeNull();
  });
});

describe("Pagination", () => {
  it("windows page numbers around the current page", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(6, 200)).toEqual([1, "gap", 4, 5, 6, 7, 8, "gap", 200]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
  });

  it("links previous, next and numbered pages and marks the current one", async () => {
    renderAt(<Pagination page={2} pageSize={50} total={10_000} href={(p) => `/x?page=${p}`} noun="campaigns" />);
    expect(await screen.findByTestId("page-summary")).toHaveTextContent("Showing 51–100 of 10,000 campaigns");
    const nav = screen.getByRole("navigation", { name: "Pagination" });
    expect(within(nav).getByRole("link", { name: "Previous" })).toHaveAttribute("href", "/x?page=1");
    expect(within(nav).getByRole("link", { name: "Next" })).toHaveAttribute("href", "/x?page=3");
    expect(within(nav).getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Page 200" })).toBeInTheDocument();
  });

  it("hides the page links when everything fits on one page", async () => {
    renderAt(<Pagination page={1} pageSize={50} total={14} href={(p) => `/x?page=${p}`} noun="campaigns" />);
    expect(await screen.findByTestId("page-summary")).toHaveTextContent("Showing 1–14 of 14 campaigns");
    expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
  });
});

describe("DateRangePicker", () => {
  it("offers preset links and a custom GET form keeping the other query values", async () => {
    renderAt(
      <DateRangePicker
        action="/x"
        range={{ from: "2026-10-23", to: "2026-11-21" }}
        presets={[
          { label: "Last 7 days", href: "/x?days=7", current: false },
          { label: "Last 30 days", href: "/x", current: true },
        ]}
        hidden={[["sort", "cost"]]}
        notice="That range is not valid; showing the last 30 days."
        max="2026-11-21"
      />,
    );
    const nav = await screen.findByRole("navigation", { name: "Date range" });
    expect(within(nav).getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
    expect(within(nav).getByRole("link", { name: "Last 7 days" })).toHaveAttribute("href", "/x?days=7");
    const form = screen.getByRole("form", { name: "Custom date range" });
    expect(form).toHaveAttribute("method", "get");
    expect(form).toHaveAttribute("action", "/x");
    expect(within(form).getByLabelText("From")).toHaveValue("2026-10-23");
    expect(within(form).getByLabelText("To")).toHaveValue("2026-11-21");
    expect(form.querySelector('input[type="hidden"][name="sort"]')).toHaveValue("cost");
    expect(screen.getByTestId("range-label")).toHaveTextContent("Oct 23 – Nov 21, 2026");
    expect(screen.getByRole("alert")).toHaveTextContent("not valid");
  });
});

describe("PerformanceChart", () => {
  const points = [
    { date: "2026-11-19", costMicros: 10_000_000, clicks: 10, conversions: 1 },
    { date: "2026-11-20", costMicros: 30_000_000, clicks: 25, conversions: 2.5 },
    { date: "2026-11-21", costMicros: 20_000_000, clicks: 15, conversions: 0 },
  ];

  it("draws an accessible SVG with a title, a summary and a data table", async () => {
    renderAt(<PerformanceChart points={points} currencyCode="USD" range={{ from: "2026-11-19", to: "2026-11-21" }} />);
    const chart = await screen.findByRole("img", { name: /Spend, clicks and conversions, Nov 19 – Nov 21, 2026/ });
    expect(chart).toHaveAccessibleName(/3 days. Total spend \$60.00, 50 clicks, 3.50 conversions./);
    expect(chart.querySelectorAll("g[data-series]")).toHaveLength(3);
    expect(chart.querySelectorAll("path[stroke]")).toHaveLength(3);
    const table = screen.getByRole("table", { name: /Spend, clicks and conversions/ });
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    expect(within(table).getByRole("rowheader", { name: "Nov 20, 2026" }).parentElement).toHaveTextContent("$30.00252.50");
  });

  it("has y axes with units, a tooltip by keyboard, and the previous period beside the range", async () => {
    const previous = points.map((p, i) => ({ ...p, date: `2026-11-1${6 + i}`, costMicros: 15_000_000 }));
    renderAt(
      <PerformanceChart
        points={points}
        previous={previous}
        previousRange={{ from: "2026-11-16", to: "2026-11-18" }}
        currencyCode="USD"
        range={{ from: "2026-11-19", to: "2026-11-21" }}
      />,
    );
    const chart = await screen.findByRole("img", { name: /compared with Nov 16 – Nov 18, 2026/ });
    expect(screen.getByText("(USD)")).toBeInTheDocument();
    expect(screen.getAllByTestId("y-tick").map((t) => t.textContent)).toContain("$30");
    expect(chart.querySelectorAll("[data-testid=previous-line]")).toHaveLength(3);
    // Spend 60 vs 45 over the previous period: +33.3 %.
    expect(screen.getByTestId("chart-totals")).toHaveTextContent("Spend$60.00▲ +33.3% vs $45.00");
    expect(screen.queryByRole("tooltip")).toBeNull();
    chart.focus();
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    fireEvent.keyDown(chart, { key: "ArrowRight" });
    const tip = screen.getByRole("tooltip");
    expect(tip).toHaveTextContent("Nov 20, 2026 vs Nov 17, 2026");
    expect(tip).toHaveTextContent("Spend$30.00 vs $15.00");
    expect(tip).toHaveTextContent("Clicks25 vs 25");
    fireEvent.keyDown(chart, { key: "Escape" });
    expect(screen.queryByRole("tooltip")).toBeNull();
    // The numbers as a table, with the previous period's columns, behind a disclosure.
    const table = screen.getByRole("table", { name: /Spend, clicks and conversions/ });
    expect(table.closest("details")).not.toBeNull();
    expect(within(table).getByRole("columnheader", { name: "Spend, previous period" })).toBeInTheDocument();
  });

  it("says when there is nothing to draw", async () => {
    renderAt(<PerformanceChart points={[]} currencyCode="EUR" range={{ from: "2026-11-19", to: "2026-11-21" }} />);
    expect(await screen.findByRole("img", { name: /No data for this range/ })).toBeInTheDocument();
  });
});

describe("RSA preview", () => {
  const ad = {
    headlines: [
      { text: "Free Shipping", pinnedField: null, performanceLabel: "GOOD" },
      { text: "Northwind Tents", pinnedField: "HEADLINE_1", performanceLabel: "BEST" },
      { text: "Shop Family Tents", pinnedField: null, performanceLabel: "LOW" },
      { text: "Camp in Comfort", pinnedField: null, performanceLabel: null },
    ],
    descriptions: [
      { text: "Roomy tents for the whole family.", pinnedField: null, performanceLabel: "GOOD" },
      { text: "Order today, ships tomorrow.", pinnedField: null, performanceLabel: "LEARNING" },
    ],
    finalUrl: "https://www.northwind.example/tents?utm=1",
    path1: "Tents",
    path2: "Family",
  };

  it("builds the display URL from the final URL and paths (path2 only after path1)", () => {
    expect(displayUrl("https://www.northwind.example/x", "Tents", "Family")).toBe("northwind.example/Tents/Family");
    expect(displayUrl("https://shop.example", null, "Family")).toBe("shop.example");
    expect(displayUrl(null, null, null)).toBe("");
  });

  it("keeps pinned assets in their slot and fills the rest in order", () => {
    expect(pickForPreview(ad.headlines, ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"])).toEqual(["Northwind Tents", "Free Shipping", "Shop Family Tents"]);
  });

  it("renders a search-result card and the full asset list with pins and labels", async () => {
    renderAt(
      <>
        <AdStrengthBadge strength="GOOD" />
        <RsaPreview ad={ad} />
        <RsaAssetList title="Headlines" assets={ad.headlines} limit={30} />
      </>,
    );
    expect(await screen.findByTestId("rsa-headline")).toHaveTextContent("Northwind Tents | Free Shipping | Shop Family Tents");
    expect(screen.getByTestId("rsa-display-url")).toHaveTextContent("northwind.example/Tents/Family");
    expect(screen.getByTestId("rsa-description")).toHaveTextContent("Roomy tents for the whole family. Order today, ships tomorrow.");
    expect(screen.getByText("Ad strength: Good")).toBeInTheDocument();
    expect(screen.getByText("Pinned to headline 1")).toBeInTheDocument();
    expect(screen.getByText("Best")).toBeInTheDocument();
    expect(screen.getByText("Low")).toBeInTheDocument();
    expect(screen.getByText("Headlines").parentElement).toHaveTextContent("(4)");
  });
});
