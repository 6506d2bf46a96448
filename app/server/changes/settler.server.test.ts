// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { validateChangeSet } from "./pipeline.server";
import { proposeBudgetChange } from "./propose.server";
import { captureLogs } from "../log.server";
import { startSettling } from "./settler.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";

// Issue 9 point 4: a set left "applying" while Google is unreachable used to
// stay so forever (settled only once, at boot, with the errors hidden).
let emu: WritableEmulator;
let t: TestContext;
let userId: string;
let down = false;

beforeAll(async () => {
  emu = await startWritableEmulator({ adsDown: () => down });
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("settling in the background", () => {
  it("retries while Google is down, logging the real error, and settles once Google answers", async () => {
    const campaign = await t.db
      .selectFrom("ads_campaigns")
      .selectAll()
      .where("customer_id", "=", CUSTOMER)
      .where("budget_resource_name", "is not", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const id = await proposeBudgetChange(userId, {
      customerId: CUSTOMER,
      campaignId: campaign.id,
      amount: Math.round(campaign.budget_amount_micros! / 10_000) / 100 + 1,
    });
    await validateChangeSet(userId, id);
    // A process that claimed the set and died before Google answered (never sent).
    const approvedAt = new Date(Date.now() - 60_000).toISOString();
    await t.db.updateTable("change_sets").set({ status: "applying", approved_at: approvedAt }).where("id", "=", id).execute();
    await t.db.updateTable("changes").set({ status: "applying" }).where("change_set_id", "=", id).execute();

    down = true;
    const logged = captureLogs();
    const warnings = () => logged.records.filter((r) => r.level === "warn").map((r) => r.msg);
    const settler = startSettling({ initialDelayMs: 50, maxDelayMs: 200, settleMs: 0 });
    try {
      // Several attempts fail, each logged with Google's own words.
      await vi.waitFor(() => expect(warnings().filter((m) => /^Settling change set /.test(m)).length).toBeGreaterThanOrEqual(2), {
        timeout: 60_000,
        interval: 100,
      });
      expect(warnings().find((m) => /Settling change set/.test(m))).toMatch(new RegExp(`${id}: .*(unavailable|Unavailable|UNAVAILABLE)`));
      expect((await t.db.selectFrom("change_sets").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("applying");

      down = false;
      await vi.waitFor(
        async () => expect((await t.db.selectFrom("change_sets").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).not.toBe("applying"),
        { timeout: 60_000, interval: 100 },
      );
      // Nothing was sent, so Google's live value still differs from "after": settled as failed, never re-sent.
      const settled = await t.db.selectFrom("change_sets").select(["status"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(settled.status).toBe("failed");
      const change = await t.db.selectFrom("changes").select(["status", "error_code"]).where("change_set_id", "=", id).executeTakeFirstOrThrow();
      expect(change).toEqual({ status: "failed", error_code: "NOT_APPLIED" });
    } finally {
      settler.stop();
      logged.restore();
      down = false;
    }
  }, 120_000);
});
