import { describe, expect, it } from "vitest";
import { addDays, dateIn, datesInRange, defaultRange, isIsoDate, latestDateOnEarth, rangeLength, todayIn, yesterdayIn, zonedToUtc } from "./dates";

// DST in 2026: New York springs forward on 8 March at 02:00 EST (07:00 UTC)
// and falls back on 1 November at 02:00 EDT (06:00 UTC); Berlin springs
// forward on 29 March at 02:00 CET (01:00 UTC) and falls back on 25 October
// at 03:00 CEST (01:00 UTC).

describe("calendar dates", () => {
  it("accepts real dates only", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(isIsoDate("2025-02-30")).toBe(false);
    expect(isIsoDate("2025-1-01")).toBe(false);
    expect(isIsoDate(20250101)).toBe(false);
    expect(() => addDays("2025-02-30", 1)).toThrow(RangeError);
  });

  it("counts days across a DST change as whole days, whatever the machine's zone", () => {
    // Both 2026 DST weekends of New York and Berlin, forwards and backwards.
    expect(addDays("2026-03-07", 1)).toBe("2026-03-08");
    expect(addDays("2026-03-08", 1)).toBe("2026-03-09");
    expect(addDays("2026-03-29", -1)).toBe("2026-03-28");
    expect(addDays("2026-10-24", 2)).toBe("2026-10-26");
    expect(addDays("2026-11-01", 1)).toBe("2026-11-02");
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(rangeLength({ from: "2026-03-01", to: "2026-03-31" })).toBe(31);
    expect(rangeLength({ from: "2026-10-20", to: "2026-11-05" })).toBe(17);
    expect(datesInRange({ from: "2026-03-07", to: "2026-03-09" })).toEqual(["2026-03-07", "2026-03-08", "2026-03-09"]);
    expect(datesInRange({ from: "2026-10-24", to: "2026-10-26" })).toEqual(["2026-10-24", "2026-10-25", "2026-10-26"]);
  });
});

describe("dates in the account's time zone", () => {
  it("New York: today and yesterday on both sides of the spring-forward night", () => {
    // 04:59 UTC on 8 March is 23:59 EST on the 7th; 05:00 UTC is midnight.
    expect(todayIn("America/New_York", new Date("2026-03-08T04:59:59Z"))).toBe("2026-03-07");
    expect(todayIn("America/New_York", new Date("2026-03-08T05:00:00Z"))).toBe("2026-03-08");
    // After the change (EDT, UTC-4): midnight of the 9th is 04:00 UTC.
    expect(todayIn("America/New_York", new Date("2026-03-09T03:59:59Z"))).toBe("2026-03-08");
    expect(todayIn("America/New_York", new Date("2026-03-09T04:00:00Z"))).toBe("2026-03-09");
    expect(yesterdayIn("America/New_York", new Date("2026-03-09T03:30:00Z"))).toBe("2026-03-07");
    expect(yesterdayIn("America/New_York", new Date("2026-03-09T04:30:00Z"))).toBe("2026-03-08");
  });

  it("New York: the fall-back night's 25 hours are one date", () => {
    expect(todayIn("America/New_York", new Date("2026-11-01T03:59:59Z"))).toBe("2026-10-31");
    expect(todayIn("America/New_York", new Date("2026-11-01T04:00:00Z"))).toBe("2026-11-01");
    expect(todayIn("America/New_York", new Date("2026-11-02T04:59:59Z"))).toBe("2026-11-01");
    expect(todayIn("America/New_York", new Date("2026-11-02T05:00:00Z"))).toBe("2026-11-02");
    expect(yesterdayIn("America/New_York", new Date("2026-11-02T04:30:00Z"))).toBe("2026-10-31");
  });

  it("Berlin: midnight moves from 23:00 to 22:00 UTC in spring and back in autumn", () => {
    expect(todayIn("Europe/Berlin", new Date("2026-03-28T22:59:59Z"))).toBe("2026-03-28");
    expect(todayIn("Europe/Berlin", new Date("2026-03-28T23:00:00Z"))).toBe("2026-03-29");
    expect(todayIn("Europe/Berlin", new Date("2026-03-29T21:59:59Z"))).toBe("2026-03-29");
    expect(todayIn("Europe/Berlin", new Date("2026-03-29T22:00:00Z"))).toBe("2026-03-30");
    expect(todayIn("Europe/Berlin", new Date("2026-10-24T22:00:00Z"))).toBe("2026-10-25");
    expect(todayIn("Europe/Berlin", new Date("2026-10-25T22:59:59Z"))).toBe("2026-10-25");
    expect(todayIn("Europe/Berlin", new Date("2026-10-25T23:00:00Z"))).toBe("2026-10-26");
    expect(yesterdayIn("Europe/Berlin", new Date("2026-10-25T23:30:00Z"))).toBe("2026-10-25");
  });

  it("the default range is the 30 days ending yesterday in the zone", () => {
    expect(defaultRange("America/New_York", new Date("2026-03-09T03:30:00Z"))).toEqual({ from: "2026-02-06", to: "2026-03-07" });
    expect(defaultRange("Europe/Berlin", new Date("2026-03-09T03:30:00Z"))).toEqual({ from: "2026-02-07", to: "2026-03-08" });
  });

  it("an unknown zone is read as UTC; the latest date on Earth is UTC+14's", () => {
    expect(todayIn("Not/AZone", new Date("2026-03-08T23:30:00Z"))).toBe("2026-03-08");
    expect(dateIn("UTC", new Date("2026-03-08T23:30:00Z"))).toBe("2026-03-08");
    expect(latestDateOnEarth(new Date("2026-03-08T09:59:59Z"))).toBe("2026-03-08");
    expect(latestDateOnEarth(new Date("2026-03-08T10:00:00Z"))).toBe("2026-03-09");
  });
});

// The same answers whatever the machine's own zone (TZ): run under several in CI by hand, e.g. TZ=Europe/Berlin.
describe("zonedToUtc (Google's change_date_time in the account's zone)", () => {
  it("New York around both changes", () => {
    expect(zonedToUtc("2026-03-08 01:59:59.999999", "America/New_York")).toBe("2026-03-08T06:59:59.999Z");
    expect(zonedToUtc("2026-03-08 03:00:00", "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
    expect(zonedToUtc("2026-03-08 12:34:56.5", "America/New_York")).toBe("2026-03-08T16:34:56.500Z");
    // The repeated hour of the fall-back night is ambiguous: read as its first occurrence (EDT).
    expect(zonedToUtc("2026-11-01 01:30:00", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
    expect(zonedToUtc("2026-11-01 02:00:00", "America/New_York")).toBe("2026-11-01T07:00:00.000Z");
    expect(zonedToUtc("2026-11-01 00:59:59", "America/New_York")).toBe("2026-11-01T04:59:59.000Z");
  });

  it("Berlin around both changes", () => {
    expect(zonedToUtc("2026-03-29 01:59:59", "Europe/Berlin")).toBe("2026-03-29T00:59:59.000Z");
    expect(zonedToUtc("2026-03-29 03:00:00", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    // Its repeated hour (02:00–03:00) resolves to the second occurrence (CET).
    expect(zonedToUtc("2026-10-25 02:30:00", "Europe/Berlin")).toBe("2026-10-25T01:30:00.000Z");
    expect(zonedToUtc("2026-10-25 03:00:00", "Europe/Berlin")).toBe("2026-10-25T02:00:00.000Z");
    expect(zonedToUtc("2026-07-01T12:00:00", "Europe/Berlin")).toBe("2026-07-01T10:00:00.000Z");
  });

  it("a time the spring-forward skips is read with the offset before it; junk is refused", () => {
    // 02:30 does not exist that night: 06:30 UTC, which is 01:30 EST.
    expect(zonedToUtc("2026-03-08 02:30:00", "America/New_York")).toBe("2026-03-08T06:30:00.000Z");
    expect(() => zonedToUtc("yesterday", "Europe/Berlin")).toThrow(RangeError);
  });
});
