import { optimizeInWorker } from "../ads/sync/worker-host.server";
import { getDb, type DB } from "../db/db.server";
import { loadAccountData } from "./data.server";
import { runEngine } from "./engine.server";
import { analysisBeat, beginAnalysis, endAnalysis, holdForTests } from "./in-flight.server";
import { saveRun } from "./store.server";
import { log } from "../log.server";
import { observeEngine } from "../metrics/metrics.server";

// Running the engine for one account: after every successful sync (the
// engine-run job, in the background worker thread) and on demand (the AI Optimizer's
// "Run analysis", new targets in /settings: runOptimizerOffThread, same
// thread). Reads local tables only. Never on the request thread: over a big
// account it aggregates a million rows and runs the rules for seconds.

export interface RunSummary {
  ran: boolean;
  recommendations: number;
  score: number | null;
  durationMs: number;
  /** Where the time went (the bench prints it): reading and aggregating the synced tables, the rules, storing the results. */
  phases: { loadMs: number; rulesMs: number; storeMs: number };
}

export interface RunOptions {
  db?: DB;
  /** The engine's "now" (which days it judges); tests and the bench pin it. */
  now?: Date;
  /** The in-flight record written for this run beforehand (a sync's switch-over writes it); one is written here otherwise. */
  inFlightId?: string;
}

/**
 * Runs the engine over the account's synced data and stores the results. The
 * run is recorded as in flight (in-flight.server.ts) until it ends, whatever
 * the outcome, so the screens say "Analysing your data…" meanwhile. Its
 * timestamps are the wall clock's, not `now`: they are compared with the
 * readers' clock.
 */
export async function runOptimizer(customerId: string, opts: RunOptions = {}): Promise<RunSummary> {
  const db = opts.db ?? getDb();
  const runId = opts.inFlightId ?? (await beginAnalysis(db, customerId, "on-demand"));
  try {
    await holdForTests(customerId, () => analysisBeat(db, runId));
    return await analyse(db, customerId, opts.now ?? new Date(), () => analysisBeat(db, runId));
  } finally {
    await endAnalysis(db, customerId, runId).catch((error: unknown) =>
      log.warn(`Optimizer for ${customerId}: could not clear its in-flight record (it goes stale on its own): ${String(error)}`),
    );
  }
}

async function analyse(db: DB, customerId: string, now: Date, beat: () => Promise<void>): Promise<RunSummary> {
  const t0 = performance.now();
  const account = await db.selectFrom("ads_accounts").select("currency_code").where("customer_id", "=", customerId).executeTakeFirst();
  const data = await loadAccountData(db, customerId, account?.currency_code ?? "USD", now);
  const t1 = performance.now();
  if (!data) return { ran: false, recommendations: 0, score: null, durationMs: t1 - t0, phases: { loadMs: t1 - t0, rulesMs: 0, storeMs: 0 } };
  await beat();
  const result = runEngine(data);
  const t2 = performance.now();
  await beat();
  if (result.dropped.length > 0)
    log.warn(
      `Optimizer for ${customerId}: the safety gate refused ${result.dropped.length} finding(s): ${result.dropped.map((d) => `${d.key} (${d.reason})`).join("; ")}`,
    );
  const durationMs = performance.now() - t0;
  await saveRun(db, customerId, result, { syncedAt: data.period.syncedAt, durationMs }, now);
  const t3 = performance.now();
  return {
    ran: true,
    recommendations: result.findings.length,
    score: result.score.value,
    durationMs: t3 - t0,
    phases: { loadMs: t1 - t0, rulesMs: t2 - t1, storeMs: t3 - t2 },
  };
}

/** On demand from a request: the run happens in the background worker thread; the request only waits for it. */
export async function runOptimizerOffThread(customerId: string, opts: { now?: Date; inFlightId?: string } = {}): Promise<RunSummary> {
  const started = performance.now();
  try {
    const summary = await optimizeInWorker({ customerId, nowMs: opts.now?.getTime() ?? null, inFlightId: opts.inFlightId ?? null });
    observeEngine("ok", summary.durationMs / 1000, summary.recommendations);
    return summary;
  } catch (error) {
    observeEngine("failed", (performance.now() - started) / 1000, 0);
    throw error;
  }
}
