// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { approved, CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { syncAccount } from "../ads/sync.server";
import { toHttpError } from "../http/errors.server";
import { diffFields } from "~/lib/change-fields";
import { listHistory } from "./history.server";
import { applyChangeSet, getChangeSet, proposeRevert, validateChangeSet } from "./pipeline.server";
import { proposeBulk, proposeTargetCpaChange } from "./propose.server";

// The `target_cpa` action (an ad group's own target CPA) end to end against the
// Google emulator over HTTP: propose → validateOnly → apply → read model →
// history → revert, which restores the old value or clears an override that
// did not exist before (Google's masked-but-absent field).

let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
let adGroupId: string;
let adGroupName: string;
let manualAdGroupId: string;
const rn = () => `customers/${CUSTOMER}/adGroups/${adGroupId}`;
const live = () => emu.store.get(rn()) as Record<string, unknown> | undefined;
const local = async () =>
  (
    await ctx.db
      .selectFrom("ads_ad_groups")
      .select("target_cpa_micros")
      .where("customer_id", "=", CUSTOMER)
      .where("id", "=", adGroupId)
      .executeTakeFirstOrThrow()
  ).target_cpa_micros;

async function fieldErrors(p: Promise<unknown>) {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  const http = toHttpError(e);
  expect(http?.status).toBe(400);
  return http!.fieldErrors ?? {};
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  const group = (bidding: string) =>
    ctx.db
      .selectFrom("ads_ad_groups as g")
      .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
      .select(["g.id", "g.name", "g.target_cpa_micros"])
      .where("g.customer_id", "=", CUSTOMER)
      .where("c.bidding_strategy_type", "=", bidding)
      .where("g.status", "=", "ENABLED")
      .orderBy("g.id")
      .executeTakeFirstOrThrow();
  const g = await group("TARGET_CPA");
  expect(g.target_cpa_micros).toBeNull();
  adGroupId = g.id;
  adGroupName = g.name;
  manualAdGroupId = (await group("MANUAL_CPC")).id;
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("target_cpa: an ad group's own target CPA", () => {
  it("refuses bad input with one clear message, and targets Google would ignore, storing nothing", async () => {
    const count = async () => Number((await ctx.db.selectFrom("change_sets").select(ctx.db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    expect((await fieldErrors(proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId, targetCpa: -3 })))?.targetCpa).toBe(
      "Target CPA must be greater than 0",
    );
    expect((await fieldErrors(proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId, targetCpa: 12.345 })))?.targetCpa).toBe(
      "Target CPA can have at most 2 decimals",
    );
    expect(
      (await fieldErrors(proposeBulk(userId, { customerId: CUSTOMER, actions: [{ type: "target_cpa", adGroupId, targetCpa: "12" as unknown as number }] })))?.[
        "actions.0.targetCpa"
      ],
    ).toBe("Target CPA must be a number");
    expect((await fieldErrors(proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId, targetCpa: null })))?.targetCpa).toBe(
      "This ad group has no target CPA of its own to clear",
    );
    expect((await fieldErrors(proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId: manualAdGroupId, targetCpa: 10 })))?.targetCpa).toMatch(
      /does not bid to a target CPA/,
    );
    expect(await count()).toBe(0);
  });

  it("sets, changes and reverts: the revert restores the old value, then clears the override that was not there", async () => {
    const first = await proposeBulk(userId, { customerId: CUSTOMER, actions: [{ type: "target_cpa", adGroupId, targetCpa: 12.5 }] });
    const draft = await getChangeSet(userId, first);
    expect(draft.changes[0]).toMatchObject({
      resource_kind: "ad_group",
      operation: "update",
      resource_name: rn(),
      label: `Target CPA of ad group “${adGroupName}”`,
    });
    expect(JSON.parse(draft.changes[0].operation_json)).toEqual({ update: { resourceName: rn(), targetCpaMicros: "12500000" }, updateMask: "targetCpaMicros" });
    // validateOnly at Google changes nothing.
    expect((await validateChangeSet(userId, first)).set.status).toBe("validated");
    expect(live()?.targetCpaMicros).toBeUndefined();
    expect((await applyChangeSet(userId, first, await approved(userId, first))).set.status).toBe("applied");
    expect(Number(live()?.targetCpaMicros)).toBe(12_500_000);
    expect(await local()).toBe(12_500_000);

    const second = await proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId, targetCpa: 15 });
    expect((await applyChangeSet(userId, second, await approved(userId, second))).set.status).toBe("applied");
    expect(Number(live()?.targetCpaMicros)).toBe(15_000_000);

    // History reads before → after in the account's money.
    const item = (await listHistory(userId, { customerId: CUSTOMER, resourceKind: "ad_group" })).items.find((i) => i.changeSetId === second);
    expect(item).toMatchObject({ revertable: true, before: { targetCpaMicros: 12_500_000 }, after: { targetCpaMicros: 15_000_000 } });
    expect(diffFields(item!.before, item!.after, "EUR")).toEqual([{ field: "Target CPA", before: "€12.50", after: "€15.00", percent: 20 }]);

    const undoSecond = await proposeRevert(userId, second);
    expect((await applyChangeSet(userId, undoSecond, await approved(userId, undoSecond))).set.status).toBe("applied");
    expect(Number(live()?.targetCpaMicros)).toBe(12_500_000);

    const undoFirst = await proposeRevert(userId, first);
    const undo = await getChangeSet(userId, undoFirst);
    expect(JSON.parse(undo.changes[0].operation_json)).toEqual({ update: { resourceName: rn() }, updateMask: "targetCpaMicros" });
    expect((await applyChangeSet(userId, undoFirst, await approved(userId, undoFirst))).set.status).toBe("applied");
    expect(live()?.targetCpaMicros).toBeUndefined();
    expect(await local()).toBeNull();
  });

  it("re-reads the live value before applying: an outside change in between is caught", async () => {
    const id = await proposeTargetCpaChange(userId, { customerId: CUSTOMER, adGroupId, targetCpa: 11 });
    // Someone sets a target in Google Ads after the proposal.
    emu.store.update(rn(), { targetCpaMicros: 9_000_000 });
    await validateChangeSet(userId, id);
    const set = await getChangeSet(userId, id);
    expect(JSON.parse(set.changes[0].before_json!)).toEqual({ targetCpaMicros: 9_000_000 });
    // Changed again after that review: nothing is sent, the person is told.
    emu.store.update(rn(), { targetCpaMicros: 8_000_000 });
    const refused = toHttpError(
      await applyChangeSet(userId, id, await approved(userId, id)).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(refused?.status).toBe(409);
    expect(Number(live()?.targetCpaMicros)).toBe(8_000_000);
    await validateChangeSet(userId, id);
    expect((await applyChangeSet(userId, id, await approved(userId, id))).set.status).toBe("applied");
    expect(Number(live()?.targetCpaMicros)).toBe(11_000_000);
  });
});
