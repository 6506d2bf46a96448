import { TZDate, tzOffset } from "@date-fns/tz";
import { format } from "date-fns";
import { z } from "zod";

// The one date module (date-fns and @date-fns/tz), shared by the server
// (validation, SQL, Google's reports) and the browser (pickers, presets).
//
// Dates are calendar days written YYYY-MM-DD. Google Ads reports days in the
// account's own time zone ("yesterday" in Sydney is another date than in Los
// Angeles at the same instant), so an instant becomes a date only through a
// named zone (dateIn, todayIn, yesterdayIn), and arithmetic on dates is done
// on UTC days, which are always 24 hours: neither the machine's zone nor a
// DST change ever shifts a date.

/** Inclusive on both ends, YYYY-MM-DD. */
export interface DateRange {
  from: string;
  to: string;
}

/** A leap year plus one day short of two years: enough for year-over-year views, small enough to stay fast. */
export const MAX_RANGE_DAYS = 366;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY = "yyyy-MM-dd";

// Calendar arithmetic is plain day numbers (days since 1970-01-01 in UTC, where
// every day is 24 hours): exact, and an order of magnitude cheaper than a TZDate
// and a format() per step, which was ~14 % of the dashboard's CPU (a 30-day
// chart walks its range day by day on every request).
const DAY_MS = 86_400_000;

/** The date's day number, or null when it is not a real calendar date (2025-02-30 is not). */
function dayNumber(date: string): number | null {
  const m = ISO_DATE.exec(date);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2025-02-30 over to March (and reads years 0–99 as 1900–1999): a real date survives the round trip.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return null;
  return utc.getTime() / DAY_MS;
}

function requireDay(date: string): number {
  const day = dayNumber(date);
  if (day === null) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${String(date).slice(0, 30)}`);
  return day;
}

function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && dayNumber(value) !== null;
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(requireDay(date) + days);
}

/** Days in the range, counting both ends (2025-01-01..2025-01-01 is 1). */
export function rangeLength(range: DateRange): number {
  const from = dayNumber(range.from);
  const to = dayNumber(range.to);
  return from !== null && to !== null ? to - from + 1 : Number.NaN;
}

/** Every date of the range in order. */
export function datesInRange(range: DateRange): string[] {
  const out: string[] = [];
  const n = rangeLength(range);
  if (!(n > 0)) return out;
  const first = requireDay(range.from);
  for (let i = 0; i < n; i++) out.push(fromDayNumber(first + i));
  return out;
}

/** The instant in the zone; an unknown zone name is read as UTC, the least surprising fallback. */
function inZone(timeZone: string, instant: Date): TZDate {
  const zoned = new TZDate(instant.getTime(), timeZone);
  return Number.isNaN(zoned.getTime()) ? new TZDate(instant.getTime(), "UTC") : zoned;
}

// Every page asks for today and yesterday in the account's zone, and a zoned
// date costs a TZDate and a format (it showed in the server's profile). Day
// boundaries fall on whole minutes in every zone, so the answer for one
// minute is the answer for each instant in it.
const MINUTE_MS = 60_000;
const datesByMinute = new Map<string, string>();

/** The calendar date (YYYY-MM-DD) of an instant in the time zone. */
export function dateIn(timeZone: string, instant: Date): string {
  const key = `${timeZone}|${Math.floor(instant.getTime() / MINUTE_MS)}`;
  let date = datesByMinute.get(key);
  if (date === undefined) {
    date = format(inZone(timeZone, instant), DAY);
    if (datesByMinute.size >= 1000) datesByMinute.clear();
    datesByMinute.set(key, date);
  }
  return date;
}

/** The wall-clock time of an instant in the time zone, "yyyy-MM-dd HH:mm:ss" (as Google writes change times). */
export function localDateTimeIn(timeZone: string, instant: Date): string {
  return format(inZone(timeZone, instant), "yyyy-MM-dd HH:mm:ss");
}

/** Today's date (YYYY-MM-DD) in the time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return dateIn(timeZone, now);
}

/** Yesterday's date (YYYY-MM-DD) in the time zone: the last complete day of data. */
export function yesterdayIn(timeZone: string, now: Date = new Date()): string {
  return addDays(dateIn(timeZone, now), -1);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?/;

/**
 * A wall-clock time in the zone ("yyyy-MM-dd HH:mm:ss[.ffffff]", as Google's
 * change_date_time) as an ISO UTC instant, the same on every machine. The
 * hour a DST change repeats is ambiguous: it resolves to the occurrence whose
 * offset the two passes below settle on (the first in New York, the second in
 * Berlin); a time the change skips gets the offset from before it (Google
 * never reports one).
 */
export function zonedToUtc(local: string, timeZone: string): string {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) throw new RangeError(`not a change_date_time: ${local}`);
  const [, y, mo, d, h, mi, s, frac = "0"] = m;
  const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, Math.floor(Number(`0.${frac}`) * 1000));
  // The zone's offset at the instant, found in two passes (the second settles
  // it across a DST change). Not TZDate's wall-clock constructor: it resolves
  // the repeated hour through the machine's own zone.
  const offsetMs = (t: number) => tzOffset(timeZone, new Date(t)) * 60_000;
  const first = asUtc - offsetMs(asUtc);
  return new Date(asUtc - offsetMs(first)).toISOString();
}

/**
 * The latest calendar date anywhere on Earth right now (UTC+14): without the
 * account's time zone, that is the only "future" that is certainly wrong.
 */
export function latestDateOnEarth(now: Date = new Date()): string {
  // Etc/GMT-14 is UTC+14 (the IANA sign is inverted).
  return dateIn("Etc/GMT-14", now);
}

export interface DateRangeSchemaOptions {
  /** The last allowed date (e.g. today in the account's time zone). Default: latestDateOnEarth() at parse time. */
  maxDate?: string | (() => string);
}

/** A zod schema for {from, to}: real dates, from ≤ to, at most MAX_RANGE_DAYS, none in the future. */
export function makeDateRangeSchema(opts: DateRangeSchemaOptions = {}) {
  const date = z.string().trim().refine(isIsoDate, "Enter a date as YYYY-MM-DD.");
  return z.object({ from: date, to: date }).superRefine((range, ctx) => {
    if (range.from > range.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "The start date must be on or before the end date." });
      return;
    }
    if (rangeLength(range) > MAX_RANGE_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `A date range can span at most ${MAX_RANGE_DAYS} days.` });
    }
    const max = typeof opts.maxDate === "function" ? opts.maxDate() : (opts.maxDate ?? latestDateOnEarth());
    if (range.to > max) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "The date range cannot end in the future." });
    }
  });
}

export const DateRangeSchema = makeDateRangeSchema();

export interface RangePreset {
  id: "7d" | "30d" | "90d";
  days: number;
  label: string;
}

export const RANGE_PRESETS: readonly RangePreset[] = [
  { id: "7d", days: 7, label: "Last 7 days" },
  { id: "30d", days: 30, label: "Last 30 days" },
  { id: "90d", days: 90, label: "Last 90 days" },
];

export const DEFAULT_RANGE_DAYS = 30;

/** The last `days` days ending with `yesterday` (Google's LAST_N_DAYS: today excluded, it is incomplete). */
export function lastNDays(days: number, yesterday: string): DateRange {
  return { from: addDays(yesterday, -(days - 1)), to: yesterday };
}

/** The last 30 days ending yesterday in the account's time zone. */
export function defaultRange(timeZone: string, now: Date = new Date()): DateRange {
  return lastNDays(DEFAULT_RANGE_DAYS, yesterdayIn(timeZone, now));
}

/** The preset whose range this is (ending `yesterday`), if any: lets a picker highlight it. */
export function presetOf(range: DateRange, yesterday: string): RangePreset | undefined {
  if (range.to !== yesterday) return undefined;
  return RANGE_PRESETS.find((p) => p.days === rangeLength(range));
}
