// @vitest-environment node
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { captureLogs } from "../log.server";
import { refreshOutsideChanges } from "./history-import.server";
import { IMPORT_EVERY_MS } from "./history.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";

// Issue 27 point 1: the import of outside changes is a job, no longer a Google call inside /history's loader.
let emu: WritableEmulator;
let t: TestContext;
let userId: string;
let down = false;

beforeAll(async () => {
  emu = await startWritableEmulator({ adsDown: () => down });
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await startJobs({ pollMs: 100 });
}, 60_000);
afterAll(async () => {
  await stopJobs();
  await t?.cleanup();
  await emu?.close();
});

const state = () => t.db.selectFrom("history_import_state").selectAll().where("customer_id", "=", CUSTOMER).executeTakeFirst();
const imported = async () =>
  Number(
    (
      await t.db
        .selectFrom("history_imports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("customer_id", "=", CUSTOMER)
        .executeTakeFirstOrThrow()
    ).n,
  );
const waitFor = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 30_000, interval: 100 });

it("a page view queues one import per window; the job brings the outside changes in; a failure shows on the next view", async () => {
  const t0 = new Date();
  expect(await refreshOutsideChanges(userId, CUSTOMER, t0)).toBeNull();
  const first = await state();
  expect(first?.requested_at).toBe(t0.toISOString());
  // A second view inside the window (any instance: the slot is in the database) queues nothing.
  await refreshOutsideChanges(userId, CUSTOMER, new Date(t0.getTime() + 1_000));
  expect((await state())?.requested_at).toBe(t0.toISOString());
  await waitFor(async () => expect((await state())?.imported_at).not.toBeNull());
  expect(await imported()).toBeGreaterThan(0);

  // Google is down for the next window's import: the job fails with the reason, and the page says so.
  down = true;
  const logs = captureLogs();
  try {
    const later = new Date(t0.getTime() + IMPORT_EVERY_MS + 1_000);
    expect(await refreshOutsideChanges(userId, CUSTOMER, later)).toBeNull();
    await waitFor(async () => expect((await state())?.error).toMatch(/unavailable/i));
    expect(await refreshOutsideChanges(userId, CUSTOMER, new Date(later.getTime() + 1_000))).toBe(
      "Changes made outside Ads AI Manager could not be loaded from Google just now; showing what was imported before.",
    );
    // Google answers again: the next window's import clears the notice.
    down = false;
    await refreshOutsideChanges(userId, CUSTOMER, new Date(later.getTime() + IMPORT_EVERY_MS + 1_000));
    await waitFor(async () => expect((await state())?.error).toBeNull());
    expect(await refreshOutsideChanges(userId, CUSTOMER, new Date(later.getTime() + IMPORT_EVERY_MS + 2_000))).toBeNull();
  } finally {
    logs.restore();
    down = false;
  }
}, 90_000);
