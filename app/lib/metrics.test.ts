import { describe, expect, it } from "vitest";
import { addMetrics, emptyMetrics, fractionalSum } from "./metrics";

describe("sums of fractional metrics", () => {
  it("drop the binary noise of adding doubles, and nothing Google reports", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(fractionalSum(0.1 + 0.2)).toBe(0.3);
    expect(fractionalSum(218457.61000000002)).toBe(218457.61);
    expect(fractionalSum(2.333333)).toBe(2.333333);
    expect(fractionalSum(-1.5)).toBe(-1.5);
    const rows = Array.from({ length: 90 }, () => ({ ...emptyMetrics(), conversions: 0.1, conversionsValue: 12.34 }));
    const total = rows.reduce(addMetrics, emptyMetrics());
    expect(total.conversions).toBe(9);
    expect(total.conversionsValue).toBe(1110.6);
  });
});
