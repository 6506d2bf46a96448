// Display formatting shared by server and browser. Every formatter pins the
// locale ("en-US") and, for dates, the time zone: the server render and the
// hydrating browser must produce the same text, whatever the machine's locale.

const LOCALE = "en-US";

/** "1234567890" → "123-456-7890", the way Google Ads shows customer ids. */
export function formatCustomerId(id: string): string {
  return /^\d{10}$/.test(id) ? `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}` : id;
}

/** What a missing ratio (0/0, a cost per conversion without conversions) shows. */
export const EMPTY_VALUE = "—";

const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currencyCode: string, fractionDigits: number | undefined): Intl.NumberFormat {
  const key = `${currencyCode}:${fractionDigits ?? ""}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, {
        style: "currency",
        currency: currencyCode,
        ...(fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
      });
    } catch {
      // An unknown code from an account must not break the page.
      format = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD" });
    }
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * Money held in micros (1,000,000 per currency unit, as Google Ads stores it)
 * in the account's currency: formatMoney(1_234_560_000, "USD") → "$1,234.56".
 * `wholeUnits` rounds to whole units, for headline figures.
 */
export function formatMoney(micros: number | null | undefined, currencyCode: string, opts: { wholeUnits?: boolean } = {}): string {
  if (micros === null || micros === undefined || !Number.isFinite(micros)) return EMPTY_VALUE;
  return moneyFormat(currencyCode, opts.wholeUnits ? 0 : undefined).format(micros / 1_000_000);
}

const integerFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
/** 12345.6 → "12,346". */
export function formatInteger(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY_VALUE;
  return integerFormat.format(value);
}

const decimalFormats = new Map<number, Intl.NumberFormat>();
/** Fractional counts (Google reports conversions as decimals): 12.5 → "12.50", 3 → "3.00". */
export function formatDecimal(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EMPTY_VALUE;
  let format = decimalFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    decimalFormats.set(digits, format);
  }
  return format.format(value);
}

/** A ratio as a percentage: 0.0345 → "3.45%"; null (nothing to divide by) → "—". */
export function formatPercent(ratio: number | null | undefined, digits = 2): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return EMPTY_VALUE;
  return `${formatDecimal(ratio * 100, digits)}%`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function utcDate(isoDate: string): Date | null {
  const m = ISO_DATE.exec(isoDate);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

// Calendar dates (YYYY-MM-DD) are formatted in UTC: they name a day in the
// account's time zone already, and any other zone would shift them by one.
const dayFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const shortDayFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", timeZone: "UTC" });

/** "2026-11-21" → "Nov 21, 2026"; `short` drops the year: "Nov 21". */
// A chart labels each of its days, on every render: each label is formatted once.
const formattedDays = new Map<string, string>();

export function formatDate(isoDate: string, opts: { short?: boolean } = {}): string {
  const key = opts.short ? `s${isoDate}` : isoDate;
  let text = formattedDays.get(key);
  if (text === undefined) {
    const date = utcDate(isoDate);
    if (!date) return isoDate;
    text = (opts.short ? shortDayFormat : dayFormat).format(date);
    if (formattedDays.size >= 2000) formattedDays.clear();
    formattedDays.set(key, text);
  }
  return text;
}

/** An inclusive range: "Oct 23 – Nov 21, 2026", or with both years when they differ. */
export function formatDateRange(range: { from: string; to: string }): string {
  if (range.from === range.to) return formatDate(range.to);
  const sameYear = range.from.slice(0, 4) === range.to.slice(0, 4);
  return `${formatDate(range.from, { short: sameYear })} – ${formatDate(range.to)}`;
}

// Building an Intl.DateTimeFormat costs far more than using one (it showed in the
// server's profile under load): one per time zone, kept.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone });
    } catch {
      // An unknown zone: UTC, rather than no date.
      format = dateTimeFormat("UTC");
    }
    if (dateTimeFormats.size < 500) dateTimeFormats.set(timeZone, format);
  }
  return format;
}

/** A moment (ISO timestamp) in a given zone, the zone named: "Nov 22, 2026, 3:04 PM EST". */
// Every page shows the last sync's time, the same instant for minutes on end:
// formatted once (naming the zone takes formatToParts, costly per call).
const formattedTimes = new Map<string, string>();

export function formatDateTime(isoTimestamp: string, timeZone = "UTC"): string {
  const key = `${timeZone}|${isoTimestamp}`;
  const known = formattedTimes.get(key);
  if (known !== undefined) return known;
  const date = new Date(isoTimestamp);
  if (Number.isNaN(date.getTime())) return isoTimestamp;
  // The zone is named ("3:04 PM EST"): the account's zone need not be the reader's.
  const format = dateTimeFormat(timeZone);
  const text = `${format.format(date)} ${zoneLabel(date, format.resolvedOptions().timeZone)}`;
  if (formattedTimes.size >= 2000) formattedTimes.clear();
  formattedTimes.set(key, text);
  return text;
}

const zoneNameFormats = new Map<string, Intl.DateTimeFormat>();

/** "EST", "GMT+1", "UTC": the short name of `timeZone` at that instant. */
export function zoneLabel(date: Date, timeZone: string): string {
  let format = zoneNameFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(LOCALE, { timeZone, timeZoneName: "short" });
    } catch {
      return "UTC";
    }
    if (zoneNameFormats.size < 500) zoneNameFormats.set(timeZone, format);
  }
  const name = format.formatToParts(date).find((p) => p.type === "timeZoneName")?.value;
  return name === "GMT" && timeZone === "UTC" ? "UTC" : (name ?? timeZone);
}

/**
 * How long ago, against an explicit `now` (the server's clock, passed down in
 * loader data, so server and browser render the same words): "just now",
 * "5 minutes ago", "3 hours ago", "2 days ago".
 */
export function formatTimeAgo(isoTimestamp: string, now: string | Date): string {
  const then = new Date(isoTimestamp).getTime();
  const at = (typeof now === "string" ? new Date(now) : now).getTime();
  if (Number.isNaN(then) || Number.isNaN(at)) return isoTimestamp;
  const seconds = Math.max(0, Math.round((at - then) / 1000));
  if (seconds < 45) return "just now";
  const ago = (n: number, unit: string) => `${countOf(n, unit)} ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return ago(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return ago(hours, "hour");
  return ago(Math.round(hours / 24), "day");
}

/** The data's age, short ("just now", "12 min ago", "3 hours ago", "2 days ago"): "Updated 12 min ago". */
export function formatAge(isoTimestamp: string, now: string | Date): string {
  const long = formatTimeAgo(isoTimestamp, now);
  return long.replace(/^(\d+) minutes? ago$/, "$1 min ago");
}

/**
 * A number and its noun, singular only when it shows as exactly 1: "1
 * conversion", "2.5 conversions", "0 clicks", "1.50 conversions". `shown` is
 * the number as displayed (formatted, rounded); the noun agrees with it.
 */
export function countOf(n: number, one: string, shown: string = String(n), many = `${one}s`): string {
  return `${shown} ${shown === "1" ? one : many}`;
}

/** Google's enum spellings for people: "SEARCH" → "Search", "MAXIMIZE_CONVERSION_VALUE" → "Maximize conversion value". */
export function formatEnum(value: string | null | undefined): string {
  if (!value) return EMPTY_VALUE;
  const special: Record<string, string> = {
    PERFORMANCE_MAX: "Performance Max",
    MANUAL_CPC: "Manual CPC",
    ENHANCED_CPC: "Enhanced CPC",
    TARGET_CPA: "Target CPA",
    TARGET_ROAS: "Target ROAS",
    MANUAL_CPM: "Manual CPM",
    TARGET_CPM: "Target CPM",
    UNSPECIFIED: EMPTY_VALUE,
    UNKNOWN: "Unknown",
  };
  if (special[value]) return special[value];
  const words = value.toLowerCase().split("_").filter(Boolean);
  if (words.length === 0) return value;
  return [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1)].join(" ");
}
