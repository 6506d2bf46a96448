import { getDb, type DB } from "../db/db.server";
import { loadAccountData } from "./data.server";
import { runEngine } from "./engine.server";
import { saveRun } from "./store.server";
import { log } from "../log.server";

// Running the engine for one account: after every successful sync (sync.server)
// and on demand (the AI Optimizer's "Run analysis"). Reads local tables only.

export interface RunSummary {
  ran: boolean;
  recommendations: number;
  score: number | null;
  durationMs: number;
}

export async function runOptimizer(customerId: string, opts: { db?: DB; now?: Date } = {}): Promise<RunSummary> {
  const db = opts.db ?? getDb();
  const now = opts.now ?? new Date();
  const t0 = performance.now();
  const account = await db.selectFrom("ads_accounts").select("currency_code").where("customer_id", "=", customerId).executeTakeFirst();
  const data = await loadAccountData(db, customerId, account?.currency_code ?? "USD", now);
  if (!data) return { ran: false, recommendations: 0, score: null, durationMs: performance.now() - t0 };
  const result = runEngine(data);
  if (result.dropped.length > 0) log.warn(`Optimizer for ${customerId}: the safety gate refused ${result.dropped.length} finding(s): ${result.dropped.map((d) => `${d.key} (${d.reason})`).join("; ")}`);
  const durationMs = performance.now() - t0;
  await saveRun(db, customerId, result, { syncedAt: data.period.syncedAt, durationMs }, now);
  return { ran: true, recommendations: result.findings.length, score: result.score.value, durationMs: performance.now() - t0 };
}

/** After a sync: a failing engine must never fail the sync that succeeded. */
export async function runOptimizerAfterSync(customerId: string, db: DB, now?: Date): Promise<void> {
  try {
    await runOptimizer(customerId, { db, now });
  } catch (error) {
    log.warn(`Optimizer after the sync of ${customerId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}
