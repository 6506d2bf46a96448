import type { ReportAccount } from "./account-access.server";
import { getAccount } from "./ads/accounts.server";
import { ensureFresh, getSyncState, syncAccount, type SyncState } from "./ads/sync.server";
import { getDb } from "./db/db.server";
import { errorMessage, log } from "./log.server";

// How fresh an account's local copy is, as the pages and the API show it, and
// the "Sync now" button's start.

/** The sync state as pages and the API show it (the internals stay in). */
export function syncView(state: SyncState) {
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
  };
}

/**
 * Starts a background sync when the local copy is older than 5 minutes; returns the state to
 * show, and the data version the page's reports are read at (ads/report-cache.server.ts).
 */
export async function freshness(userId: string, account: ReportAccount) {
  const state = await ensureFresh(userId, account.customerId);
  return { sync: syncView(state), scope: { customerId: state.customerId, dataVersion: state.dataVersion } };
}

/**
 * At the Google connection: the active account's first sync (or a refresh of
 * data gone stale) starts now, whatever page the user lands on. Pages that
 * start none themselves (the AI Optimizer, Settings) would otherwise wait for a
 * visit to a report page. Resolves once the sync has claimed the account, so
 * the landing page already shows it running; a failure to start is logged and
 * the next page view tries again.
 */
export async function syncOnConnect(userId: string): Promise<void> {
  try {
    const user = await getDb().selectFrom("users").select("active_customer_id").where("id", "=", userId).executeTakeFirst();
    const account = user?.active_customer_id ? await getAccount(userId, user.active_customer_id) : undefined;
    // A manager account has no campaigns of its own to sync.
    if (!account || account.manager === 1) return;
    await ensureFresh(userId, account.customer_id);
  } catch (error) {
    log.warn(`The first sync could not start at the Google connection: ${errorMessage(error)}`);
  }
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
