import fs from "node:fs";
import path from "node:path";

/**
 * Test hooks, never set in production: with the named variable set (the
 * end-to-end suite's server, playwright.config.ts), work on an account waits
 * while a file named after the account exists in that directory, beating
 * meanwhile, so a test can look at the screens while that work is really in
 * flight instead of racing it. Without the variable this returns at once.
 *   TEST_HOLD_ENGINE_DIR   a recommendations-engine run (optimizer/in-flight.server.ts)
 *   TEST_HOLD_DETAIL_DIR   a first sync's detail import, after stage 1 (ads/sync/job.server.ts)
 */
export async function holdWhileFlagged(
  variable: "TEST_HOLD_ENGINE_DIR" | "TEST_HOLD_DETAIL_DIR",
  customerId: string,
  beat: () => Promise<void>,
): Promise<void> {
  const dir = process.env[variable];
  if (!dir) return;
  const file = path.join(dir, customerId);
  let lastBeat = Date.now();
  while (fs.existsSync(file)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (Date.now() - lastBeat > 5_000) {
      await beat();
      lastBeat = Date.now();
    }
  }
}
