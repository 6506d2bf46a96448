import { addDays, rangeLength, type DateRange } from "~/lib/dates";
import { formatDateRange } from "~/lib/format";

/**
 * The periods people name, as they mean them: "this month" is the calendar
 * month so far, "last month" the whole calendar month before, "last week"
 * Monday to Sunday of the week before this one, "last 14 days" the 14 days
 * ending yesterday (the last complete day in the account's time zone). A
 * comparison ("this month vs last month", "compared to the week before")
 * pairs two of them; a question about a change ("why did conversions drop
 * last week") compares the period with the one before it.
 */

export interface Period extends DateRange {
  /** How the person called it, for the answer: "last week". */
  name: string;
  /** Days with data so far when the period has not ended ("this month" on the 21st: 20 of 30). */
  partial: boolean;
}

export interface PeriodQuestion {
  current: Period;
  /** The period to compare with: named, or the one before `current`. */
  previous: Period | null;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_ABBR = MONTHS.map((m) => m.slice(0, 3));

const parts = (date: string) => date.split("-").map(Number) as [number, number, number];
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const monthRange = (y: number, m: number): DateRange => ({ from: iso(y, m, 1), to: iso(y, m + 1, 0) });
/** Monday of the date's week (ISO weeks). */
const monday = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

function period(name: string, range: DateRange, yesterday: string): Period | null {
  const to = range.to > yesterday ? yesterday : range.to;
  if (range.from > to) return null;
  return { name, from: range.from, to, partial: to < range.to };
}

/** One period named at `at` in the text (or anywhere), with the text it took. */
function periodAt(text: string, today: string): Array<{ index: number; period: Period | null; named: string }> {
  const yesterday = addDays(today, -1);
  const [y, m] = parts(today);
  const found: Array<{ index: number; period: Period | null; named: string }> = [];
  /** `make` returns undefined when the words are not a period after all ("may" as a verb). */
  const add = (re: RegExp, make: (match: RegExpExecArray) => Period | null | undefined) => {
    for (const match of text.matchAll(new RegExp(re.source, "gi"))) {
      const p = make(match);
      if (p !== undefined) found.push({ index: match.index ?? 0, period: p, named: match[0] });
    }
  };
  add(/\byesterday\b/, () => period("yesterday", { from: yesterday, to: yesterday }, yesterday));
  add(/\b(?:this|the current) week\b|\bweek to date\b|\bso far this week\b/, () =>
    period("this week", { from: monday(today), to: addDays(monday(today), 6) }, yesterday),
  );
  add(/\b(?:last|previous|past calendar) week\b|\bthe week before\b|\bprior week\b/, (match) => {
    const start = addDays(monday(today), /before|prior/i.test(match[0]) ? -14 : -7);
    return period(/before|prior/i.test(match[0]) ? "the week before" : "last week", { from: start, to: addDays(start, 6) }, yesterday);
  });
  add(/\b(?:this|the current) month\b|\bmonth to date\b|\bmtd\b|\bso far this month\b/, () => period("this month", monthRange(y, m), yesterday));
  add(/\b(?:last|previous|prior) month\b|\bthe month before\b/, (match) => {
    const back = /before/i.test(match[0]) ? 2 : 1;
    return period(back === 2 ? "the month before" : "last month", monthRange(y, m - back), yesterday);
  });
  add(/\b(?:last|past|previous)\s+(\d{1,3})\s+days\b/, (match) => {
    const n = Math.min(366, Math.max(1, Number(match[1])));
    return period(`the last ${n} days`, { from: addDays(yesterday, -(n - 1)), to: yesterday }, yesterday);
  });
  add(/\b(?:the )?(?:past|last) (?:7 days|seven days)\b/, () => period("the last 7 days", { from: addDays(yesterday, -6), to: yesterday }, yesterday));
  add(/\b(?:this year|year to date|ytd)\b/, () => period("this year", { from: iso(y, 1, 1), to: iso(y, 12, 31) }, yesterday));
  add(new RegExp(`\\b(?:in |for |during )?(${MONTHS.join("|")}|${MONTH_ABBR.filter((a) => a !== "may" && a !== "mar").join("|")})\\b`), (match) => {
    const word = match[1].toLowerCase();
    if ((word === "may" || word === "march") && !/^(?:in|for|during) /i.test(match[0])) return undefined;
    const month = (MONTHS.indexOf(word) + 1 || MONTH_ABBR.indexOf(word) + 1) as number;
    // The latest such month that has begun.
    const year = month <= m ? y : y - 1;
    return period(
      MONTHS[month - 1].replace(/^./, (c) => c.toUpperCase()),
      monthRange(year, month),
      yesterday,
    );
  });
  // Keep the longest text at each place ("last 7 days" is not also "7 days").
  return found
    .sort((a, b) => a.index - b.index || b.named.length - a.named.length)
    .filter((f, i, all) => !all.slice(0, i).some((g) => f.index < g.index + g.named.length));
}

/** The period before: the week before a week, the month before a calendar month, the same number of days before anything else. */
export function periodBefore(p: Period): Period {
  const [y, m, d] = parts(p.from);
  const monthStart = d === 1 && (p.name === "this month" || p.name === "last month" || p.name === "the month before" || /^[A-Z][a-z]+$/.test(p.name));
  if (monthStart) {
    const range = monthRange(y, m - 1);
    return { name: p.name === "this month" ? "last month" : p.name === "last month" ? "the month before" : formatDateRange(range), ...range, partial: false };
  }
  const days = p.partial && /week/.test(p.name) ? 7 : rangeLength(p);
  const to = addDays(p.from, -1);
  const name = p.name === "last week" || p.name === "this week" ? (p.name === "last week" ? "the week before" : "last week") : `the ${days} days before`;
  return { name, from: addDays(to, -(days - 1)), to, partial: false };
}

const COMPARE =
  /\b(?:vs\.?|versus|compared (?:to|with)|compare|against|relative to|change|changed|drop|dropped|fall|fell|decline|declined|decrease|decreased|rise|rose|increase|increased|grow|grew|jump|jumped|up|down|why|trend|better|worse)\b/i;

/**
 * The periods a question names. Two named: compared as asked. One named, in a
 * question about a change or a comparison: with the period before it. One
 * named otherwise: alone. None: null (the caller's default window).
 */
export function periodsIn(question: string, today: string): PeriodQuestion | { unavailable: string } | null {
  if (/\btoday\b/i.test(question) && !/\byesterday\b/i.test(question))
    return { unavailable: "Today's figures are not in yet: Google reports complete days, and the last one is yesterday." };
  const found = periodAt(question, today);
  if (found.length === 0) return null;
  const missing = found.find((f) => f.period === null);
  if (missing)
    return {
      unavailable: `${missing.named.replace(/^./, (c) => c.toUpperCase())} has no complete day yet: Google reports complete days, and the last one is yesterday.`,
    };
  const [first, second] = found.map((f) => f.period as Period);
  if (second) return { current: first, previous: second };
  return { current: first, previous: COMPARE.test(question) ? periodBefore(first) : null };
}

/** "last week (Nov 9 – Nov 15, 2026)", with "so far" when it has not ended. */
export function describePeriod(p: Period): string {
  return `${p.name} (${formatDateRange(p)}${p.partial ? `, ${rangeLength(p)} days so far` : ""})`;
}
