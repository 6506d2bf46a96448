// Calendar arithmetic on "day numbers" (days since 1970-01-01, UTC calendar).
// Ads dates are plain calendar dates in the account's time zone, so once
// "today" is known in that zone everything else is zone-free integer math.

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})$/;

export function dayFromParts(y: number, m: number, d: number): number {
  return Math.floor(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

/** Parses 'YYYY-MM-DD' or 'YYYYMMDD' (both accepted by GAQL); undefined when malformed or not a real date. */
export function parseDay(text: string): number | undefined {
  const m = ISO_DATE.exec(text) ?? BASIC_DATE.exec(text);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const day = dayFromParts(y, mo, d);
  // Rejects 2025-02-30 and friends, which Date.UTC would silently roll over.
  const back = new Date(day * MS_PER_DAY);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return day;
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Monday of the ISO week containing `day` (segments.week is keyed by that Monday). */
export function mondayOf(day: number): number {
  return day - ((weekday(day) + 6) % 7);
}

export function monthStart(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return dayFromParts(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export function quarterStart(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return dayFromParts(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3 + 1, 1);
}

export function yearOf(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}

export function monthIndex(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCMonth();
}

/** Calendar date "now" in an IANA time zone, as a day number. */
export function todayIn(timeZone: string, now: Date): number {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return dayFromParts(get("year"), get("month"), get("day"));
}

export const DAY_OF_WEEK_ENUM = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"] as const;
export const MONTH_OF_YEAR_ENUM = [
  "JANUARY",
  "FEBRUARY",
  "MARCH",
  "APRIL",
  "MAY",
  "JUNE",
  "JULY",
  "AUGUST",
  "SEPTEMBER",
  "OCTOBER",
  "NOVEMBER",
  "DECEMBER",
] as const;

/** The only literals GAQL's DURING accepts (LAST_90_DAYS and friends are rejected by Google). */
export const DURING_LITERALS = [
  "TODAY",
  "YESTERDAY",
  "LAST_7_DAYS",
  "LAST_14_DAYS",
  "LAST_30_DAYS",
  "LAST_BUSINESS_WEEK",
  "THIS_MONTH",
  "LAST_MONTH",
  "THIS_WEEK_SUN_TODAY",
  "THIS_WEEK_MON_TODAY",
  "LAST_WEEK_SUN_SAT",
  "LAST_WEEK_MON_SUN",
] as const;
export type DuringLiteral = (typeof DURING_LITERALS)[number];

export function isDuringLiteral(s: string): s is DuringLiteral {
  return (DURING_LITERALS as readonly string[]).includes(s);
}

/** Inclusive [from, to] day range of a DURING literal relative to `today` (customer time zone). */
export function duringRange(literal: DuringLiteral, today: number): [number, number] {
  const dow = weekday(today);
  switch (literal) {
    case "TODAY":
      return [today, today];
    case "YESTERDAY":
      return [today - 1, today - 1];
    case "LAST_7_DAYS":
      return [today - 7, today - 1];
    case "LAST_14_DAYS":
      return [today - 14, today - 1];
    case "LAST_30_DAYS":
      return [today - 30, today - 1];
    case "THIS_MONTH":
      return [monthStart(today), today];
    case "LAST_MONTH": {
      const thisMonth = monthStart(today);
      return [monthStart(thisMonth - 1), thisMonth - 1];
    }
    case "THIS_WEEK_SUN_TODAY":
      return [today - dow, today];
    case "THIS_WEEK_MON_TODAY":
      return [mondayOf(today), today];
    case "LAST_WEEK_SUN_SAT": {
      const sunday = today - dow - 7;
      return [sunday, sunday + 6];
    }
    case "LAST_WEEK_MON_SUN": {
      const monday = mondayOf(today) - 7;
      return [monday, monday + 6];
    }
    case "LAST_BUSINESS_WEEK": {
      const monday = mondayOf(today) - 7;
      return [monday, monday + 4];
    }
  }
}
