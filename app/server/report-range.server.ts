import { parseRangeQuery, resolveRange, type ResolvedRange } from "~/lib/report-query";
import type { ReportAccount } from "./account-access.server";
import { todayIn, yesterdayIn } from "~/lib/dates";
import { InvalidError } from "./domain-errors.server";

// The date range a report request asked for, in the account's time zone.

/** The page's date range from its query (bad values fall back with a notice, never an error). */
export function pageRange(url: URL, account: ReportAccount, now: Date = new Date()): ResolvedRange & { yesterday: string; today: string } {
  const yesterday = yesterdayIn(account.timeZone, now);
  return { ...resolveRange(url.searchParams, yesterday), yesterday, today: todayIn(account.timeZone, now) };
}

/** The API's date range: from and to together, or neither (the last 30 days); anything else is a 400. */
export function apiRange(url: URL, account: ReportAccount, now: Date = new Date()) {
  // Only from/to: the pages' relative ?range= presets are not part of the API.
  const params = new URLSearchParams();
  for (const key of ["from", "to"]) {
    const value = url.searchParams.get(key);
    if (value !== null) params.set(key, value);
  }
  const parsed = parseRangeQuery(params, yesterdayIn(account.timeZone, now));
  if (!parsed.ok) throw new InvalidError(parsed.error);
  return parsed.range;
}
