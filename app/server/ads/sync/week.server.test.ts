// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { yesterdayIn } from "~/lib/dates";
import { getConnection } from "../../auth/google-connection.server";
import { adsClientFor } from "../accounts.server";
import { getSyncState, runSyncSchedulerTick, syncAccount, SYNCED_TABLES, type SyncAccountData } from "../sync.server";

// Issue 26, "done when": a simulated week of scheduled refreshes, with new days of metrics
// appearing at the emulator as its clock moves. Every day the stored data reaches yesterday, the
// window slides, each refresh reads only what can have changed, and at the end the tables hold
// what a full sync of the same state holds.

const CID = DEMO_SMALL_CUSTOMER_ID;
const INTERVAL_HOURS = 4;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: "2026-11-22" }, writable: true });
  ctx = await setupTestEnvironment({ ...emu.env, SYNC_INTERVAL_MINUTES: String(INTERVAL_HOURS * 60) });
  userId = await connectDemoUser(emu.baseUrl);
  // Only the bakery is this user's: the rich account would make a week take minutes.
  await ctx.db.deleteFrom("ads_accounts").where("customer_id", "not in", [CID, DEMO_MANAGER_CUSTOMER_ID]).execute();
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const now = () => emu.store.now();

async function tables(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of SYNCED_TABLES) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE customer_id = ${CID}`.execute(ctx.db);
    out[table] = rows.rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();
  }
  return out;
}

describe("a simulated week of scheduled refreshes", () => {
  it("refreshes every interval, new days arrive each day, the window slides, and the data equals a full sync at the end", async () => {
    const client = adsClientFor((await getConnection(userId))!, { purpose: "background", clock: now });
    const timeZone = (await ctx.db.selectFrom("ads_accounts").select("time_zone").where("customer_id", "=", CID).executeTakeFirstOrThrow()).time_zone;
    const kinds: string[] = [];
    const dataTo: string[] = [];
    const firstFrom = { value: "" };
    // The first sync, when the account was opened; then only the scheduler.
    const first = await syncAccount(userId, CID, { now, client: adsClientFor((await getConnection(userId))!, { clock: now }) });
    expect(first.status).toBe("ok");
    kinds.push("full");
    firstFrom.value = first.dataFrom!;
    dataTo.push(first.dataTo!);
    // A tick every 30 minutes for 7 days.
    for (let minute = 0; minute < 7 * 24 * 60; minute += 30) {
      const queued: SyncAccountData[] = [];
      await runSyncSchedulerTick(now(), { enqueue: async (d) => void queued.push(d) }, ctx.db);
      for (const d of queued) {
        const state = await syncAccount(d.userId, d.customerId, { purpose: "background", now, client });
        expect(state, `at ${now().toISOString()}`).toMatchObject({ status: "ok", lastError: null });
        // The stored data always reaches yesterday in the account's time zone.
        expect(state.dataTo).toBe(yesterdayIn(timeZone, now()));
        firstFrom.value ||= state.dataFrom!;
        dataTo.push(state.dataTo!);
        const row = await ctx.db.selectFrom("ads_sync_state").select("refresh_kind").where("customer_id", "=", CID).executeTakeFirstOrThrow();
        kinds.push(row.refresh_kind!);
      }
      emu.store.advanceClock(30 * 60_000);
    }
    // The first sync (the backfill), then a refresh every four hours: 6 a day (±1 at the week's ends).
    expect(kinds[0]).toBe("full");
    expect(kinds.slice(1).every((k) => k === "incremental")).toBe(true);
    expect(kinds.length - 1).toBeGreaterThanOrEqual(7 * (24 / INTERVAL_HOURS) - 2);
    expect(kinds.length - 1).toBeLessThanOrEqual(7 * (24 / INTERVAL_HOURS) + 1);
    // Seven new days arrived (one per day), each present in the tables with metrics from the emulator.
    expect(new Set(dataTo).size).toBeGreaterThanOrEqual(7);
    const state = await getSyncState(CID);
    const days = await ctx.db.selectFrom("ads_campaign_daily").select("date").distinct().where("customer_id", "=", CID).where("date", ">", dataTo[0]).execute();
    expect(days.length).toBeGreaterThanOrEqual(6);
    // The window slid: a week of days at its start is gone, not re-read.
    expect(state.dataFrom! > firstFrom.value).toBe(true);
    const before = await ctx.db.selectFrom("ads_campaign_daily").select("date").where("customer_id", "=", CID).where("date", "<", state.dataFrom!).execute();
    expect(before).toEqual([]);

    const refreshed = await tables();
    expect((await syncAccount(userId, CID, { now, client, full: true })).status).toBe("ok");
    const full = await tables();
    for (const table of SYNCED_TABLES) expect(refreshed[table], table).toEqual(full[table]);
  }, 600_000);
});
