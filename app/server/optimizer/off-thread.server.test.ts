// @vitest-environment node
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { DEMO_RICH_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { drainJobs } from "../../../tests/support/jobs";
import { syncAccount } from "../ads/sync.server";
import { runOptimizerOffThread } from "./run.server";

// The engine never runs on the request thread (ADR 013, amendment): after a
// sync its job (ADR 022) posts it to the background worker thread, and "Run
// analysis" / new targets post it there too. The engine module is wrapped in
// this thread: any call here would be counted; the worker loads its own copy.

const engineCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("./engine.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./engine.server")>();
  return {
    ...actual,
    runEngine: (...args: Parameters<typeof actual.runEngine>) => {
      engineCalls.count += 1;
      return actual.runEngine(...args);
    },
  };
});

const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const RICH = DEMO_RICH_CUSTOMER_ID;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const storedRun = () => ctx.db.selectFrom("optimizer_runs").select(["ran_at", "duration_ms"]).where("customer_id", "=", RICH).executeTakeFirst();
const openCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom("recommendations")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("customer_id", "=", RICH)
        .executeTakeFirstOrThrow()
    ).n,
  );

it("a sync queues the engine's job; the job stores the recommendations, and the engine ran in the worker, not here", async () => {
  const state = await syncAccount(userId, RICH, { now: () => NOW });
  expect(state.status).toBe("ok");
  await drainJobs(ctx.db, ["engine-run"]);
  expect(await storedRun()).toBeDefined();
  expect(await openCount()).toBeGreaterThan(0);
  expect(engineCalls.count).toBe(0);
}, 300_000);

it("an on-demand run goes through the worker too and reports what it stored", async () => {
  const before = await storedRun();
  const summary = await runOptimizerOffThread(RICH, { now: new Date(NOW.getTime() + 60_000) });
  expect(summary.ran).toBe(true);
  expect(summary.recommendations).toBe(await openCount());
  const after = await storedRun();
  expect(after!.ran_at > before!.ran_at).toBe(true);
  expect(engineCalls.count).toBe(0);
}, 120_000);

it("an account never synced: nothing to analyse, nothing stored", async () => {
  const summary = await runOptimizerOffThread("9999999999");
  expect(summary).toMatchObject({ ran: false, recommendations: 0, score: null });
});
