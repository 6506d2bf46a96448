// @vitest-environment node
// The one door to Google, against the emulator: whose account it is, which
// client acts for it, and what a stranger or a manager account get instead.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { NotFoundError } from "../domain-errors.server";
import { requireAdsContext, requireOwnAccount } from "./context.server";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";

let emu: RunningEmulator;
let t: TestContext;
let userId: string;
let strangerId: string;

beforeAll(async () => {
  emu = await startEmulator();
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  strangerId = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("requireAdsContext", () => {
  it("gives the owner the account and a client that reaches Google as them", async () => {
    const ctx = await requireAdsContext(userId, DEMO_RICH_CUSTOMER_ID);
    expect(ctx.account).toMatchObject({ customer_id: DEMO_RICH_CUSTOMER_ID, user_id: userId, manager: 0 });
    expect(ctx.loginCustomerId).toBe(ctx.account.login_customer_id ?? undefined);
    const rows = (await ctx.client.searchStream(DEMO_RICH_CUSTOMER_ID, "SELECT customer.id FROM customer", { loginCustomerId: ctx.loginCustomerId })) as Array<{
      customer: { id: string };
    }>;
    expect(rows.map((r) => String(r.customer.id))).toEqual([DEMO_RICH_CUSTOMER_ID]);
  });

  it("answers another user's account, a made-up id and a manager account alike: not found", async () => {
    for (const [who, id] of [
      [strangerId, DEMO_RICH_CUSTOMER_ID],
      [userId, "9999999999"],
      [userId, "not-an-id"],
      [userId, DEMO_MANAGER_CUSTOMER_ID],
    ]) {
      const error = await requireAdsContext(who, id).catch((e: unknown) => e);
      expect(error, `${who} ${id}`).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).fieldErrors).toEqual({ customerId: "No such Google Ads account" });
    }
  });

  it("lets listing read a manager account, and says why a sync cannot", async () => {
    expect((await requireOwnAccount(userId, DEMO_MANAGER_CUSTOMER_ID, { allowManager: true })).manager).toBe(1);
    await expect(requireOwnAccount(userId, DEMO_MANAGER_CUSTOMER_ID)).rejects.toThrow(/manager account has no campaigns/);
  });
});
