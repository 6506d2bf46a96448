// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { getScore } from "./service.server";

// getScore keeps the parsed score per engine run: a new run's score must show at once.
describe("getScore", () => {
  const CID = "1112223334";
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await setupTestEnvironment();
  });
  afterAll(() => ctx.cleanup());

  const store = async (ranAt: string, value: number) => {
    await ctx.db.deleteFrom("optimizer_runs").where("customer_id", "=", CID).execute();
    await ctx.db
      .insertInto("optimizer_runs")
      .values({ customer_id: CID, ran_at: ranAt, synced_at: ranAt, duration_ms: 400, score_json: JSON.stringify({ value, breakdown: [] }) })
      .execute();
  };

  it("answers no score before any run, then each run's own score", async () => {
    expect(await getScore(ctx.db, CID)).toEqual({ value: null, breakdown: [], ranAt: null });
    await store("2026-11-25T10:00:00.000Z", 71);
    expect(await getScore(ctx.db, CID)).toEqual({ value: 71, breakdown: [], ranAt: "2026-11-25T10:00:00.000Z" });
    expect(await getScore(ctx.db, CID)).toEqual({ value: 71, breakdown: [], ranAt: "2026-11-25T10:00:00.000Z" });
    await store("2026-11-25T10:05:00.000Z", 64);
    expect(await getScore(ctx.db, CID)).toEqual({ value: 64, breakdown: [], ranAt: "2026-11-25T10:05:00.000Z" });
    await ctx.db.deleteFrom("optimizer_runs").execute();
    expect((await getScore(ctx.db, CID)).value).toBeNull();
  });
});
