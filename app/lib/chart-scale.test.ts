import { describe, expect, it } from "vitest";
import { axisTicks, compactNumber, percentChange } from "./chart-scale";

describe("axisTicks", () => {
  it("ends on a round number at or above the maximum", () => {
    expect(axisTicks(95)).toEqual([0, 50, 100]);
    expect(axisTicks(5230)).toEqual([0, 2000, 4000, 6000]);
    expect(axisTicks(0.7)).toEqual([0, 0.25, 0.5, 0.75]);
    expect(axisTicks(300)).toEqual([0, 100, 200, 300]);
  });
  it("gives an empty series an axis", () => {
    expect(axisTicks(0)).toEqual([0, 1]);
    expect(axisTicks(Number.NaN)).toEqual([0, 1]);
  });
  it("covers every value", () => {
    for (const max of [1, 3, 7.5, 12, 99, 101, 999, 1001, 123_456, 4.2e9]) {
      const ticks = axisTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

describe("compactNumber and percentChange", () => {
  it("labels ticks shortly, with the currency when given", () => {
    expect(compactNumber(1234)).toBe("1.2K");
    expect(compactNumber(1500, "USD")).toBe("$1.5K");
    expect(compactNumber(350, "EUR")).toBe("€350");
  });
  it("compares with the previous period, or says nothing when it had nothing", () => {
    expect(percentChange(110, 100)).toBeCloseTo(10);
    expect(percentChange(50, 100)).toBeCloseTo(-50);
    expect(percentChange(5, 0)).toBeNull();
  });
});

describe("previousPeriod", async () => {
  const { previousPeriod, wantsComparison } = await import("./compare-period");
  it("is as long as the range and ends the day before it", () => {
    expect(previousPeriod({ from: "2026-10-23", to: "2026-11-21" })).toEqual({ from: "2026-09-23", to: "2026-10-22" });
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-01" })).toEqual({ from: "2026-02-28", to: "2026-02-28" });
    expect(wantsComparison(new URLSearchParams("compare=previous"))).toBe(true);
    expect(wantsComparison(new URLSearchParams("compare=yes"))).toBe(false);
  });
});
