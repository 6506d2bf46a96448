/**
 * Copies an account's Google Ads data into the ads_* tables, so pages read the
 * database and never wait on Google. One searchStream per resource kind, read
 * batch by batch; every row is validated and staged, and the account's old
 * rows are replaced in a single transaction at the end: a sync that fails at
 * any point leaves the previous data exactly as it was. An account's first
 * sync is staged: the overview tables first, the three large daily tables
 * (keyword, ad, search-term performance) right after (ADR 013, amendment).
 *
 *   sync/streams.server.ts      what is read from Google and how rows map to tables
 *   sync/state.server.ts        ads_sync_state as the pages see it (progress, errors)
 *   sync/runner.server.ts       single flight, the claim, the worker thread
 *   sync/scheduler.server.ts    refreshes on a schedule, within the Google Ads budget
 *   sync/refresh.server.ts      what a refresh after the first sync reads (ADR 021)
 *   sync/job.server.ts          one sync's work: stream, validate, stage, switch over
 *   sync/bulk-insert.server.ts  staging tables, batched INSERTs, the switch-over
 *   sync/worker.server.ts       the worker thread's entry
 */
export { DETAIL_STEP_COUNT, DETAIL_TABLES, OVERVIEW_STEP_COUNT, SYNCED_TABLES, SYNC_STEP_COUNT } from "./sync/streams.server";
export { STALE_RUNNING_MS, SYNC_DAYS, SyncAccessError, getSyncState, type DetailState, type SyncState, type SyncStatus } from "./sync/state.server";
export { stopSyncs, syncAccount, type SyncOptions } from "./sync/runner.server";
export { runSyncSchedulerTick, syncAccountJob, type SyncAccountData } from "./sync/scheduler.server";
export { warmWorker as prepareForSync, workerReady } from "./sync/worker-host.server";
