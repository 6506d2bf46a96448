// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { campaignDetailPage, campaignsPage, dashboardPage } from "../../report-pages.server";
import { recommendationsPanel, scorePage } from "../../optimizer/pages.server";
import { campaignsForApi, summaryForApi } from "../../report-api.server";
import { googleBudgetView, syncViewOf } from "../../sync-status.server";
import { operationsUsed } from "../quota.server";
import { getSyncState, runSyncSchedulerTick, syncAccount } from "../sync.server";

// Issue 26 point 2: pages show the data's age and never wait for Google. Once an account's first
// sync is in, no page view, API read or status poll sends a request to Google, however old the
// data is: only the scheduler (and Sync now) refresh it. Counted at the emulator.

const CID = DEMO_SMALL_CUSTOMER_ID;
let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: "2026-11-22" } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await ctx.db.updateTable("users").set({ active_customer_id: CID }).where("id", "=", userId).execute();
  expect((await syncAccount(userId, CID)).status).toBe("ok");
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("page views", () => {
  it("start no Google request, however old the data: every report page, the optimizer, the API and the status poll read the database", async () => {
    // The data is three hours old (the 5-minute freshness that used to start a re-import is gone).
    const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await ctx.db.updateTable("ads_sync_state").set({ last_success_at: old, finished_at: old, started_at: old }).where("customer_id", "=", CID).execute();
    emu.emulator.state.resetOperations();
    const ledger = await operationsUsed(ctx.db);
    const user = await ctx.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    const url = (path: string) => new URL(`http://localhost:3000${path}`);

    const dashboard = await dashboardPage(user, url("/dashboard"));
    const campaigns = await campaignsPage(user, url("/campaigns"));
    expect(campaigns.connected && campaigns.list.rows.length).toBeGreaterThan(0);
    const first = campaigns.connected ? campaigns.list.rows[0].id : "";
    for (const tab of ["", "?tab=keywords", "?tab=ads", "?tab=search-terms"]) await campaignDetailPage(user, url(`/campaigns/${first}${tab}`), first);
    await recommendationsPanel(user, url("/ai-optimizer"));
    await scorePage(user);
    await campaignsForApi(userId, CID, url("/api/v1/accounts/x/campaigns"));
    await summaryForApi(userId, CID, url("/api/v1/accounts/x/summary"));
    const status = await syncViewOf(CID);
    await googleBudgetView();

    expect(emu.emulator.state.operations().total).toBe(0);
    expect(await operationsUsed(ctx.db)).toBe(ledger);
    // What they show: the data's age, nothing running.
    expect(dashboard.connected && dashboard.sync).toMatchObject({ status: "ok", lastSuccessAt: old });
    expect(status).toMatchObject({ status: "ok", lastSuccessAt: old, googlePausedUntil: null });
    expect((await getSyncState(CID)).status).toBe("ok");

    // The scheduler refreshes it (the slot has come: three hours since the last start).
    const queued: string[] = [];
    await runSyncSchedulerTick(new Date(), { enqueue: async (d) => void queued.push(d.customerId) }, ctx.db);
    expect(queued).toContain(CID);
  });
});
