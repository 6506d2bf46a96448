import { z } from "zod";

// Report date ranges, shared by the server (validation, SQL) and the browser
// (pickers, presets). Dates are calendar days in the account's time zone,
// written YYYY-MM-DD; arithmetic on them is done in UTC, where a day is always
// 24 hours, so the machine's own zone and DST never shift a date.

/** Inclusive on both ends, YYYY-MM-DD. */
export interface DateRange {
  from: string;
  to: string;
}

/** A leap year plus one day short of two years: enough for year-over-year views, small enough to stay fast. */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds of the date's UTC midnight, or NaN when it is not a real calendar date. */
function dayMs(date: string): number {
  const m = ISO_DATE.exec(date);
  if (!m) return Number.NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2025-02-30 over to March; a real date survives the round trip.
  return new Date(ms).toISOString().slice(0, 10) === date ? ms : Number.NaN;
}

export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && !Number.isNaN(dayMs(value));
}

export function addDays(date: string, days: number): string {
  const ms = dayMs(date);
  if (Number.isNaN(ms)) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${String(date).slice(0, 30)}`);
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days in the range, counting both ends (2025-01-01..2025-01-01 is 1). */
export function rangeLength(range: DateRange): number {
  return Math.round((dayMs(range.to) - dayMs(range.from)) / DAY_MS) + 1;
}

/** Every date of the range in order. */
export function datesInRange(range: DateRange): string[] {
  const out: string[] = [];
  const n = rangeLength(range);
  for (let i = 0; i < n; i++) out.push(addDays(range.from, i));
  return out;
}

/**
 * The latest calendar date anywhere on Earth right now (UTC+14): without the
 * account's time zone, that is the only "future" that is certainly wrong.
 */
export function latestDateOnEarth(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

export interface DateRangeSchemaOptions {
  /** The last allowed date (e.g. today in the account's time zone). Default: latestDateOnEarth() at parse time. */
  maxDate?: string | (() => string);
}

/** A zod schema for {from, to}: real dates, from ≤ to, at most MAX_RANGE_DAYS, none in the future. */
export function makeDateRangeSchema(opts: DateRangeSchemaOptions = {}) {
  const date = z.string().trim().refine(isIsoDate, "Enter a date as YYYY-MM-DD.");
  return z
    .object({ from: date, to: date })
    .superRefine((range, ctx) => {
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

/** The preset whose range this is (ending `yesterday`), if any: lets a picker highlight it. */
export function presetOf(range: DateRange, yesterday: string): RangePreset | undefined {
  if (range.to !== yesterday) return undefined;
  return RANGE_PRESETS.find((p) => p.days === rangeLength(range));
}
