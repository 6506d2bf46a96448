// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { getConnection } from "../../auth/google-connection.server";
import { adsClientFor } from "../accounts.server";
import { syncAccount } from "../sync.server";
import { runSyncSchedulerTick, slotStart, type SyncAccountData } from "./scheduler.server";

// Issue 26 point 2 and 3: refreshes run on a schedule (every SYNC_INTERVAL_MINUTES, each account
// at its own minute), within the install's Google Ads budget. Simulated days pass in seconds: the
// emulator's clock and the app's move together; the ledger and the emulator both count.

const HOUR = 3_600_000;
const ACCOUNTS = 50;
const BUDGET = 2_880;
const TODAY = "2026-11-22";

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

/** 50 small accounts the demo Google user reaches directly. */
function fiftyAccounts() {
  return {
    days: 30,
    customers: Array.from({ length: ACCOUNTS }, (_, i) => ({
      id: String(2_000_000_001 + i),
      name: `Shop ${i + 1}`,
      campaigns: [
        {
          name: `Search ${i + 1}`,
          adGroups: [
            {
              name: "All",
              cpcBid: 1,
              keywords: [
                { text: `shop ${i + 1} shoes`, matchType: "PHRASE", metrics: [{ impressions: 3000, clicks: 150, cost: 120, conversions: 6, value: 300 }] },
                { text: `shop ${i + 1} boots`, matchType: "EXACT", metrics: [{ impressions: 900, clicks: 40, cost: 50 }] },
              ],
              ads: [{ headlines: ["Shoes for all", "Free returns", "Order today"], descriptions: ["Good shoes.", "Fast delivery."] }],
            },
          ],
        },
      ],
    })),
  };
}

beforeAll(async () => {
  emu = await startEmulator({
    store: createFixtureStore(fiftyAccounts(), { today: TODAY }),
    emulatorOptions: { dailyOperations: BUDGET },
  });
  ctx = await setupTestEnvironment({ ...emu.env, GOOGLE_ADS_DAILY_OPERATIONS: String(BUDGET), SYNC_INTERVAL_MINUTES: "60" });
  userId = await connectDemoUser(emu.baseUrl);
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

/** Refreshes that failed (the budget refused them halfway: the plan was wrong). */
const stopped: string[] = [];

/** The app's clock is the emulator's. */
const now = () => emu.store.now();

/** Runs the tick's refreshes here, one after the other, through the ledger like the job does. */
async function tick() {
  const queued: SyncAccountData[] = [];
  const result = await runSyncSchedulerTick(now(), { enqueue: async (d) => void queued.push(d) }, ctx.db);
  const client = adsClientFor((await getConnection(userId))!, { purpose: "background", clock: now });
  for (const d of queued) {
    const state = await syncAccount(d.userId, d.customerId, { purpose: "background", now, client });
    if (state.status === "failed") stopped.push(`${d.customerId}: ${state.lastError}`);
  }
  return result;
}

/** The largest sum of operations the ledger holds in any 24 hours. */
async function busiestDay(): Promise<number> {
  const rows = await ctx.db.selectFrom("google_ads_operations").select(["at", "operations"]).orderBy("at").execute();
  let best = 0;
  let start = 0;
  let sum = 0;
  for (let end = 0; end < rows.length; end++) {
    sum += rows[end].operations;
    while (Date.parse(rows[end].at) - Date.parse(rows[start].at) >= 24 * HOUR) sum -= rows[start++].operations;
    best = Math.max(best, sum);
  }
  return best;
}

describe("the scheduler", () => {
  it("spreads accounts over the interval: each has its own minute, the same on every instance", () => {
    const at = new Date("2026-11-22T12:00:00Z");
    const minutes = new Set(Array.from({ length: ACCOUNTS }, (_, i) => Math.floor((slotStart(String(2_000_000_001 + i), HOUR, at) % HOUR) / 60_000)));
    // 50 accounts over 60 minutes: most get a minute of their own.
    expect(minutes.size).toBeGreaterThan(25);
    expect(slotStart("2000000001", HOUR, at)).toBe(slotStart("2000000001", HOUR, at));
  });

  it("with 50 accounts and a budget of 2,880 a day, never goes past the budget: refreshes wait for room, Google never refuses", async () => {
    // The install has been running: the last 20 hours hold 1,500 operations of scheduled refreshes
    // (15 every 12 minutes), which leave the window as the simulated hours pass.
    const start = now().getTime();
    await ctx.db
      .insertInto("google_ads_operations")
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          id: `earlier-${i}`,
          at: new Date(start - 20 * HOUR + i * 12 * 60_000).toISOString(),
          operations: 15,
          method: "searchStream",
          customer_id: null,
          purpose: "background" as const,
        })),
      )
      .execute();
    // Each account was opened once: its first sync (a person's, at the Google connection or in /settings).
    const person = adsClientFor((await getConnection(userId))!, { clock: now });
    for (let i = 0; i < ACCOUNTS; i++) expect((await syncAccount(userId, String(2_000_000_001 + i), { now, client: person })).status).toBe("ok");
    emu.store.advanceClock(HOUR);
    const held: string[] = [];
    const refreshed = new Map<string, number>();
    // Three simulated hours, a tick every 10 minutes.
    for (let minute = 0; minute < 3 * 60; minute += 10) {
      const result = await tick();
      if (result.heldBack) held.push(result.heldBack);
      for (const d of result.enqueued) refreshed.set(d.customerId, (refreshed.get(d.customerId) ?? 0) + 1);
      emu.store.advanceClock(10 * 60_000);
    }
    // Refreshes went on as room freed, and reached most accounts.
    expect(refreshed.size).toBeGreaterThan(ACCOUNTS / 2);
    expect([...refreshed.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(ACCOUNTS);
    // The budget was the limit: refreshes were held back for it ...
    expect(held.some((h) => /budget for scheduled refreshes is spent/.test(h))).toBe(true);
    // ... and never passed, by the ledger or by Google's own count.
    expect(await busiestDay()).toBeLessThanOrEqual(BUDGET);
    expect(emu.emulator.state.operations().last24h).toBeLessThanOrEqual(BUDGET);
    // Planned within the budget, no refresh was refused halfway.
    expect(stopped).toEqual([]);
    // Scheduled refreshes kept the reserve: people's applies and Sync now still have 10 %.
    const background = await ctx.db
      .selectFrom("google_ads_operations")
      .select(sql<number>`COALESCE(SUM(operations), 0)`.as("n"))
      .where("purpose", "=", "background")
      .where("at", ">", new Date(now().getTime() - 24 * HOUR).toISOString())
      .executeTakeFirstOrThrow();
    expect(Number(background.n)).toBeLessThanOrEqual(BUDGET * 0.9);
  }, 600_000);

  it("refreshes only accounts someone opened, and not one whose users have all left", async () => {
    const gone = "2000000001";
    await ctx.db.deleteFrom("ads_accounts").where("customer_id", "=", gone).execute();
    // One the user lists but never opened (no first sync): not imported in the background.
    const unopened = "2000000002";
    await ctx.db.deleteFrom("ads_sync_state").where("customer_id", "=", unopened).execute();
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      emu.store.advanceClock(10 * 60_000);
      const result = await runSyncSchedulerTick(now(), { enqueue: async (d) => void seen.push(d.customerId) }, ctx.db);
      void result;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain(gone);
    expect(seen).not.toContain(unopened);
  });
});
