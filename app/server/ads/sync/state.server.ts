import type { Selectable } from "kysely";
import { addDays, type DateRange, yesterdayIn } from "~/lib/dates";
import type { AdsSyncStateTable } from "../../db/schema";
import { getDb, type DB } from "../../db/db.server";
import { NotFoundError } from "../../domain-errors.server";
import { normalizeCustomerId } from "../client.server";
import { DETAIL_STEP_COUNT, OVERVIEW_STEP_COUNT } from "./streams.server";

/**
 * A sync's state as the pages show it (the progress bar, "last synced",
 * the error), read from ads_sync_state, which also holds the claim that keeps
 * one sync per account across processes.
 */

/** Days of daily metrics kept, ending yesterday in the account's time zone. */
export const SYNC_DAYS = 90;

/** The days a sync started at `now` reads: SYNC_DAYS up to yesterday in the account's time zone. */
export function syncRange(timeZone: string, now: Date): DateRange {
  const to = yesterdayIn(timeZone, now);
  return { from: addDays(to, -(SYNC_DAYS - 1)), to };
}
/** A "running" claim not refreshed for this long belongs to a sync that died (crash, restart). */
export const STALE_RUNNING_MS = 15 * 60_000;

export type SyncStatus = AdsSyncStateTable["status"];

/**
 * The keyword, ad and search-term performance (the detail tables). An
 * account's first sync switches everything else in first (status "ok") and
 * imports these right after, in the same job (ADR 013, staged first sync):
 * "running" until they are in, "failed" if that import failed (the rest of
 * the data stays; the next sync is a full one), "ok" when the tables are
 * complete, "never" before anything was synced.
 */
export interface DetailState {
  status: "never" | "running" | "ok" | "failed";
  /** What the import is doing now, e.g. "Loading keyword performance". */
  currentStep: string | null;
  /** Why it failed, naming the step. */
  lastError: string | null;
  progressDone: number;
  progressTotal: number;
}

export interface SyncState {
  customerId: string;
  status: SyncStatus;
  startedAt: string | null;
  finishedAt: string | null;
  lastSuccessAt: string | null;
  /** Why the last sync failed, naming the step, e.g. "Loading keywords failed: …". Cleared by a success. */
  lastError: string | null;
  progressDone: number;
  progressTotal: number;
  /** What a running sync is doing now, e.g. "Loading keywords". */
  currentStep: string | null;
  /** The daily-metrics window of the data in the tables. */
  dataFrom: string | null;
  dataTo: string | null;
  /** Rows per table written by the last successful sync. */
  rowCounts: Record<string, number> | null;
  /** Raised by every write to the synced tables (0095): what the report cache keys on. */
  dataVersion: number;
  detail: DetailState;
}

export const iso = (d: Date) => d.toISOString();

export function toState(row: Selectable<AdsSyncStateTable> | undefined, customerId: string, now: Date): SyncState {
  if (!row) {
    return {
      customerId,
      status: "never",
      startedAt: null,
      finishedAt: null,
      lastSuccessAt: null,
      lastError: null,
      progressDone: 0,
      // A first sync shows its first stage's progress.
      progressTotal: OVERVIEW_STEP_COUNT,
      currentStep: null,
      dataFrom: null,
      dataTo: null,
      rowCounts: null,
      dataVersion: 0,
      detail: { status: "never", currentStep: null, lastError: null, progressDone: 0, progressTotal: DETAIL_STEP_COUNT },
    };
  }
  let status = row.status;
  let lastError = row.last_error;
  let currentStep = row.current_step;
  if (status === "running" && isStale(row.heartbeat_at, now)) {
    // Nobody will finish it: say so, rather than show a progress bar forever.
    status = "failed";
    lastError = "The last sync stopped before it finished (the server may have restarted).";
    currentStep = null;
  }
  let rowCounts: Record<string, number> | null = null;
  try {
    rowCounts = row.row_counts ? (JSON.parse(row.row_counts) as Record<string, number>) : null;
  } catch {
    rowCounts = null;
  }
  return {
    customerId,
    status,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    lastSuccessAt: row.last_success_at,
    lastError,
    progressDone: row.progress_done,
    progressTotal: row.progress_total,
    currentStep,
    dataFrom: row.data_from,
    dataTo: row.data_to,
    rowCounts,
    dataVersion: row.data_version,
    detail: detailOf(row, status, lastError, now),
  };
}

const DETAIL_STOPPED = "The import of keyword, ad and search-term performance stopped before it finished (the server may have restarted).";

/** `status` and `lastError`: the row's, after the staleness rule. */
function detailOf(row: Selectable<AdsSyncStateTable>, status: SyncStatus, lastError: string | null, now: Date): DetailState {
  const base = { currentStep: null, lastError: null, progressDone: row.detail_done, progressTotal: DETAIL_STEP_COUNT };
  const pending = row.detail_status === "running" || row.detail_status === "failed";
  if (!pending) {
    // null: never staged (a full sync, or synced before migration 0096): complete once anything was synced.
    const complete = row.detail_status === "ok" || row.last_success_at !== null;
    return { ...base, status: complete ? "ok" : "never", progressDone: complete ? DETAIL_STEP_COUNT : 0 };
  }
  // A newer sync holds the claim: a full one, which imports the detail tables with the rest.
  if (status === "running") {
    return { ...base, status: "running", currentStep: row.current_step, progressDone: row.progress_done, progressTotal: row.progress_total };
  }
  if (row.detail_status === "failed") return { ...base, status: "failed", lastError: row.detail_error };
  // "running" and the run that owns it is in its second stage (status "ok"), alive while its heartbeat is.
  if (status === "ok") {
    return isStale(row.heartbeat_at, now)
      ? { ...base, status: "failed", lastError: DETAIL_STOPPED }
      : { ...base, status: "running", currentStep: row.detail_step };
  }
  // The newer sync that superseded the detail import failed: the detail is still missing, for the same reason.
  return { ...base, status: "failed", lastError };
}

function isStale(heartbeatAt: string | null, now: Date): boolean {
  return heartbeatAt === null || now.getTime() - Date.parse(heartbeatAt) >= STALE_RUNNING_MS;
}

/** The account's sync state; status "never" when it was never synced. */
export async function getSyncState(customerId: string, db: DB = getDb(), now: Date = new Date()): Promise<SyncState> {
  const cid = normalizeCustomerId(customerId);
  const row = await db.selectFrom("ads_sync_state").selectAll().where("customer_id", "=", cid).executeTakeFirst();
  return toState(row, cid, now);
}

/** The user cannot sync this account (not theirs, or a manager without campaigns); a 404 at the edge. */
export class SyncAccessError extends NotFoundError {
  name = "SyncAccessError";
}
