// @vitest-environment node
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_SMALL_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { getSyncState, syncAccount } from "../ads/sync.server";
import { recommendationsForApi } from "../recommendations-api.server";
import { analysisBeat, ANALYSIS_STALE_MS, beginAnalysis, endAnalysis, getAnalysisState } from "./in-flight.server";
import { runOptimizer } from "./run.server";

// "Analysing your data…" comes from real data: a row per engine run in flight,
// written before it starts (after a sync: in the switch-over's own commit),
// deleted when it ends however it ends, and read as not running once its
// heartbeat is older than ANALYSIS_STALE_MS (a run that died).

// The engine can be made to throw in this thread (runOptimizer called here);
// the worker thread loads its own, real copy.
const engine = vi.hoisted(() => ({ fail: false }));
vi.mock("./engine.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./engine.server")>();
  return {
    ...actual,
    runEngine: (...args: Parameters<typeof actual.runEngine>) => {
      if (engine.fail) throw new Error("engine bug");
      return actual.runEngine(...args);
    },
  };
});

const SMALL = DEMO_SMALL_CUSTOMER_ID;
const T0 = new Date("2026-11-25T10:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
const holdDir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-hold-"));
// Read by the worker thread when it starts (it copies this thread's environment), so set before any sync.
process.env.TEST_HOLD_ENGINE_DIR = holdDir;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  emu = await startEmulator();
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
}, 120_000);

afterAll(async () => {
  delete process.env.TEST_HOLD_ENGINE_DIR;
  fs.rmSync(holdDir, { recursive: true, force: true });
  await ctx?.cleanup();
  await emu?.close();
});

// Each test starts with no record (a failing one must not make the next fail too).
afterEach(async () => {
  await ctx.db.deleteFrom("optimizer_in_flight").execute();
});

/** Waits for a condition by polling it (never a fixed sleep). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const inFlightRows = () => ctx.db.selectFrom("optimizer_in_flight").selectAll().execute();
const storedRun = (customerId: string) => ctx.db.selectFrom("optimizer_runs").selectAll().where("customer_id", "=", customerId).executeTakeFirst();

describe("the in-flight record", () => {
  const CID = "1231231234";

  it("reads idle with no run, running from begin to end, idle again after", async () => {
    expect(await getAnalysisState(ctx.db, CID, T0)).toEqual({ status: "idle", startedAt: null });
    const id = await beginAnalysis(ctx.db, CID, "on-demand", T0);
    expect(await getAnalysisState(ctx.db, CID, later(1000))).toEqual({ status: "running", startedAt: T0.toISOString() });
    // Another account is not affected.
    expect((await getAnalysisState(ctx.db, "9879879876", later(1000))).status).toBe("idle");
    await endAnalysis(ctx.db, CID, id, later(2000));
    expect(await getAnalysisState(ctx.db, CID, later(2000))).toEqual({ status: "idle", startedAt: null });
    expect(await inFlightRows()).toEqual([]);
  });

  it("a run that died (no end, no heartbeat) stops reading as running after the staleness limit; a beating one does not", async () => {
    const dead = await beginAnalysis(ctx.db, CID, "sync", T0);
    expect((await getAnalysisState(ctx.db, CID, later(ANALYSIS_STALE_MS - 1))).status).toBe("running");
    expect((await getAnalysisState(ctx.db, CID, later(ANALYSIS_STALE_MS))).status).toBe("idle");

    const alive = await beginAnalysis(ctx.db, CID, "on-demand", later(ANALYSIS_STALE_MS - 60_000));
    await analysisBeat(ctx.db, alive, later(ANALYSIS_STALE_MS + 60_000));
    // Started more than the limit after the dead one… and still running thanks to its beat.
    expect(await getAnalysisState(ctx.db, CID, later(2 * ANALYSIS_STALE_MS))).toEqual({
      status: "running",
      startedAt: later(ANALYSIS_STALE_MS - 60_000).toISOString(),
    });
    // Its end clears it, and takes the dead run's leftover row with it.
    await endAnalysis(ctx.db, CID, alive, later(2 * ANALYSIS_STALE_MS));
    expect((await inFlightRows()).map((r) => r.run_id)).not.toContain(dead);
    expect(await inFlightRows()).toEqual([]);
  });

  it("overlapping runs: the account reads running until the last one ends, from the oldest start", async () => {
    const a = await beginAnalysis(ctx.db, CID, "sync", T0);
    const b = await beginAnalysis(ctx.db, CID, "on-demand", later(500));
    await endAnalysis(ctx.db, CID, a, later(1000));
    expect(await getAnalysisState(ctx.db, CID, later(1000))).toEqual({ status: "running", startedAt: later(500).toISOString() });
    await endAnalysis(ctx.db, CID, b, later(1500));
    expect((await getAnalysisState(ctx.db, CID, later(1500))).status).toBe("idle");
  });
});

describe("engine runs", () => {
  it("between a sync's status turning ok and its engine run's end, the account reads running, in the API too", async () => {
    const hold = path.join(holdDir, SMALL);
    fs.writeFileSync(hold, "");
    let released = false;
    try {
      await startJobs({ pollMs: 50 });
      const sync = syncAccount(userId, SMALL);
      await until("the sync's data switched in", async () => (await getSyncState(SMALL)).status === "ok");
      // The new data is in, the engine has not stored anything yet: "running", never "no analysis".
      expect(await storedRun(SMALL)).toBeUndefined();
      const state = await getAnalysisState(ctx.db, SMALL);
      expect(state.status).toBe("running");
      expect(state.startedAt).not.toBeNull();
      const api = await recommendationsForApi(userId, SMALL, new URL("http://localhost/api/v1/accounts/x/recommendations"));
      expect(api).toMatchObject({ ranAt: null, score: { value: null }, analysis: { status: "running", startedAt: state.startedAt } });

      expect((await sync).status).toBe("ok");
      fs.rmSync(hold);
      released = true;
      // The engine's job stores its results, and the record is gone with them.
      await drainJobs(ctx.db, ["engine-run"]);
      expect(await storedRun(SMALL)).toBeDefined();
      expect(await getAnalysisState(ctx.db, SMALL)).toEqual({ status: "idle", startedAt: null });
      expect(await inFlightRows()).toEqual([]);
      const after = await recommendationsForApi(userId, SMALL, new URL("http://localhost/api/v1/accounts/x/recommendations"));
      expect(after.analysis).toEqual({ status: "idle", startedAt: null });
      expect(after.ranAt).not.toBeNull();
    } finally {
      if (!released) fs.rmSync(hold, { force: true });
      await stopJobs();
    }
  }, 180_000);

  it("an on-demand run reads running while it runs and clears its record when it ends", async () => {
    const hold = path.join(holdDir, SMALL);
    fs.writeFileSync(hold, "");
    const run = runOptimizer(SMALL);
    try {
      await until("the on-demand run recorded", async () => (await getAnalysisState(ctx.db, SMALL)).status === "running");
      expect((await inFlightRows()).map((r) => r.trigger)).toEqual(["on-demand"]);
    } finally {
      fs.rmSync(hold, { force: true });
    }
    expect((await run).ran).toBe(true);
    expect(await inFlightRows()).toEqual([]);
  });

  it("a run that fails clears its record too: the screens do not say running forever", async () => {
    engine.fail = true;
    try {
      await expect(runOptimizer(SMALL)).rejects.toThrow("engine bug");
    } finally {
      engine.fail = false;
    }
    expect(await inFlightRows()).toEqual([]);
    expect((await getAnalysisState(ctx.db, SMALL)).status).toBe("idle");
  });

  it("an account with nothing synced: the run ends at once and leaves no record", async () => {
    expect((await runOptimizer("9999999999")).ran).toBe(false);
    expect(await inFlightRows()).toEqual([]);
  });
});
