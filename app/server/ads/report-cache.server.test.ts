// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { applyToReadModel } from "../changes/read-model.server";
import type { DB } from "../db/db.server";
import type { Change } from "../db/schema";
import { cachedRead } from "./report-cache.server";
import { listCampaigns } from "./reports.server";
import { getSyncState } from "./sync.server";

describe("cachedRead", () => {
  const handle = {} as DB;
  const scope = (dataVersion: number) => ({ customerId: "123", dataVersion });

  it("reads once per account, data version, report and arguments", async () => {
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    expect(await cachedRead(scope(1), "summary", [{ from: "a", to: "b" }], read, handle)).toBe(1);
    expect(await cachedRead(scope(1), "summary", [{ from: "a", to: "b" }], read, handle)).toBe(1);
    expect(await cachedRead(scope(2), "summary", [{ from: "a", to: "b" }], read, handle)).toBe(2);
    expect(await cachedRead(scope(2), "summary", [{ from: "a", to: "c" }], read, handle)).toBe(3);
    expect(await cachedRead(scope(2), "series", [{ from: "a", to: "c" }], read, handle)).toBe(4);
    expect(await cachedRead({ customerId: "456", dataVersion: 2 }, "series", [{ from: "a", to: "c" }], read, handle)).toBe(5);
    expect(await cachedRead(scope(2), "summary", [{ from: "a", to: "b" }], read, {} as DB)).toBe(6);
  });

  it("shares one read between concurrent callers", async () => {
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = async () => {
      reads++;
      await gate;
      return "rows";
    };
    const both = Promise.all([cachedRead(scope(9), "campaigns", [1], read, handle), cachedRead(scope(9), "campaigns", [1], read, handle)]);
    release();
    expect(await both).toEqual(["rows", "rows"]);
    expect(reads).toBe(1);
  });

  it("a failure removes only its own entry, not a newer read stored under the same key after an eviction", async () => {
    let rejectFirst!: (error: Error) => void;
    const first = cachedRead(scope(4), "campaigns", ["k"], () => new Promise<string>((_resolve, reject) => (rejectFirst = reject)), handle);
    // 500 other reads push the first one out of the cache while it is still running.
    for (let i = 0; i < 500; i++) await cachedRead(scope(4), "campaigns", [i], () => Promise.resolve(i), handle);
    let reads = 0;
    const read = () => Promise.resolve(`rows ${++reads}`);
    expect(await cachedRead(scope(4), "campaigns", ["k"], read, handle)).toBe("rows 1");
    rejectFirst(new Error("database is locked"));
    await expect(first).rejects.toThrow("locked");
    expect(await cachedRead(scope(4), "campaigns", ["k"], read, handle)).toBe("rows 1");
    expect(reads).toBe(1);
  });

  it("keeps no failure: the next caller reads again", async () => {
    let reads = 0;
    const read = () => (++reads === 1 ? Promise.reject(new Error("database is locked")) : Promise.resolve("rows"));
    await expect(cachedRead(scope(3), "campaigns", [], read, handle)).rejects.toThrow("locked");
    expect(await cachedRead(scope(3), "campaigns", [], read, handle)).toBe("rows");
    expect(reads).toBe(2);
  });
});

describe("the data version (0095)", () => {
  const CID = "1112223334";
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await setupTestEnvironment();
    const now = new Date().toISOString();
    await ctx.db
      .insertInto("ads_sync_state")
      .values({ customer_id: CID, status: "ok", progress_done: 12, progress_total: 12, last_success_at: now, updated_at: now })
      .execute();
    await ctx.db
      .insertInto("ads_campaigns")
      .values({
        customer_id: CID,
        id: "17",
        name: "Tents",
        status: "ENABLED",
        advertising_channel_type: "SEARCH",
        bidding_strategy_type: "MANUAL_CPC",
        budget_resource_name: `customers/${CID}/campaignBudgets/5`,
        budget_amount_micros: 50_000_000,
      })
      .execute();
  });
  afterAll(() => ctx.cleanup());

  const applied = (over: Partial<Change>): Change => ({
    id: "c1",
    change_set_id: "s1",
    seq: 1,
    resource_kind: "campaign",
    operation: "update",
    resource_name: `customers/${CID}/campaigns/17`,
    label: "Pause Tents",
    before_json: JSON.stringify({ status: "ENABLED" }),
    after_json: JSON.stringify({ status: "PAUSED" }),
    operation_json: "{}",
    status: "applied",
    error_code: null,
    error_message: null,
    field_path: null,
    result_resource_name: null,
    request_id: null,
    applied_at: new Date().toISOString(),
    ...over,
  });

  it("is raised once an apply's writes to the synced tables are done, so the campaigns page reads them anew", async () => {
    const range = { from: "2026-10-01", to: "2026-10-30" };
    const read = async () => {
      const { dataVersion } = await getSyncState(CID, ctx.db);
      return cachedRead({ customerId: CID, dataVersion }, "campaigns", [range], () => listCampaigns(CID, range), ctx.db);
    };
    const before = await getSyncState(CID, ctx.db);
    expect((await read()).rows.map((r) => r.status)).toEqual(["ENABLED"]);

    await applyToReadModel(ctx.db, CID, [applied({})]);
    expect((await getSyncState(CID, ctx.db)).dataVersion).toBe(before.dataVersion + 1);
    expect((await read()).rows.map((r) => r.status)).toEqual(["PAUSED"]);

    await applyToReadModel(ctx.db, CID, [
      applied({
        resource_kind: "campaign_budget",
        resource_name: `customers/${CID}/campaignBudgets/5`,
        after_json: JSON.stringify({ amountMicros: 80_000_000 }),
      }),
    ]);
    expect((await read()).rows.map((r) => r.budgetMicros)).toEqual([80_000_000]);
  });
});
