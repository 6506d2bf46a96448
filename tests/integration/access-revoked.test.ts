// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../emulator/ads";
import { loader as summaryLoader } from "~/routes/api/account-summary";
import { loader as meLoader } from "~/routes/api/auth-me";
import { ACCESS_CHECK_INTERVAL_MS, recheckAccessIfDue } from "~/server/ads/accounts.server";
import { requireOwnAccount } from "~/server/ads/context.server";
import { getConnection, getGoogleAccessToken } from "~/server/auth/google-connection.server";
import { commitSessionCookie, createSession, type CreatedSession } from "~/server/auth/session.server";
import { captureLogs, type LogRecord } from "~/server/log.server";
import { currentSession } from "~/server/request-context.server";
import { setupTestEnvironment, type TestContext } from "../setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../support/emulator-harness";
import { routeArgs } from "../support/route-args";
import { settleSyncs } from "../support/settle-syncs";

/**
 * Issue 25 point 4: someone removed from an account at Google kept reading its
 * data (kept fresh by others' syncs) through a local list refreshed only at
 * sign-in. The list is re-checked with Google after every refresh of the
 * user's token and at least daily; what Google no longer grants is dropped
 * and logged. The emulator takes the access away as Google does.
 */
const APP = "http://localhost:3000";
let emu: RunningEmulator;
let t: TestContext;
let userId: string;
let session: CreatedSession;
let logs: { records: LogRecord[]; restore: () => void };

beforeAll(async () => {
  emu = await startEmulator();
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  session = await createSession(userId, new Request(APP));
});
afterAll(async () => {
  await settleSyncs(t.db);
  await t.cleanup();
  await emu.close();
});
beforeEach(async () => {
  // Google grants the small account again, and the list knows it, checked just now.
  emu.store.linkClient(DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID);
  await t.db.updateTable("google_connections").set({ access_checked_at: null }).execute();
  await recheckAccessIfDue(userId, null);
  expect(await accounts()).toContain(DEMO_SMALL_CUSTOMER_ID);
  expect(await checkedAt()).not.toBeNull();
});

const accounts = async () => (await t.db.selectFrom("ads_accounts").select("customer_id").where("user_id", "=", userId).execute()).map((a) => a.customer_id);
const checkedAt = async () => (await getConnection(userId))!.access_checked_at;
const bearer = (path = `/api/v1/accounts/${DEMO_SMALL_CUSTOMER_ID}/summary`) =>
  new Request(`${APP}${path}`, { headers: { Authorization: `Bearer ${session.accessToken}` } });
/** An API request that asks nothing of Google itself. */
const apiRequest = () => meLoader(routeArgs(bearer("/api/v1/auth/me")));

/** Any page request of the user (the one session lookup every page makes). */
async function pageRequest() {
  const cookie = (await commitSessionCookie(session)).split(";")[0];
  const request = new Request(`${APP}/dashboard`, { headers: { Cookie: cookie } });
  return currentSession(request, routeArgs(request).context);
}

async function withLogs<T>(body: () => Promise<T>): Promise<T> {
  logs = captureLogs();
  try {
    return await body();
  } finally {
    logs.restore();
  }
}
const droppedLines = () => logs.records.filter((r) => /no longer grants/.test(r.msg));

describe("access that Google took away", () => {
  it("a refresh of the user's token makes the check due: their next request drops the account and logs it", async () => {
    await withLogs(async () => {
      emu.store.unlinkClient(DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID);
      // Nothing read from Google yet: the list still has it.
      expect(await accounts()).toContain(DEMO_SMALL_CUSTOMER_ID);
      // A sync (in its own thread) or an apply refreshes the token.
      await getGoogleAccessToken((await getConnection(userId))!, { forceRefresh: true });
      expect(await checkedAt()).toBeNull();
      await pageRequest();
      await expect.poll(accounts).not.toContain(DEMO_SMALL_CUSTOMER_ID);
      expect(await accounts()).toContain(DEMO_RICH_CUSTOMER_ID);
      expect(droppedLines()).toHaveLength(1);
      expect(droppedLines()[0]).toMatchObject({ level: "warn", userId, customerIds: [DEMO_SMALL_CUSTOMER_ID] });
    });
    // Its data is out of reach everywhere the list decides: the API, the forms' ownership check.
    const summary = (await summaryLoader(routeArgs(bearer(), { customerId: DEMO_SMALL_CUSTOMER_ID }))) as { init: ResponseInit | null };
    expect(summary.init?.status).toBe(404);
    await expect(requireOwnAccount(userId, DEMO_SMALL_CUSTOMER_ID)).rejects.toMatchObject({ name: "NotFoundError" });
  });

  it("at least daily without any token refresh: an API request a day after the last check drops it", async () => {
    await withLogs(async () => {
      emu.store.unlinkClient(DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID);
      // Checked an hour ago: not due, nothing asked of Google.
      const hourAgo = new Date(Date.now() - 3600_000).toISOString();
      await t.db.updateTable("google_connections").set({ access_checked_at: hourAgo }).execute();
      const streams = emu.calls.searchStream ?? 0;
      await apiRequest();
      await pageRequest();
      expect(emu.calls.searchStream ?? 0).toBe(streams);
      expect(await checkedAt()).toBe(hourAgo);
      // A day and a minute later: due. Two requests at once (or two instances): one check.
      await t.db
        .updateTable("google_connections")
        .set({ access_checked_at: new Date(Date.now() - ACCESS_CHECK_INTERVAL_MS - 60_000).toISOString() })
        .execute();
      await Promise.all([apiRequest(), pageRequest()]);
      await expect.poll(accounts).not.toContain(DEMO_SMALL_CUSTOMER_ID);
      await expect.poll(() => droppedLines().length).toBe(1);
    });
  });
});
