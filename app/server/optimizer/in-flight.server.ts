import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { holdWhileFlagged } from "../test-hold.server";

// Whether the recommendations engine is analysing an account right now, from
// real data: each run writes a row in optimizer_in_flight before it starts and
// deletes it when it ends (run.server.ts). After a sync the row is written in
// the switch-over's own transaction (sync/job.server.ts), so there is no
// moment where the new data is in and the screens would say "No analysis yet".
// Runs happen in the background worker thread, possibly in another process:
// only the database is shared, hence a row and not a flag in memory.

/**
 * A row not refreshed for this long belongs to a run that died (crash,
 * restart, a worker killed): it reads as not running. The engine takes about
 * 2 s on a 100,000-keyword account and beats between its phases, so a live
 * run never gets near it.
 */
export const ANALYSIS_STALE_MS = 5 * 60_000;

export type AnalysisTrigger = "sync" | "on-demand";

export interface AnalysisState {
  /** "running": an engine run over this account's data is in flight; its results replace the shown ones when it ends. */
  status: "running" | "idle";
  /** When the oldest live run started; null when idle. */
  startedAt: string | null;
}

const IDLE: AnalysisState = { status: "idle", startedAt: null };

type Db = Kysely<Database>;

/** Records a run about to start; returns its id, for analysisBeat and endAnalysis. */
export async function beginAnalysis(db: Db, customerId: string, trigger: AnalysisTrigger, at: Date = new Date()): Promise<string> {
  const runId = randomUUID();
  const now = at.toISOString();
  await db.insertInto("optimizer_in_flight").values({ run_id: runId, customer_id: customerId, trigger, started_at: now, heartbeat_at: now }).execute();
  return runId;
}

/** The run is alive (called between its phases). */
export async function analysisBeat(db: Db, runId: string, at: Date = new Date()): Promise<void> {
  await db.updateTable("optimizer_in_flight").set({ heartbeat_at: at.toISOString() }).where("run_id", "=", runId).execute();
}

/** The run ended (stored its results, or failed); rows of this account's dead runs go with it. */
export async function endAnalysis(db: Db, customerId: string, runId: string, at: Date = new Date()): Promise<void> {
  const staleBefore = new Date(at.getTime() - ANALYSIS_STALE_MS).toISOString();
  await db
    .deleteFrom("optimizer_in_flight")
    .where("customer_id", "=", customerId)
    .where((eb) => eb.or([eb("run_id", "=", runId), eb("heartbeat_at", "<=", staleBefore)]))
    .execute();
}

/** Whether an engine run over the account is in flight, as the screens and the API show it. */
export async function getAnalysisState(db: Db, customerId: string, now: Date = new Date()): Promise<AnalysisState> {
  const staleBefore = new Date(now.getTime() - ANALYSIS_STALE_MS).toISOString();
  const live = await db
    .selectFrom("optimizer_in_flight")
    .select((eb) => eb.fn.min("started_at").as("started_at"))
    .where("customer_id", "=", customerId)
    .where("heartbeat_at", ">", staleBefore)
    .executeTakeFirst();
  return live?.started_at ? { status: "running", startedAt: live.started_at } : IDLE;
}

/** Test hook (test-hold.server.ts): with TEST_HOLD_ENGINE_DIR set, a run waits while a file names the account. */
export function holdForTests(customerId: string, beat: () => Promise<void>): Promise<void> {
  return holdWhileFlagged("TEST_HOLD_ENGINE_DIR", customerId, beat);
}
