import type { ReportAccount } from "./account-access.server";
import { ensureFresh, getSyncState, syncAccount, type SyncState } from "./ads/sync.server";
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
