// @vitest-environment node
// Issue 9: duplicate and stale reverts (point 5), direction controls in text
// (point 9), through the JSON API against the emulator's write side, on the
// database the run selects (SQLite, or PostgreSQL with TEST_DB_DIALECT=postgres).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "~/server/ads/sync.server";
import { createSession } from "~/server/auth/session.server";
import type { ChangeSetView } from "~/server/changes/review.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { action as proposeAction } from "./account-change-sets";
import { loader as changeSetLoader } from "./change-set";
import { action as applyAction } from "./change-set-apply";
import { action as discardAction } from "./change-set-discard";
import { action as revertAction } from "./change-set-revert";
import { action as validateAction } from "./change-set-validate";
import { routeArgs } from "../../../tests/support/route-args";

let emu: WritableEmulator;
let t: TestContext;
let token: string;
let campaignId: string;
let budgetRn: string;

const args = routeArgs;

function api(path: string, body?: unknown) {
  return new Request(`http://localhost:3000/api/v1${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  if (result instanceof Response) return { status: result.status, body: JSON.parse((await result.text()) || "null") };
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data };
}

const changeSetOf = (res: { body: Record<string, unknown> }) => res.body.changeSet as ChangeSetView;
const units = (micros: number) => Math.round(micros / 10_000) / 100;
const liveBudget = () => Number((emu.store.get(budgetRn) as Record<string, unknown> | undefined)?.amountMicros);

const propose = async (actions: unknown[], extra: Record<string, unknown> = {}) =>
  read(await proposeAction(args(api(`/accounts/${CUSTOMER}/change-sets`, { actions, ...extra }), { customerId: CUSTOMER })));
async function post(what: "validate" | "apply" | "discard" | "revert", id: string, body?: unknown) {
  const handler = { validate: validateAction, apply: applyAction, discard: discardAction, revert: revertAction }[what];
  return read(await handler(args(api(`/change-sets/${id}/${what}`, body), { changeSetId: id })));
}
const get = async (id: string) =>
  read(
    await changeSetLoader(
      args(new Request(`http://localhost:3000/api/v1/change-sets/${id}`, { headers: { Authorization: `Bearer ${token}` } }), { changeSetId: id }),
    ),
  );
/** Proposes a budget change of +pct% from the live value and applies it. */
async function applyBudget(pct: number) {
  const set = changeSetOf(await propose([{ type: "budget", campaignId, amount: units(liveBudget() * (1 + pct / 100)) }]));
  expect(changeSetOf(await post("apply", set.id)).status).toBe("applied");
  return set;
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  token = (await createSession(userId, new Request("http://localhost:3000/login"))).accessToken;
  const c = await t.db
    .selectFrom("ads_campaigns")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("budget_resource_name", "is not", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  campaignId = c.id;
  budgetRn = c.budget_resource_name!;
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("reverts (issue 9 point 5)", () => {
  it("five concurrent reverts of one set make exactly one revert set", async () => {
    const original = await applyBudget(10);
    const results = await Promise.all(Array.from({ length: 5 }, () => post("revert", original.id)));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/^A revert of this change set is already open/) } });
    }
    const reverts = await t.db.selectFrom("change_sets").select(["id", "status"]).where("revert_of", "=", original.id).execute();
    expect(reverts).toHaveLength(1);
    // Once discarded, the set can be reverted again.
    await post("discard", reverts[0].id);
    expect((await post("revert", original.id)).status).toBe(201);
  });

  it("a revert reviewed before a later change is refused with a conflict, nothing sent; validating again shows the live value", async () => {
    const first = await applyBudget(10);
    const afterFirst = liveBudget();
    const revert = changeSetOf(await post("revert", first.id));
    expect(revert.status).toBe("validated");
    expect(revert.changes[0].before).toEqual({ amountMicros: afterFirst });

    await applyBudget(10); // someone changes the same budget after the revert was reviewed
    const afterSecond = liveBudget();
    const mutatesBefore = emu.mutates();

    const refused = await post("apply", revert.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/changed at Google since this was reviewed\. Nothing was sent; validate again/);
    expect(emu.mutates()).toBe(mutatesBefore); // not even a validateOnly call
    expect(liveBudget()).toBe(afterSecond);
    expect(changeSetOf(await get(revert.id))).toMatchObject({ status: "proposed", canApply: false, canValidate: true });

    // The person sees the current value before deciding again.
    const again = changeSetOf(await post("validate", revert.id));
    expect(again.changes[0].before).toEqual({ amountMicros: afterSecond });
    expect(changeSetOf(await post("apply", revert.id)).status).toBe("applied");
  });

  it("any set validated before an outside change is refused the same way", async () => {
    const set = changeSetOf(await propose([{ type: "budget", campaignId, amount: units(liveBudget() * 1.05) }]));
    // An outside change at Google (another tool, the Google Ads web UI).
    await applyBudget(5);
    const refused = await post("apply", set.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/changed at Google since this was reviewed/);
  });
});

describe("direction controls in text (issue 9 point 9)", () => {
  it("refuses them in a change set's title and in keyword text, storing nothing", async () => {
    const count = async () => (await t.db.selectFrom("change_sets").select("id").execute()).length;
    const before = await count();
    const adGroup = await t.db.selectFrom("ads_ad_groups").select("id").where("customer_id", "=", CUSTOMER).orderBy("id").executeTakeFirstOrThrow();

    const title = await propose([{ type: "budget", campaignId, amount: units(liveBudget() * 1.01) }], { title: "Budget \u202eevil" });
    expect(title.status).toBe(400);
    expect(title.body.errors).toMatchObject({ title: "Title cannot contain invisible text-direction characters" });

    const keyword = await propose([{ type: "add_keywords", adGroupId: adGroup.id, keywords: [{ text: "shoes\u2066 free", matchType: "EXACT" }] }]);
    expect(keyword.status).toBe(400);
    expect(keyword.body.errors).toMatchObject({ "actions.0.keywords.0.text": "Keywords cannot contain invisible text-direction characters" });
    expect(await count()).toBe(before);
  });
});
