import { describe, expect, it } from "vitest";
import { diffFields, fieldName, formatPercentChange } from "./change-fields";

describe("change fields as people read them", () => {
  it("names fields, including Google's dotted paths", () => {
    expect(fieldName("cpcBidMicros")).toBe("Max. CPC");
    expect(fieldName("amountMicros")).toBe("Daily budget");
    expect(fieldName("keyword.matchType")).toBe("Match type");
    expect(fieldName("name")).toBe("Name");
    expect(fieldName("finalMobileUrls")).toBe("Final mobile urls");
  });

  it("an update shows only what it changes, money in the account's currency, with the move in percent", () => {
    expect(diffFields({ amountMicros: 50_000_000, adGroup: "x" }, { amountMicros: 60_000_000 }, "EUR")).toEqual([
      { field: "Daily budget", before: "€50.00", after: "€60.00", percent: 20 },
    ]);
    expect(diffFields({ cpcBidMicros: null }, { cpcBidMicros: 1_250_000 }, "USD")).toEqual([
      { field: "Max. CPC", before: "Not set", after: "$1.25", percent: null },
    ]);
    // An ad group's own target CPA; cleared, the campaign's target applies.
    expect(diffFields({ targetCpaMicros: null }, { targetCpaMicros: 30_000_000 }, "USD")).toEqual([
      { field: "Target CPA", before: "Campaign's target", after: "$30.00", percent: null },
    ]);
    expect(diffFields({ targetCpaMicros: 30_000_000 }, { targetCpaMicros: null }, "USD")).toEqual([
      { field: "Target CPA", before: "$30.00", after: "Campaign's target", percent: null },
    ]);
  });

  it("a create shows what it makes; a remove ends in Removed", () => {
    expect(diffFields(null, { adGroup: "customers/1/adGroups/2", text: "tents", matchType: "EXACT", negative: true }, "USD")).toEqual([
      { field: "Keyword", before: null, after: "tents", percent: null },
      { field: "Match type", before: null, after: "Exact", percent: null },
      { field: "Negative", before: null, after: "Yes", percent: null },
    ]);
    expect(diffFields({ status: "ENABLED", text: "tents" }, { status: "REMOVED" }, "USD")).toEqual([
      { field: "Status", before: "Enabled", after: "Removed", percent: null },
    ]);
  });

  it("formats a move with its sign", () => {
    expect(formatPercentChange(200)).toBe("+200%");
    expect(formatPercentChange(-33.333)).toBe("-33.3%");
  });
});
