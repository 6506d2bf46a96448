import type { ReportAccount } from "./account-access.server";
import { getAccount } from "./ads/accounts.server";
import { getSyncState, syncAccount, type SyncState } from "./ads/sync.server";
import { assertGoogleAvailable, quotaUsage } from "./ads/quota.server";
import { getDb } from "./db/db.server";
import { getConfig } from "./env.server";
import { LimitReachedError } from "./domain-errors.server";
import { consumeLimit, RateLimitError, type LimitSpec } from "./limits/limiter.server";
import { errorMessage, log } from "./log.server";

// How fresh an account's local copy is, as the pages and the API show it, and
// the "Sync now" button's start. Pages never start a sync: accounts are
// refreshed on a schedule (ads/sync/scheduler.server.ts).

/** "Sync now" per account: each costs Google Ads operations, and accounts are refreshed on a schedule anyway. */
export const SYNC_NOW_LIMIT: LimitSpec = { name: "sync-now", points: 6, durationSeconds: 3600 };

/** The sync state as pages and the API show it (the internals stay in). */
export function syncView(state: SyncState, pause: GooglePause = NO_PAUSE) {
  return {
    status: state.status,
    lastSuccessAt: state.lastSuccessAt,
    lastError: state.lastError,
    progressDone: state.progressDone,
    progressTotal: state.progressTotal,
    currentStep: state.currentStep,
    /** Keyword, ad and search-term performance: a first sync imports it after the rest (status "ok" before it is in). */
    detail: {
      status: state.detail.status,
      currentStep: state.detail.currentStep,
      lastError: state.detail.lastError,
      progressDone: state.detail.progressDone,
      progressTotal: state.detail.progressTotal,
    },
    /** Google Ads calls are paused for the whole install until then (ISO), and why: nothing is refreshed meanwhile. */
    googlePausedUntil: pause.until,
    googlePauseReason: pause.reason,
  };
}

export interface GooglePause {
  until: string | null;
  reason: string | null;
}
const NO_PAUSE: GooglePause = { until: null, reason: null };

/** Whether Google Ads calls are paused for the install (the daily budget is spent, or Google asked for a pause). */
export async function googlePause(): Promise<GooglePause> {
  const usage = await quotaUsage();
  return { until: usage.pausedUntil, reason: usage.pauseReason };
}

/** The install's Google Ads API budget and what is used of it (/settings). */
export async function googleBudgetView() {
  const usage = await quotaUsage();
  return {
    used: usage.used,
    budget: usage.budget,
    backgroundBudget: usage.backgroundBudget,
    intervalMinutes: getConfig().SYNC_INTERVAL_MINUTES,
    pausedUntil: usage.pausedUntil,
    pauseReason: usage.pauseReason,
  };
}

/** The account's sync state as pages and the API show it. */
export async function syncViewOf(customerId: string) {
  const [state, pause] = await Promise.all([getSyncState(customerId), googlePause()]);
  return syncView(state, pause);
}

/**
 * The state to show (how old the data is, a sync under way) and the data version the page's
 * reports are read at (ads/report-cache.server.ts). Never starts a sync and never waits for Google.
 */
export async function freshness(_userId: string, account: ReportAccount) {
  const [state, pause] = await Promise.all([getSyncState(account.customerId), googlePause()]);
  return { sync: syncView(state, pause), scope: { customerId: state.customerId, dataVersion: state.dataVersion } };
}

/**
 * At the Google connection, and when a person makes an account active: that
 * account's first sync starts now, whatever page comes next (later refreshes
 * are scheduled; an account already imported is left to them). Resolves once
 * the sync has claimed the account, so the next page already shows it
 * running; a failure to start is logged and the scheduler tries again.
 */
export async function startFirstSync(userId: string): Promise<void> {
  try {
    const user = await getDb().selectFrom("users").select("active_customer_id").where("id", "=", userId).executeTakeFirst();
    const account = user?.active_customer_id ? await getAccount(userId, user.active_customer_id) : undefined;
    // A manager account has no campaigns of its own to sync.
    if (!account || account.manager === 1) return;
    const state = await getSyncState(account.customer_id);
    if (state.lastSuccessAt !== null || state.status === "running") return;
    await claimed(syncAccount(userId, account.customer_id), account.customer_id);
  } catch (error) {
    log.warn(`The first sync could not start at the Google connection: ${errorMessage(error)}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "Sync now": starts a sync (a refresh of what can have changed) and returns once it has claimed
 * the account (or ended), so the page redirected to shows progress. The sync itself goes on in
 * the background. Refused with PausedError while Google Ads calls are paused, and with
 * LimitReachedError past SYNC_NOW_LIMIT for the account (counted in the database, for every
 * instance and every user of the account). A sync already running is joined, not counted.
 */
export async function startSync(userId: string, account: ReportAccount) {
  if ((await getSyncState(account.customerId)).status !== "running") {
    await assertGoogleAvailable();
    try {
      await consumeLimit(SYNC_NOW_LIMIT, account.customerId);
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      const limited = new LimitReachedError(
        `Sync now was used ${SYNC_NOW_LIMIT.points} times in the last hour for this account; it is available again in ${minutes <= 1 ? "a minute" : `${minutes} minutes`}. The account is also refreshed on its own every ${getConfig().SYNC_INTERVAL_MINUTES} minutes.`,
      );
      limited.retryAfterSeconds = error.retryAfterSeconds;
      throw limited;
    }
  }
  await claimed(syncAccount(userId, account.customerId), account.customerId);
  return syncViewOf(account.customerId);
}

/** Waits (up to 2 s) until the sync has claimed the account or ended; its outcome is recorded in the sync state. */
async function claimed(run: Promise<SyncState>, customerId: string): Promise<void> {
  let settled = false;
  void run
    .finally(() => {
      settled = true;
    })
    .catch((error: unknown) => log.warn(`Sync of ${customerId}: ${errorMessage(error)}`));
  const deadline = Date.now() + 2000;
  while (!settled && Date.now() < deadline) {
    if ((await getSyncState(customerId)).status === "running") return;
    await sleep(25);
  }
}

/** No data yet: the first import is still running (or about to). Pages show progress instead of empty tables. */
export function awaitingFirstSync(sync: ReturnType<typeof syncView>): boolean {
  return !sync.lastSuccessAt && (sync.status === "running" || sync.status === "never");
}
