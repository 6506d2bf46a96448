import { describe, expect, it } from "vitest";
import { metricCsvColumns, toCsv } from "./csv.server";

describe("toCsv", () => {
  it("quotes commas, quotes and line breaks, and keeps formulas from running", () => {
    const rows = [
      { name: '=HYPERLINK("http://evil.example","click")', n: -5 },
      { name: '+1 tent, "family"\nsize', n: 3.5 },
      { name: "@SUM(A1:A2)", n: 0 },
      { name: "-cheap tents", n: null },
      { name: "\tpadded", n: 1 },
    ];
    const csv = toCsv(
      [
        { header: "Name", value: (r: (typeof rows)[number]) => r.name },
        { header: "N", value: (r: (typeof rows)[number]) => r.n },
      ],
      rows,
    );
    // A BOM, then RFC 4180 records.
    expect(csv.startsWith("\uFEFFName,N\n")).toBe(true);
    const body = csv.slice(1).split("\n").slice(1).join("\n");
    expect(body).toBe(
      [`"'=HYPERLINK(""http://evil.example"",""click"")",-5`, `"'+1 tent, ""family""\nsize",3.5`, `'@SUM(A1:A2),0`, `'-cheap tents,`, `'\tpadded,1`, ""].join(
        "\n",
      ),
    );
  });

  it("keeps a formula after leading spaces or line breaks from running too", () => {
    const rows = ['  =HYPERLINK("http://evil.example")', "\u00a0+1+1", "\n@SUM(A1)", "   -2", " plain text", "a=b"];
    const csv = toCsv([{ header: "Name", value: (r: string) => r }], rows);
    const cells = csv
      .slice(1)
      .split("\n")
      .slice(1, 1 + rows.length);
    expect(cells[0]).toBe(`"'  =HYPERLINK(""http://evil.example"")"`);
    expect(cells[1]).toBe("'\u00a0+1+1");
    expect(csv).toContain(`"'\n@SUM(A1)"`);
    expect(csv).toContain("\n'   -2\n");
    // Text that is not a formula is left as it was.
    expect(csv).toContain("\n plain text\na=b\n");
  });

  it("writes the standard metrics as plain numbers, empty where a ratio has no denominator", () => {
    const m = { impressions: 1000, clicks: 50, costMicros: 12_345_678, conversions: 2.5, conversionsValue: 100 };
    const zero = { impressions: 0, clicks: 0, costMicros: 0, conversions: 0, conversionsValue: 0 };
    const csv = toCsv(
      metricCsvColumns((r: typeof m) => r, "EUR"),
      [m, zero],
    );
    const [header, first, second] = csv.slice(1).trim().split("\n");
    expect(header).toBe("Impressions,Clicks,CTR (%),Avg. CPC (EUR),Cost (EUR),Conversions,Cost/conv. (EUR),Conv. value/cost");
    expect(first).toBe("1000,50,5,0.25,12.35,2.5,4.94,8.1");
    expect(second).toBe("0,0,,,0,0,,");
  });
});
