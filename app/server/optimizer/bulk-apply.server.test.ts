// @vitest-environment node
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import { ENGINE_TODAY, healthyAccount, RULE_PLANTS } from "../../../emulator/fixtures/engine";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { approved, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { syncAccount } from "../ads/sync.server";
import { applyChangeSet, getChangeSet } from "../changes/pipeline.server";
import { toHttpError } from "../http/errors.server";
import { applyRecommendations, countRecommendations, listRecommendations } from "./service.server";

// Issue 29 point 5, "Apply selected": several recommendations become one
// change set and one review; applying it marks each applied. Bad input is
// refused whole and stores nothing.

const ID = "3000000201";
const NOW = new Date(`${ENGINE_TODAY}T15:00:00Z`);
let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  const account = healthyAccount(ID, "Bulk apply");
  RULE_PLANTS.wasted_keyword(account);
  RULE_PLANTS.wasted_search_term(account);
  emu = await startWritableEmulator({ store: createFixtureStore({ customers: [account] }, { today: ENGINE_TODAY }) });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  expect((await syncAccount(userId, ID, { now: () => NOW })).status).toBe("ok");
  await drainJobs(ctx.db, ["engine-run"]);
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const sets = async () => Number((await ctx.db.selectFrom("change_sets").select(ctx.db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

it("refuses bad selections whole, storing nothing", async () => {
  const open = (await listRecommendations(ctx.db, ID, { now: NOW })).recommendations;
  expect(open.map((r) => r.type).sort()).toEqual(["wasted_keyword", "wasted_search_term"]);
  const refused = async (ids: string[]) =>
    toHttpError(
      await applyRecommendations(userId, ids).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
  expect((await refused([open[0].id, "f".repeat(24)]))?.status).toBe(404);
  expect(await sets()).toBe(0);
});

it("applies the ticked recommendations as one change set and one review; each is marked applied with it", async () => {
  const open = (await listRecommendations(ctx.db, ID, { now: NOW })).recommendations;
  const { changeSet } = await applyRecommendations(
    userId,
    open.map((r) => r.id),
  );
  expect(await sets()).toBe(1);
  const set = await getChangeSet(userId, changeSet.id);
  expect(set.set.title).toMatch(/^2 recommendations: /);
  expect(set.changes.map((c) => c.resource_kind).sort()).toEqual(["keyword", "negative_keyword"]);
  // Both show the set as theirs before it is applied.
  const again = (await listRecommendations(ctx.db, ID, { now: NOW })).recommendations;
  expect(again.map((r) => r.changeSetId)).toEqual([changeSet.id, changeSet.id]);
  expect((await applyChangeSet(userId, changeSet.id, await approved(userId, changeSet.id))).set.status).toBe("applied");
  const applied = (await listRecommendations(ctx.db, ID, { status: "applied", now: NOW })).recommendations;
  expect(applied.map((r) => r.id).sort()).toEqual(open.map((r) => r.id).sort());
  expect(await countRecommendations(ctx.db, ID, NOW)).toMatchObject({ open: 0, applied: 2 });
}, 60_000);
