import { describe, expect, it } from "vitest";
import {
  countOf,
  formatCustomerId,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDecimal,
  formatEnum,
  formatInteger,
  formatMoney,
  formatPercent,
  formatTimeAgo,
} from "./format";

describe("formatMoney", () => {
  it("turns micros into the account currency", () => {
    expect(formatMoney(1_234_560_000, "USD")).toBe("$1,234.56");
    expect(formatMoney(1_234_560_000, "EUR")).toBe("€1,234.56");
    expect(formatMoney(0, "USD")).toBe("$0.00");
    expect(formatMoney(1_234_560_000, "USD", { wholeUnits: true })).toBe("$1,235");
    expect(formatMoney(990_000, "JPY")).toBe("¥1");
  });
  it("shows a dash for nothing and survives an unknown currency code", () => {
    expect(formatMoney(null, "USD")).toBe("—");
    expect(formatMoney(Number.NaN, "USD")).toBe("—");
    expect(formatMoney(5_000_000, "NOT-A-CODE")).toBe("$5.00");
  });
});

describe("numbers and ratios", () => {
  it("formats integers, decimals and percentages, dashing what cannot be computed", () => {
    expect(formatInteger(1234567.4)).toBe("1,234,567");
    expect(formatDecimal(12.5)).toBe("12.50");
    expect(formatDecimal(3, 1)).toBe("3.0");
    expect(formatPercent(0.0345)).toBe("3.45%");
    expect(formatPercent(1)).toBe("100.00%");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe("—");
    expect(formatInteger(undefined)).toBe("—");
  });
});

describe("dates", () => {
  it("formats calendar days without shifting them by the machine's zone", () => {
    expect(formatDate("2026-11-21")).toBe("Nov 21, 2026");
    expect(formatDate("2026-01-01", { short: true })).toBe("Jan 1");
    expect(formatDate("garbage")).toBe("garbage");
  });
  it("formats ranges compactly", () => {
    expect(formatDateRange({ from: "2026-10-23", to: "2026-11-21" })).toBe("Oct 23 – Nov 21, 2026");
    expect(formatDateRange({ from: "2025-12-01", to: "2026-01-05" })).toBe("Dec 1, 2025 – Jan 5, 2026");
    expect(formatDateRange({ from: "2026-11-21", to: "2026-11-21" })).toBe("Nov 21, 2026");
  });
  it("formats moments in a zone and relative to an explicit now", () => {
    expect(formatDateTime("2026-11-22T20:04:00Z", "America/New_York")).toBe("Nov 22, 2026, 3:04 PM EST");
    expect(formatDateTime("2026-07-22T20:04:00Z", "America/New_York")).toBe("Jul 22, 2026, 4:04 PM EDT");
    expect(formatDateTime("2026-11-22T20:04:00Z", "Europe/Berlin")).toBe("Nov 22, 2026, 9:04 PM GMT+1");
    expect(formatDateTime("2026-11-22T20:04:00Z", "Not/AZone")).toBe("Nov 22, 2026, 8:04 PM UTC");
    const now = "2026-11-22T12:00:00Z";
    expect(formatTimeAgo("2026-11-22T11:59:50Z", now)).toBe("just now");
    expect(formatTimeAgo("2026-11-22T11:59:00Z", now)).toBe("1 minute ago");
    expect(formatTimeAgo("2026-11-22T11:55:00Z", now)).toBe("5 minutes ago");
    expect(formatTimeAgo("2026-11-22T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatTimeAgo("2026-11-19T12:00:00Z", now)).toBe("3 days ago");
  });
});

describe("identifiers and enums", () => {
  it("formats customer ids and Google enum names", () => {
    expect(formatCustomerId("1234567890")).toBe("123-456-7890");
    expect(formatCustomerId("abc")).toBe("abc");
    expect(formatEnum("SEARCH")).toBe("Search");
    expect(formatEnum("MAXIMIZE_CONVERSION_VALUE")).toBe("Maximize conversion value");
    expect(formatEnum("PERFORMANCE_MAX")).toBe("Performance Max");
    expect(formatEnum("TARGET_CPA")).toBe("Target CPA");
    expect(formatEnum(null)).toBe("—");
  });
});

describe("countOf", () => {
  it("puts the noun in the singular only when the number shows as exactly 1", () => {
    expect(countOf(1, "conversion")).toBe("1 conversion");
    expect(countOf(0, "click")).toBe("0 clicks");
    expect(countOf(2.5, "conversion")).toBe("2.5 conversions");
    expect(countOf(1, "conversion", "1.00")).toBe("1.00 conversions");
    expect(countOf(1204, "click", "1,204")).toBe("1,204 clicks");
    expect(countOf(1, "search", "1", "searches")).toBe("1 search");
    expect(countOf(3, "search", "3", "searches")).toBe("3 searches");
  });
});
