// @vitest-environment node
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import { ENGINE_TODAY, SAFETY_EDGES } from "../../../emulator/fixtures/engine";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { approved, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { syncAccount } from "../ads/sync.server";
import { applyChangeSet, getChangeSet, proposeRevert } from "../changes/pipeline.server";
import { runOptimizer } from "./run.server";
import { applyRecommendation, listRecommendations } from "./service.server";
import type { Recommendation } from "./types.server";

// Issue 28 point 3, end to end against the Google emulator over HTTP: a keyword
// on its ad group's default bid, at twice the ad group's cost per conversion in
// an ad group at target, gets a bid of its own (−20 %) as a `bid` change on the
// keyword; Apply → review → Google; the rest period holds the next move; the
// revert clears the keyword's bid again (it follows the default once more).

const ID = "3000000101";
const NOW = new Date(`${ENGINE_TODAY}T15:00:00Z`);
let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
let keywordId: string;
const rn = () => `customers/${ID}/adGroupCriteria/${keywordId}`;
const live = () => emu.store.get(rn()) as Record<string, unknown> | undefined;
const bids = async () => (await listRecommendations(ctx.db, ID, { now: NOW })).recommendations.filter((r) => r.type === "bid_adjustment");

beforeAll(async () => {
  emu = await startWritableEmulator({ store: createFixtureStore({ customers: [SAFETY_EDGES.keywordOnDefaultBid(ID)] }, { today: ENGINE_TODAY }) });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  expect((await syncAccount(userId, ID, { now: () => NOW })).status).toBe("ok");
  await drainJobs(ctx.db, ["engine-run"]);
  const row = await ctx.db
    .selectFrom("ads_keywords")
    .select(["ad_group_id", "criterion_id", "cpc_bid_micros"])
    .where("customer_id", "=", ID)
    .where("text", "=", "leather work boots")
    .executeTakeFirstOrThrow();
  expect(row.cpc_bid_micros).toBeNull();
  keywordId = `${row.ad_group_id}~${row.criterion_id}`;
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

it("proposes a keyword-level bid −20 % below the default, with the ad group's CPA as evidence; applies, rests, reverts", async () => {
  const list = await bids();
  expect(list.map((r) => r.resources[0].id)).toEqual([keywordId]);
  const r: Recommendation = list[0];
  expect(r.actions).toEqual([{ type: "bid", kind: "keyword", items: [{ id: keywordId, cpc: 0.8 }] }]);
  expect(r.title).toMatch(/^Give “leather work boots” \(phrase\) in Work Boots a bid of its own, \$0\.80 \(the ad group's default is \$1\.00\)/);
  const figure = (name: string) => r.evidence.figures.find((f) => f.name === name)?.value;
  expect(figure("bid")).toBe(1);
  expect(Number(figure("adGroupCpa"))).toBeGreaterThan(20);
  expect(Number(figure("cost")) / Number(figure("conversions"))).toBeGreaterThanOrEqual(2 * Number(figure("adGroupCpa")));
  expect(r.evidence.notes.join(" ")).toContain("has no bid of its own");

  // Apply: one change set, reviewed, then sent to Google.
  const { changeSet } = await applyRecommendation(userId, r.id);
  const set = await getChangeSet(userId, changeSet.id);
  expect(set.changes).toHaveLength(1);
  expect(set.changes[0]).toMatchObject({ resource_kind: "keyword", operation: "update", resource_name: rn() });
  expect(JSON.parse(set.changes[0].before_json!)).toEqual({ cpcBidMicros: null });
  expect(live()?.cpcBidMicros).toBeUndefined();
  expect((await applyChangeSet(userId, changeSet.id, await approved(userId, changeSet.id))).set.status).toBe("applied");
  expect(Number(live()?.cpcBidMicros)).toBe(800_000);

  // Still costly at its new bid, but within the rest period: no second move.
  await runOptimizer(ID, { now: NOW });
  expect((await bids()).filter((x) => x.status === "open")).toEqual([]);

  // The revert clears the keyword's own bid (Google's masked-but-absent field): it follows the default again.
  const undo = await proposeRevert(userId, changeSet.id);
  const undoSet = await getChangeSet(userId, undo);
  expect(JSON.parse(undoSet.changes[0].operation_json)).toEqual({ update: { resourceName: rn() }, updateMask: "cpcBidMicros" });
  expect((await applyChangeSet(userId, undo, await approved(userId, undo))).set.status).toBe("applied");
  expect(live()?.cpcBidMicros).toBeUndefined();
}, 60_000);
