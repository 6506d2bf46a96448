import { TZDate } from "@date-fns/tz";
import { format, subDays } from "date-fns";
import { lastNDays, DEFAULT_RANGE_DAYS, type DateRange } from "~/lib/date-range";

// Google Ads reports days in the account's own time zone: "yesterday" for an
// account in Sydney is a different date from one in Los Angeles at the same instant.

function inZone(timeZone: string, now: Date): TZDate {
  const zoned = new TZDate(now.getTime(), timeZone);
  // An unknown zone name yields an invalid date; UTC is the least surprising fallback.
  return Number.isNaN(zoned.getTime()) ? new TZDate(now.getTime(), "UTC") : zoned;
}

/** Today's date (YYYY-MM-DD) in the time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return format(inZone(timeZone, now), "yyyy-MM-dd");
}

/** Yesterday's date (YYYY-MM-DD) in the time zone: the last complete day of data. */
export function yesterdayIn(timeZone: string, now: Date = new Date()): string {
  return format(subDays(inZone(timeZone, now), 1), "yyyy-MM-dd");
}

/** The last 30 days ending yesterday in the account's time zone. */
export function defaultRange(timeZone: string, today: Date = new Date()): DateRange {
  return lastNDays(DEFAULT_RANGE_DAYS, yesterdayIn(timeZone, today));
}
