import { describe, expect, it } from "vitest";
import { addDays } from "~/lib/dates";
import { isYoung, type Context } from "./context.server";
import { makePeriod } from "./data.server";
import { observedConversionLag, type DayTotals } from "./lag.server";

// Issue 28 (measured): a lead-generation account whose leads convert 2–4 weeks after the click.
const DATA_TO = "2026-11-21";
function days(rate: (age: number) => number, clicks = 50): DayTotals[] {
  const out: DayTotals[] = [];
  for (let age = 1; age <= 90; age++) out.push({ date: addDays(DATA_TO, -(age - 1)), clicks, conversions: clicks * rate(age) });
  return out;
}

describe("observedConversionLag", () => {
  it("finds the weeks whose conversions have not arrived yet", () => {
    // 4.5 % settled; the last two weeks at a third of it.
    expect(
      observedConversionLag(
        days((age) => (age <= 14 ? 0.015 : 0.045)),
        DATA_TO,
      ),
    ).toBe(14);
  });

  it("is 0 for an account whose recent weeks convert like the rest", () => {
    expect(
      observedConversionLag(
        days(() => 0.045),
        DATA_TO,
      ),
    ).toBe(0);
    // A mildly weaker last week (−20 %) is a bad week, not a lag.
    expect(
      observedConversionLag(
        days((age) => (age <= 7 ? 0.036 : 0.045)),
        DATA_TO,
      ),
    ).toBe(0);
  });

  it("does not read a thin week as lag", () => {
    // Two clicks a day: no conversion in a week proves nothing.
    expect(
      observedConversionLag(
        days((age) => (age <= 7 ? 0 : 0.045), 2),
        DATA_TO,
      ),
    ).toBe(0);
  });
});

describe("isYoung with the account's lag", () => {
  const ctx = (lag: number) =>
    ({
      data: { period: makePeriod("2026-08-24", DATA_TO, null), conversionLagDays: lag },
      campaigns: new Map([["1", { startDate: "2025-01-01" }]]),
    }) as unknown as Context;
  const twentyDaysOld = addDays(DATA_TO, -19);

  it("a keyword 20 days old is judged in an account without lag, not in one whose conversions take two weeks", () => {
    expect(isYoung(ctx(0), twentyDaysOld, "1")).toBe(false);
    expect(isYoung(ctx(14), twentyDaysOld, "1")).toBe(true);
  });
});
