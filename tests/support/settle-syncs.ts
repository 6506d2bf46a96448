import type { Kysely } from "kysely";
import type { Database } from "~/server/db/schema";
import { drainJobs } from "./jobs";

/**
 * Waits until no account's sync (nor a first sync's detail import, nor the
 * engine run that follows it) is running; runs the engine jobs the syncs queued.
 * Connecting Google starts the active account's first sync in the background
 * (startFirstSync): a test that connects and then deletes users or closes the
 * database waits for it, so the sync neither fails on a half-torn-down
 * database nor talks to the emulator during the next test. Usable in hooks.
 */
/** Room for the demo account's whole first sync in tests (its worker runs through tsx: seconds of CPU, more on a busy machine). */
export const SYNC_SETTLE_MS = 90_000;

export async function settleSyncs(db: Kysely<Database>, timeoutMs = SYNC_SETTLE_MS - 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = await db
      .selectFrom("ads_sync_state")
      .select(["customer_id", "status", "detail_status", "current_step", "detail_step"])
      .where((eb) => eb.or([eb("status", "=", "running"), eb("detail_status", "=", "running")]))
      .execute();
    // The job's engine run over the new data comes after the detail import, still in the sync's job.
    const analysing = await db.selectFrom("optimizer_in_flight").select("customer_id").execute();
    if (running.length === 0 && analysing.length === 0) return;
    // The engine's run is a job (optimizer/engine-job.server.ts): tests run no job worker unless they
    // ask, so the runs the syncs queued are run here, with the impact records that follow the new data.
    if (running.length === 0) {
      await drainJobs(db, ["engine-run", "impact-records"], Math.max(1_000, deadline - Date.now()));
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Syncs still running after ${timeoutMs} ms: ${JSON.stringify({ running, analysing })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
