// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { clearJobs, makeDue, storedJob } from "../../../tests/support/jobs";
import { syncAccount } from "../ads/sync.server";
import { captureLogs } from "../log.server";
import { enqueue, queueDepth, startJobs, stopJobs } from "../jobs/jobs.server";
import { asHolder, LeaseLostError, newLease, takeLease } from "./lease.server";
import { validateChangeSet } from "./pipeline.server";
import { proposeBudgetChange } from "./propose.server";
import "./settle-jobs.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";

// Issue 27 points 1 and 2 (and issue 9 point 4 before them): a change set left
// "applying" is settled by exactly one worker holding its lease, as a job that
// retries while Google is down; a live holder's set is never judged.
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
afterEach(async () => {
  await stopJobs(1_000);
  await clearJobs(t.db);
  down = false;
});
afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

const waitFor = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 30_000, interval: 100 });
const setRow = (id: string) =>
  t.db.selectFrom("change_sets").select(["status", "lease_holder", "lease_expires_at"]).where("id", "=", id).executeTakeFirstOrThrow();

/** A validated budget change whose applying worker claimed it and died before Google answered (nothing was sent). */
async function orphanedSet(lease: { holder: string | null; expiresAt: string | null }) {
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
  const approvedAt = new Date(Date.now() - 60_000).toISOString();
  await t.db
    .updateTable("change_sets")
    .set({ status: "applying", approved_at: approvedAt, lease_holder: lease.holder, lease_expires_at: lease.expiresAt })
    .where("id", "=", id)
    .execute();
  await t.db.updateTable("changes").set({ status: "applying" }).where("change_set_id", "=", id).execute();
  return id;
}

describe("settling change sets as jobs", () => {
  it("the sweep finds a set whose holder died; its settle job retries while Google is down, with the real error, and settles once Google answers", async () => {
    const id = await orphanedSet({ holder: "apply:dead", expiresAt: new Date(Date.now() - 1_000).toISOString() });
    down = true;
    const logged = captureLogs();
    try {
      await startJobs({ pollMs: 100 });
      await enqueue("settle-sweep", {});
      // Attempt 1 fails with Google's own words, and the set stays "applying", its lease let go.
      await waitFor(() =>
        expect(logged.records.some((r) => r.level === "warn" && /^Job settle-change-set .* failed \(attempt 1 of 11\): .*unavailable/i.test(r.msg))).toBe(true),
      );
      expect(await setRow(id)).toEqual({ status: "applying", lease_holder: null, lease_expires_at: null });
      await makeDue(t.db, "settle-change-set");
      await waitFor(() => expect(logged.records.some((r) => /failed \(attempt 2 of 11\)/.test(r.msg))).toBe(true));

      down = false;
      await makeDue(t.db, "settle-change-set");
      await waitFor(async () => expect((await setRow(id)).status).not.toBe("applying"));
      // Nothing was sent, so Google's live value still differs from "after": settled as failed, never re-sent.
      expect(await setRow(id)).toEqual({ status: "failed", lease_holder: null, lease_expires_at: null });
      const change = await t.db.selectFrom("changes").select(["status", "error_code"]).where("change_set_id", "=", id).executeTakeFirstOrThrow();
      expect(change).toEqual({ status: "failed", error_code: "NOT_APPLIED" });
    } finally {
      logged.restore();
    }
  }, 120_000);

  it("never judges a set whose holder is alive: the settle job comes back when the lease would end", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const id = await orphanedSet({ holder: "apply:alive", expiresAt });
    const mutatesBefore = emu.mutates();
    await startJobs({ pollMs: 100 });
    // The sweep leaves a live holder alone; a settle job queued for it (the apply's own) waits.
    await enqueue("settle-sweep", {});
    const job = (await enqueue("settle-change-set", { changeSetId: id }))!;
    await waitFor(async () => expect((await storedJob(t.db, job))?.state).toBe("completed"));
    expect((await storedJob(t.db, job))?.output).toMatchObject({
      retryLater: `change set ${id} is still held or settling (until ${new Date(Date.parse(expiresAt) + 1_000).toISOString()})`,
    });
    expect(await setRow(id)).toEqual({ status: "applying", lease_holder: "apply:alive", lease_expires_at: expiresAt });
    expect((await queueDepth()).get("settle-change-set")).toEqual({ queued: 1, active: 0 });

    // The holder dies: its lease runs out, and the job queued for that moment settles the set.
    await t.db
      .updateTable("change_sets")
      .set({ lease_expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where("id", "=", id)
      .execute();
    await makeDue(t.db, "settle-change-set");
    await waitFor(async () => expect((await setRow(id)).status).toBe("failed"));
    expect(emu.mutates()).toBe(mutatesBefore);
  }, 60_000);

  it("writes an outcome only while holding the lease: a taken-over holder's write is refused and changes nothing", async () => {
    const id = await orphanedSet({ holder: null, expiresAt: null });
    const first = newLease(id, "apply");
    expect(await takeLease(t.db, first)).toBe(true);
    // A second worker cannot take a live lease…
    const second = newLease(id, "settle");
    expect(await takeLease(t.db, second)).toBe(false);
    // …until it runs out.
    expect(await takeLease(t.db, second, Date.now() + 31_000)).toBe(true);
    const write = asHolder(t.db, first, async (trx) => {
      await trx.updateTable("changes").set({ status: "applied" }).where("change_set_id", "=", id).execute();
    });
    await expect(write).rejects.toBeInstanceOf(LeaseLostError);
    const change = await t.db.selectFrom("changes").select("status").where("change_set_id", "=", id).executeTakeFirstOrThrow();
    expect(change.status).toBe("applying");
    expect((await setRow(id)).lease_holder).toBe(second.holder);
  });
});
