// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { getConnection } from "../auth/google-connection.server";
import { createDb } from "../db/db.server";
import { PausedError } from "../domain-errors.server";
import { adsClientFor } from "./accounts.server";
import { GoogleAdsApiError } from "./client.server";
import { operationsUsed, quotaUsage, reserveOperations } from "./quota.server";

// Issue 26 point 3: one ledger of Google Ads operations for the install, in the database. Every
// request is recorded before it is sent; scheduled refreshes keep a reserve for people; Google's
// quota errors pause every instance until the window has room (or until Google's retryDelay).

const CID = DEMO_SMALL_CUSTOMER_ID;
const LOGIN = { loginCustomerId: DEMO_MANAGER_CUSTOMER_ID };
const BUDGET = 40;
const QUERY = "SELECT campaign.id FROM campaign";

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
// The ledger's clock: requests recorded "now" as the test moves it.
let now = new Date("2026-11-22T12:00:00Z");
const clock = () => now;
const advance = (ms: number) => (now = new Date(now.getTime() + ms));
const emulatorOperations = () => emu.emulator.state.operations().total;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: "2026-11-22" }, writable: true });
  ctx = await setupTestEnvironment({ ...emu.env, GOOGLE_ADS_DAILY_OPERATIONS: String(BUDGET), GOOGLE_ADS_RESERVE_PERCENT: "25" });
  userId = await connectDemoUser(emu.baseUrl);
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

beforeEach(async () => {
  await ctx.db.deleteFrom("google_ads_operations").execute();
  await ctx.db.deleteFrom("google_ads_pause").execute();
  emu.emulator.state.resetOperations();
  emu.emulator.state.setDailyOperations(undefined);
  emu.emulator.state.clearFaults();
  advance(3 * 86_400_000);
});

const client = async (purpose: "background" | "interactive") => adsClientFor((await getConnection(userId))!, { purpose, clock });

describe("the ledger", () => {
  it("records every request with the operations Google counts, retries included, as the emulator counts them", async () => {
    const google = await client("interactive");
    await google.searchStream(CID, QUERY, LOGIN);
    await google.search(CID, QUERY, LOGIN);
    // A transient failure retried once: two requests, two operations.
    emu.emulator.state.setFaults([{ match: "searchStream", kind: "transient", times: 1 }]);
    await google.searchStream(CID, QUERY, LOGIN);
    const [campaign] = (await google.searchStream(CID, QUERY, LOGIN)) as Array<{ campaign: { id: string } }>;
    const rename = (name: string) => ({ update: { resourceName: `customers/${CID}/campaigns/${campaign.campaign.id}`, name }, updateMask: "name" });
    await google.mutate(CID, "campaigns:mutate", { operations: [rename("a"), rename("b"), rename("c")] }, LOGIN);
    expect(await operationsUsed(ctx.db, now)).toBe(emulatorOperations());
    expect(emulatorOperations()).toBe(1 + 1 + 2 + 1 + 3);
    // The rolling window: a day later they are out of it.
    expect(await operationsUsed(ctx.db, new Date(now.getTime() + 86_400_001))).toBe(0);
  });

  it("keeps a reserve: scheduled refreshes stop at the budget less the reserve, people's requests go on to the budget", async () => {
    const background = await client("background");
    // 25 % of 40 is kept: scheduled refreshes may use 30.
    for (let i = 0; i < 30; i++) await background.searchStream(CID, QUERY, LOGIN);
    const sent = emulatorOperations();
    const refused = await background.searchStream(CID, QUERY, LOGIN).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PausedError);
    expect((refused as PausedError).message).toMatch(/budget of this install is used up for scheduled refreshes.*30 of 40 operations/);
    // It said when: once the first request leaves the window.
    expect(Date.parse((refused as PausedError).resumesAt)).toBeGreaterThanOrEqual(now.getTime());
    expect(emulatorOperations()).toBe(sent);
    const person = await client("interactive");
    for (let i = 0; i < 10; i++) await person.searchStream(CID, QUERY, LOGIN);
    await expect(person.searchStream(CID, QUERY, LOGIN)).rejects.toBeInstanceOf(PausedError);
    expect(emulatorOperations()).toBe(sent + 10);
    expect(await quotaUsage(ctx.db, now)).toMatchObject({ used: 40, budget: 40, backgroundBudget: 30 });
  });

  it("is shared by every instance: two processes' connections reserving at once never pass the budget", async () => {
    const other = createDb({ databaseUrl: ctx.config.DATABASE_URL, dataDir: ctx.config.DATA_DIR }).db;
    try {
      const attempts = Array.from({ length: 60 }, (_, i) =>
        reserveOperations({ method: "searchStream", operations: 1, purpose: "interactive" }, i % 2 ? other : ctx.db, now).then(
          () => "ok",
          (e: unknown) => (e instanceof PausedError ? "paused" : Promise.reject(e)),
        ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(BUDGET);
      expect(await operationsUsed(ctx.db, now)).toBe(BUDGET);
    } finally {
      await other.destroy();
    }
  });
});

describe("Google's quota errors", () => {
  it("RESOURCE_EXHAUSTED with a retryDelay (the daily cap as Google answers it): every call parks until then, none is sent, then calls resume", async () => {
    emu.emulator.state.setDailyOperations(3);
    const google = await client("interactive");
    for (let i = 0; i < 3; i++) await google.searchStream(CID, QUERY, LOGIN);
    const capped = await google.searchStream(CID, QUERY, LOGIN).catch((e: unknown) => e);
    expect(capped).toBeInstanceOf(GoogleAdsApiError);
    const usage = await quotaUsage(ctx.db, now);
    expect(usage.pausedUntil).not.toBeNull();
    // The emulator's retryDelay: a day after its first counted operation (its clock is its own).
    expect(Date.parse(usage.pausedUntil!) - now.getTime()).toBeGreaterThan(20 * 3_600_000);
    const sent = emulatorOperations();
    const scheduled = await client("background");
    for (const c of [google, scheduled]) await expect(c.searchStream(CID, QUERY, LOGIN)).rejects.toBeInstanceOf(PausedError);
    expect(emulatorOperations()).toBe(sent);
    // After the pause, calls go out again (the emulator's own day has passed too).
    emu.store.advanceClock(25 * 3_600_000);
    now = new Date(Date.parse(usage.pausedUntil!) + 1_000);
    await google.searchStream(CID, QUERY, LOGIN);
    expect(emulatorOperations()).toBe(sent + 1);
  });

  it("RESOURCE_EXHAUSTED without a retryDelay: parks until the ledger has room again", async () => {
    const google = await client("interactive");
    for (let i = 0; i < 10; i++) {
      await google.searchStream(CID, QUERY, LOGIN);
      advance(3_600_000);
    }
    emu.emulator.state.setFaults([{ match: "ads", kind: "dailyQuota", times: 1 }]);
    await expect(google.searchStream(CID, QUERY, LOGIN)).rejects.toBeInstanceOf(GoogleAdsApiError);
    const { pausedUntil } = await quotaUsage(ctx.db, now);
    // Until the oldest tenth of the window's 11 operations (the refused one counts) has left it: the second, made 9 h ago.
    expect(pausedUntil).toBe(new Date(now.getTime() - 9 * 3_600_000 + 86_400_000).toISOString());
    const sent = emulatorOperations();
    await expect(google.searchStream(CID, QUERY, LOGIN)).rejects.toThrow(/resume at/);
    expect(emulatorOperations()).toBe(sent);
    now = new Date(Date.parse(pausedUntil!) + 1);
    await google.searchStream(CID, QUERY, LOGIN);
    expect(emulatorOperations()).toBe(sent + 1);
  });

  it("RESOURCE_TEMPORARILY_EXHAUSTED: retried with jittered backoff; if it persists, scheduled refreshes hold back a while and run one at a time, people's calls go on", async () => {
    const google = adsClientFor((await getConnection(userId))!, { purpose: "interactive", clock });
    emu.emulator.state.setFaults([{ match: "searchStream", kind: "quota", retryDelaySeconds: 0, times: 1 }]);
    // Retried by the client: the second attempt succeeds.
    await google.searchStream(CID, QUERY, LOGIN);
    expect(emulatorOperations()).toBe(2);
    emu.emulator.state.setFaults([{ match: "searchStream", kind: "quota", retryDelaySeconds: 0 }]);
    await expect(google.searchStream(CID, QUERY, LOGIN)).rejects.toBeInstanceOf(GoogleAdsApiError);
    emu.emulator.state.clearFaults();
    const usage = await quotaUsage(ctx.db, now);
    expect(usage.pausedUntil).toBeNull();
    expect(usage.slowDown).toBe(true);
    const held = Date.parse(usage.backgroundHeldUntil!) - now.getTime();
    expect(held).toBeGreaterThanOrEqual(30_000);
    expect(held).toBeLessThanOrEqual(90_000);
    await expect((await client("background")).searchStream(CID, QUERY, LOGIN)).rejects.toBeInstanceOf(PausedError);
    await google.searchStream(CID, QUERY, LOGIN);
    advance(held + 1);
    await (await client("background")).searchStream(CID, QUERY, LOGIN);
  }, 60_000);
});
