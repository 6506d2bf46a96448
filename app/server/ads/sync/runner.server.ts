import { randomUUID } from "node:crypto";
import { sql, type Updateable } from "kysely";
import { getDb, type DB } from "../../db/db.server";
import type { AdsSyncStateTable } from "../../db/schema";
import { NotFoundError } from "../../domain-errors.server";
import { requireOwnAccount } from "../context.server";
import { normalizeCustomerId, type AdsClient } from "../client.server";
import { runSyncJob } from "./job.server";
import { getSyncState, iso, STALE_RUNNING_MS, SyncAccessError, type SyncState } from "./state.server";
import { OVERVIEW_STEP_COUNT, STEPS, SYNC_STEP_COUNT } from "./streams.server";
import { errorMessage, log } from "../../log.server";
import type { QuotaPurpose } from "../quota.server";
import { stopWorker, syncInWorker } from "./worker-host.server";
import { wakeJobs } from "../../jobs/jobs.server";
import { observeSync } from "../../metrics/metrics.server";

/**
 * Starting syncs: one per account per process (callers join a running one),
 * a claim in ads_sync_state against other processes, and the job itself (the
 * recommendations engine included) in a worker thread so that parsing a
 * million rows, writing them and analysing them never holds up the requests
 * this thread serves (docs/decisions, "sync in a worker").
 */

export interface SyncOptions {
  db?: DB;
  /** Clock, for tests. */
  now?: () => Date;
  /** Defaults to a client acting as the user's Google connection. An injected client runs the job in this thread. */
  client?: AdsClient;
  /** Called after every step, with the state as stored. */
  onProgress?: (state: SyncState) => void | Promise<void>;
  /** Tests, with an injected client: between the switch-over and the window totals (SyncJob.beforeTotals). */
  beforeTotals?: () => Promise<void>;
  /** Read everything rather than only what can have changed (tests, the bench). */
  full?: boolean;
  /** Whose Google Ads budget the sync spends: "background" for scheduled refreshes; default what a person started. */
  purpose?: QuotaPurpose;
  /**
   * The claim's id (default: a new one). A job passes its own id: when its instance died mid-sync and
   * the job is run again elsewhere, the new run takes over the claim its dead attempt still holds,
   * rather than waiting STALE_RUNNING_MS for it to look abandoned.
   */
  runId?: string;
}

interface Run {
  /** Settles once the run has claimed the account (or found it claimed elsewhere). */
  claimed: Promise<void>;
  done: Promise<SyncState>;
}

// One sync per account per process; other callers join it.
const inflight = new Map<string, Run>();
let stopping = false;

/** The one ownership check (ads/context.server.ts), said as the sync's own error. */
async function requireAccount(userId: string, customerId: string, db: DB) {
  try {
    return await requireOwnAccount(userId, customerId, { db });
  } catch (error) {
    throw error instanceof NotFoundError ? new SyncAccessError(error.message) : error;
  }
}

/**
 * Syncs the account now and resolves with the final state: status "ok", or
 * "failed" with lastError saying which step failed and why (the previous data
 * stays). A call while a sync of the same account runs in this process joins
 * it, unless that sync is a first sync's detail import (its data is "ok"
 * already): then a new full sync supersedes it. While one runs in another
 * process, resolves at once with its state. Rejects only with SyncAccessError
 * (the user cannot sync this account).
 */
export async function syncAccount(userId: string, customerId: string, opts: SyncOptions = {}): Promise<SyncState> {
  const db = opts.db ?? getDb();
  const cid = normalizeCustomerId(customerId);
  await requireAccount(userId, cid, db);
  const running = inflight.get(cid);
  if (running && !(await importingDetail(cid, db, opts))) return running.done;
  return launch(userId, cid, opts).done;
}

/**
 * The run in flight here is past its first stage: the data is in ("ok") and
 * its detail import is running (or stopped beating): a newer sync may take over.
 */
async function importingDetail(customerId: string, db: DB, opts: SyncOptions): Promise<boolean> {
  const state = await getSyncState(customerId, db, (opts.now ?? (() => new Date()))());
  return state.status === "ok" && (state.detail.status === "running" || state.detail.status === "failed");
}

function launch(userId: string, customerId: string, opts: SyncOptions): Run {
  let markClaimed!: () => void;
  const claimed = new Promise<void>((resolve) => (markClaimed = resolve));
  const done: Promise<SyncState> = runSync(userId, customerId, opts, markClaimed).finally(() => {
    markClaimed();
    // A newer run (superseding a detail import) may have taken the slot.
    if (inflight.get(customerId)?.done === done) inflight.delete(customerId);
  });
  // A background run (the scheduler's, Sync now's) may have no one awaiting it.
  done.catch((error: unknown) => log.warn(`Sync of ${customerId} could not run: ${errorMessage(error)}`));
  const run: Run = { claimed, done };
  inflight.set(customerId, run);
  return run;
}

async function runSync(userId: string, customerId: string, opts: SyncOptions, markClaimed: () => void): Promise<SyncState> {
  const db = opts.db ?? getDb();
  const clock = opts.now ?? (() => new Date());
  const runId = opts.runId ?? randomUUID();
  const startedAt = iso(clock());

  // Claim the account: a conditional update is atomic on both databases, so two
  // processes can't both win, and a claim whose heartbeat stopped can be taken over.
  await db
    .insertInto("ads_sync_state")
    .values({
      customer_id: customerId,
      status: "never",
      run_id: null,
      started_at: null,
      finished_at: null,
      heartbeat_at: null,
      last_success_at: null,
      last_error: null,
      progress_done: 0,
      progress_total: SYNC_STEP_COUNT,
      current_step: null,
      data_from: null,
      data_to: null,
      row_counts: null,
      updated_at: startedAt,
      detail_status: null,
      detail_step: null,
      detail_done: 0,
      detail_error: null,
      changes_since: null,
      structure_read_at: null,
      refresh_kind: null,
      refresh_operations: null,
    })
    .onConflict((oc) => oc.column("customer_id").doNothing())
    .execute();
  const staleBefore = iso(new Date(clock().getTime() - STALE_RUNNING_MS));
  const claim = await db
    .updateTable("ads_sync_state")
    .set({
      status: "running",
      run_id: runId,
      started_at: startedAt,
      finished_at: null,
      heartbeat_at: startedAt,
      progress_done: 0,
      // A first sync (job.server.ts) shows its first stage's progress; later ones every step.
      progress_total: sql<number>`CASE WHEN last_success_at IS NULL THEN ${sql.lit(OVERVIEW_STEP_COUNT)} ELSE ${sql.lit(SYNC_STEP_COUNT)} END`,
      current_step: STEPS[0].label,
      updated_at: startedAt,
    })
    .where("customer_id", "=", customerId)
    .where((eb) =>
      eb.or([
        eb("status", "!=", "running"),
        eb("heartbeat_at", "is", null),
        eb("heartbeat_at", "<", staleBefore),
        ...(opts.runId ? [eb("run_id", "=", opts.runId)] : []),
      ]),
    )
    .executeTakeFirst();
  markClaimed();
  if (Number(claim.numUpdatedRows) === 0) {
    observeSync("elsewhere", 0, 0);
    return getSyncState(customerId, db, clock());
  }
  const started = performance.now();

  const report = async () => {
    if (opts.onProgress) await opts.onProgress(await getSyncState(customerId, db, clock()));
  };
  let failure: string | undefined;
  try {
    if (opts.client) {
      await runSyncJob({
        userId,
        customerId,
        runId,
        clock,
        client: opts.client,
        onStep: report,
        beforeTotals: opts.beforeTotals,
        full: opts.full,
        purpose: opts.purpose,
      });
    } else {
      // A clock can't cross threads: an injected one (tests) is read once and held.
      await syncInWorker(
        {
          userId,
          customerId,
          runId,
          fixedNowMs: opts.now ? clock().getTime() : null,
          acks: !!opts.onProgress,
          full: opts.full === true,
          purpose: opts.purpose ?? "interactive",
        },
        report,
      );
      // The worker queued the engine's job; this thread's workers run it.
      wakeJobs("engine-run");
    }
  } catch (error) {
    // The job stores its own failures; this is the thread itself dying (out of memory, a bug, shutdown),
    // or the job's failure that the database refused to store (SyncOutcomeNotStoredError).
    log.warn(`Sync of ${customerId} stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    failure = stopping
      ? "The sync stopped because the server shut down; the previous data is kept."
      : (outcomeNotStored(error) ?? "an internal error stopped the sync. It has been logged.");
  }
  // Every run ends in a final state with its reason: whatever this run still holds as "running" is failed now.
  await endInFinalState(db, customerId, runId, () => iso(clock()), failure ?? "The sync stopped without recording its outcome.");
  const state = await getSyncState(customerId, db, clock());
  const rows = Object.values(state.rowCounts ?? {}).reduce((a, b) => a + b, 0);
  observeSync(state.status === "ok" ? "ok" : "failed", (performance.now() - started) / 1000, rows);
  if (opts.onProgress && state.status !== "running") await opts.onProgress(state);
  return state;
}

/**
 * Fails what the run left "running" (nothing when it stored its outcome), retried with backoff while the
 * database refuses the write; if it never accepts it, the sync's caller (its job) fails and is retried.
 */
async function endInFinalState(db: DB, customerId: string, runId: string, at: () => string, reason: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await markFailed(db, customerId, runId, at(), reason);
    } catch (error) {
      if (attempt >= FINAL_STATE_ATTEMPTS)
        throw new Error(`The sync of ${customerId} could not record its outcome (${reason}): ${errorMessage(error)}`, { cause: error });
      log.warn(`Sync of ${customerId}: recording its outcome failed (attempt ${attempt}, will retry): ${errorMessage(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}
const FINAL_STATE_ATTEMPTS = 5;

/** The failure message the job could not store (SyncOutcomeNotStoredError, also as the worker thread reports it: its stack). */
function outcomeNotStored(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === "SyncOutcomeNotStoredError") return error.message;
  return /^SyncOutcomeNotStoredError: (.*)$/m.exec(error.message)?.[1];
}

async function markFailed(db: DB, customerId: string, runId: string, at: string, reason: string) {
  const values: Updateable<AdsSyncStateTable> = {
    status: "failed",
    finished_at: at,
    heartbeat_at: at,
    updated_at: at,
    last_error: reason,
    current_step: null,
  };
  await db
    .updateTable("ads_sync_state")
    .set(values)
    .where("customer_id", "=", customerId)
    .where("run_id", "=", runId)
    .where("status", "=", "running")
    .execute();
  // Died in a first sync's detail import: stage 1's data stays ("ok"), the detail says why it is missing.
  await db
    .updateTable("ads_sync_state")
    .set({ detail_status: "failed", detail_step: null, detail_error: reason, finished_at: at, heartbeat_at: at, updated_at: at })
    .where("customer_id", "=", customerId)
    .where("run_id", "=", runId)
    .where("status", "=", "ok")
    .where("detail_status", "=", "running")
    .execute();
}

/**
 * Shutdown: stops running syncs now (a sync can take minutes; the previous data
 * stays, and the next scheduled refresh starts a new one). Their state says why.
 */
export async function stopSyncs(): Promise<void> {
  stopping = true;
  const runs = [...inflight.values()].map((r) => r.done.catch(() => undefined));
  await stopWorker();
  await Promise.all(runs);
}
