import { data } from "react-router";
import { parseRangeQuery, resolveRange, type ResolvedRange } from "~/lib/report-query";
import { getAccount } from "./ads/accounts.server";
import { requireOwnAccount } from "./ads/context.server";
import { todayIn, yesterdayIn } from "./ads/dates.server";
import { ensureFresh, getSyncState, syncAccount, type SyncState } from "./ads/sync.server";
import type { AdsAccount, User } from "./db/schema";
import { InvalidError } from "./domain-errors.server";
import { errorMessage, log } from "./log.server";

// What the report pages and the report API share: which account a request may
// read, which date range it asked for, and how fresh the local copy is.

export interface ReportAccount {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  /** A manager (MCC) account: no campaigns of its own, nothing to sync. */
  manager: boolean;
}

function toReportAccount(a: AdsAccount): ReportAccount {
  return { customerId: a.customer_id, name: a.name, currencyCode: a.currency_code, timeZone: a.time_zone, manager: a.manager === 1 };
}

/** The account the signed-in user works on, or null when none is connected (the seed's screens). */
export async function activeAccountOf(user: User): Promise<ReportAccount | null> {
  if (!user.active_customer_id) return null;
  const account = await getAccount(user.id, user.active_customer_id);
  // A manager account has no campaigns of its own.
  if (!account || account.manager === 1) return null;
  return toReportAccount(account);
}

/** One of the caller's accounts, or a 404: another user's id must look exactly like an unknown one. */
export async function requireAccountOf(userId: string, customerId: string): Promise<ReportAccount> {
  return toReportAccount(await requireOwnAccount(userId, customerId, { allowManager: true }));
}

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

/** The sync state as pages and the API show it (the internals stay in). */
export function syncView(state: SyncState) {
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "Sync now": starts a sync whatever the data's age and returns once it has
 * claimed the account (or ended), so the page redirected to shows progress.
 * The sync itself goes on in the background.
 */
export async function startSync(userId: string, account: ReportAccount) {
  let settled = false;
  const run = syncAccount(userId, account.customerId).finally(() => {
    settled = true;
  });
  // Its outcome is recorded in the sync state; nobody awaits it past the claim.
  run.catch((error: unknown) => log.warn(`Sync now for ${account.customerId}: ${errorMessage(error)}`));
  const deadline = Date.now() + 2000;
  while (!settled && Date.now() < deadline) {
    const state = await getSyncState(account.customerId);
    if (state.status === "running") return syncView(state);
    await sleep(25);
  }
  return syncView(await getSyncState(account.customerId));
}

/** No data yet: the first import is still running (or about to). Pages show progress instead of empty tables. */
export function awaitingFirstSync(sync: ReturnType<typeof syncView>): boolean {
  return !sync.lastSuccessAt && (sync.status === "running" || sync.status === "never");
}

export function notFound(): never {
  throw data(null, { status: 404, statusText: "Not Found" });
}
