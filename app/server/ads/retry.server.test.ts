// @vitest-environment node
import { describe, expect, it } from "vitest";
import { backoffCeilingMs, retryWaitMs } from "./retry.server";

describe("retryWaitMs", () => {
  it("stays within [0, min(30 s, 1 s · 2^n)] for any random value", () => {
    for (let retryIndex = 0; retryIndex < 8; retryIndex++) {
      for (const r of [0, 0.001, 0.25, 0.5, 0.75, 0.999, 1]) {
        const wait = retryWaitMs({ retryIndex, random: () => r })!;
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThanOrEqual(Math.min(30_000, 1000 * 2 ** retryIndex));
      }
    }
    expect(backoffCeilingMs(10)).toBe(30_000);
  });

  it("waits at least Google's retry delay, but refuses delays beyond the cap", () => {
    expect(retryWaitMs({ retryIndex: 0, random: () => 0.1, retryDelayMs: 2000 })).toBe(2000);
    expect(retryWaitMs({ retryIndex: 3, random: () => 1, retryDelayMs: 2000 })).toBe(8000);
    expect(retryWaitMs({ retryIndex: 0, random: () => 0, retryDelayMs: 30_000 })).toBe(30_000);
    expect(retryWaitMs({ retryIndex: 0, random: () => 0, retryDelayMs: 30_001 })).toBeUndefined();
    expect(retryWaitMs({ retryIndex: 0, random: () => 0, retryDelayMs: 5000, maxBackoffMs: 4000 })).toBeUndefined();
  });
});
