import { data } from "react-router";
import { addDays } from "~/lib/date-range";
import { resolveRange, type ResolvedRange } from "~/lib/report-query";
import { getAccount } from "./ads/accounts.server";
import { defaultRange } from "./ads/reports.server";
import { ensureFresh, getSyncState } from "./ads/sync.server";
import type { User } from "./db/schema";
import { HttpError } from "./http/errors.server";

// What the report pages and the report API share: which account a request may
// read, which date range it asked for, and how fresh the local copy is.

export interface ReportAccount {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
}

/** The account the signed-in user works on, or null when none is connected (the seed's screens). */
export async function activeAccountOf(user: User): Promise<ReportAccount | null> {
  if (!user.active_customer_id) return null;
  const account = await getAccount(user.id, user.active_customer_id);
  // A manager account has no campaigns of its own.
  if (!account || account.manager === 1) return null;
  return { customerId: account.customer_id, name: account.name, currencyCode: account.currency_code, timeZone: account.time_zone };
}

/** One of the caller's accounts, or a 404: another user's id must look exactly like an unknown one. */
export async function requireAccountOf(userId: string, customerId: string): Promise<ReportAccount> {
  const account = /^\d{10}$/.test(customerId) ? await getAccount(userId, customerId) : undefined;
  if (!account) throw new HttpError(404, "No such Google Ads account");
  return { customerId: account.customer_id, name: account.name, currencyCode: account.currency_code, timeZone: account.time_zone };
}

/** Yesterday in the account's time zone: the last complete day, where default ranges end. */
export function yesterdayIn(timeZone: string, now: Date = new Date()): string {
  return defaultRange(timeZone, now).to;
}

/** The page's date range from its query (bad values fall back with a notice, never an error). */
export function pageRange(url: URL, account: ReportAccount, now: Date = new Date()): ResolvedRange & { yesterday: string; today: string } {
  const yesterday = yesterdayIn(account.timeZone, now);
  return { ...resolveRange(url.searchParams, yesterday), yesterday, today: addDays(yesterday, 1) };
}

/** The API's date range: from and to together, or neither (the last 30 days); anything else is a 400. */
export function apiRange(url: URL, account: ReportAccount, now: Date = new Date()) {
  const params = new URLSearchParams();
  for (const key of ["from", "to"]) {
    const value = url.searchParams.get(key);
    if (value !== null) params.set(key, value);
  }
  if (params.has("from") !== params.has("to")) throw new HttpError(400, "Send both from and to (YYYY-MM-DD), or neither.");
  const resolved = resolveRange(params, yesterdayIn(account.timeZone, now));
  if (resolved.notice) throw new HttpError(400, resolved.notice.replace(/\s*Showing the last 30 days\.?$/i, ""));
  return resolved.range;
}

export type SyncView = Awaited<ReturnType<typeof getSyncState>>;

/** The sync state as JSON-safe plain data for pages and the API. */
export function syncView(state: SyncView) {
  return {
    status: state.status,
    lastSuccessAt: state.lastSuccessAt,
    lastError: state.lastError,
    progressDone: state.progressDone,
    progressTotal: state.progressTotal,
    currentStep: state.currentStep,
  };
}

/** Starts a background sync when the local copy is older than 5 minutes; returns the state to show. */
export async function freshness(userId: string, account: ReportAccount) {
  return syncView(await ensureFresh(userId, account.customerId));
}

/** No data yet: the first import is still running (or about to). Pages show progress instead of empty tables. */
export function awaitingFirstSync(sync: ReturnType<typeof syncView>): boolean {
  return !sync.lastSuccessAt && (sync.status === "running" || sync.status === "never");
}

export function notFound(): never {
  throw data(null, { status: 404, statusText: "Not Found" });
}
