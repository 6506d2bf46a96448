// @vitest-environment node
// The change-set API's routes called with real Requests and bearer tokens,
// against the Google emulator's write side (validateOnly, mutate) and a real sync.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "~/server/ads/sync.server";
import { createSession } from "~/server/auth/session.server";
import type { ChangeSetView } from "~/server/changes/review.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { documented } from "../../../tests/support/api-doc";
import { action as proposeRoute, loader as proposeLoader } from "./account-change-sets";
import { loader as changeSetRoute } from "./change-set";
import { action as applyRoute, loader as applyLoader } from "./change-set-apply";
import { action as discardRoute } from "./change-set-discard";
import { action as revertRoute } from "./change-set-revert";
import { action as validateRoute } from "./change-set-validate";
import { routeArgs } from "../../../tests/support/route-args";

// Every response these tests read is checked against the OpenAPI document.
const proposeAction = documented(proposeRoute);
const changeSetLoader = documented(changeSetRoute);
const applyAction = documented(applyRoute);
const discardAction = documented(discardRoute);
const revertAction = documented(revertRoute);
const validateAction = documented(validateRoute);

let emu: WritableEmulator;
let t: TestContext;
let demo: string;
let stranger: string;
let campaignId: string;
let budgetRn: string;
let budgetMicros: number;

const args = routeArgs;

function api(path: string, token: string | null = demo, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  return new Request(`http://localhost:3000/api/v1${path}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), body, headers });
}

/** A route's result as a client sees it. */
async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, body: text ? JSON.parse(text) : null, headers: result.headers };
  }
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
}

const changeSetOf = (res: { body: Record<string, unknown> }) => res.body.changeSet as ChangeSetView;
/** Micros → the units the actions take, to the cent; and back. */
const units = (micros: number) => Math.round(micros / 10_000) / 100;
const micros = (amount: number) => Math.round(amount * 100) * 10_000;
const countSets = async () => (await t.db.selectFrom("change_sets").select("id").execute()).length;
const liveBudget = async () => Number((emu.store.get(budgetRn) as Record<string, unknown> | undefined)?.amountMicros);

/** The first ad group of a Target CPA campaign (it has no target of its own), with its campaign's target. */
const targetCpaAdGroup = () =>
  t.db
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
    .select(["g.id", "g.name", "g.target_cpa_micros as own", "c.target_cpa_micros"])
    .where("g.customer_id", "=", CUSTOMER)
    .where("c.bidding_strategy_type", "=", "TARGET_CPA")
    .orderBy("g.id")
    .executeTakeFirstOrThrow();

async function propose(actions: unknown[], extra: Record<string, unknown> = {}, token = demo, customerId = CUSTOMER) {
  return read(await proposeAction(args(api(`/accounts/${customerId}/change-sets`, token, { body: { actions, ...extra } }), { customerId })));
}

async function post(what: "validate" | "apply" | "discard" | "revert", id: string, body?: unknown, token = demo) {
  const handler = { validate: validateAction, apply: applyAction, discard: discardAction, revert: revertAction }[what];
  return read(await handler(args(api(`/change-sets/${id}/${what}`, token, { method: "POST", body }), { changeSetId: id })));
}

async function get(id: string, token = demo) {
  return read(await changeSetLoader(args(api(`/change-sets/${id}`, token), { changeSetId: id })));
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  demo = (await createSession(userId, new Request("http://localhost:3000/login"))).accessToken;
  const strangerId = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
  stranger = (await createSession(strangerId, new Request("http://localhost:3000/login"))).accessToken;
  const c = await t.db
    .selectFrom("ads_campaigns")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("budget_resource_name", "is not", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  campaignId = c.id;
  budgetRn = c.budget_resource_name!;
  budgetMicros = c.budget_amount_micros!;
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("POST /accounts/{customerId}/change-sets", () => {
  it("proposes and validates: 201 with before/after of every change, nothing applied", async () => {
    const amount = units(budgetMicros * 1.1);
    const res = await propose([{ type: "budget", campaignId, amount }], { title: "A little more budget" });
    expect(res.status).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.body.validationProblem).toBeNull();
    const cs = changeSetOf(res);
    expect(cs).toMatchObject({
      customerId: CUSTOMER,
      title: "A little more budget",
      status: "validated",
      atomic: true,
      needsConfirmation: false,
      canApply: true,
    });
    expect(cs.changes).toHaveLength(1);
    expect(cs.changes[0]).toMatchObject({
      resourceKind: "campaign_budget",
      operation: "update",
      status: "valid",
      before: { amountMicros: budgetMicros },
      after: { amountMicros: micros(amount) },
      largeMove: false,
    });
    expect(cs.changes[0].fields).toEqual([expect.objectContaining({ field: "Daily budget", before: expect.any(String), after: expect.any(String) })]);
    expect(cs.changes[0].fields[0].percent).toBeCloseTo(10, 0);
    expect(await liveBudget()).toBe(budgetMicros);
  });

  it("measures a move from the value in force when the item has none: a target set from nothing, a new keyword's bid", async () => {
    const g = await targetCpaAdGroup();
    expect(g.own).toBeNull();
    const campaignTarget = units(Number(g.target_cpa_micros));
    const near = changeSetOf(await propose([{ type: "target_cpa", adGroupId: g.id, targetCpa: Math.round(campaignTarget * 110) / 100 }]));
    expect([near.needsConfirmation, near.changes[0].largeMove]).toEqual([false, false]);
    const far = changeSetOf(await propose([{ type: "target_cpa", adGroupId: g.id, targetCpa: Math.round(campaignTarget * 300) / 100 }]));
    expect([far.needsConfirmation, far.changes[0].largeMove]).toEqual([true, true]);
    expect(far.changes[0].fields[0].percent).toBeCloseTo(200, 0);

    const bidGroup = await t.db
      .selectFrom("ads_ad_groups")
      .select(["id", "cpc_bid_micros"])
      .where("customer_id", "=", CUSTOMER)
      .where("cpc_bid_micros", "is not", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const tenfold = units(Number(bidGroup.cpc_bid_micros) * 10);
    const keyword = changeSetOf(
      await propose([{ type: "add_keywords", adGroupId: bidGroup.id, keywords: [{ text: "inherited bid probe", matchType: "EXACT", cpc: tenfold }] }]),
    );
    expect([keyword.needsConfirmation, keyword.changes[0].largeMove]).toEqual([true, true]);
    for (const cs of [near, far, keyword]) expect((await post("discard", cs.id)).status).toBe(200);
  });

  it("takes a target_cpa action: an ad group's own target CPA, before → after, and a clear message for a bad one", async () => {
    const g = await targetCpaAdGroup();
    const bad = await propose([{ type: "target_cpa", adGroupId: g.id, targetCpa: 1.234 }]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ "actions.0.targetCpa": "Target CPA can have at most 2 decimals" });
    const res = await propose([{ type: "target_cpa", adGroupId: g.id, targetCpa: 14.5 }]);
    expect(res.status).toBe(201);
    const cs = changeSetOf(res);
    expect(cs.changes[0]).toMatchObject({
      resourceKind: "ad_group",
      label: `Target CPA of ad group “${g.name}”`,
      before: { targetCpaMicros: null },
      after: { targetCpaMicros: 14_500_000 },
      // Measured from the campaign's target in force (€12.00), not from "nothing".
      fields: [{ field: "Target CPA", before: "Campaign's target (in force: €12.00)", after: "€14.50", percent: expect.closeTo(20.8, 1) }],
      largeMove: false,
    });
    expect((await post("discard", cs.id)).status).toBe(200);
  });

  it("400 with each field's path for a bad body, 415 for one that is not JSON", async () => {
    const zero = await propose([{ type: "budget", campaignId, amount: 0 }]);
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toMatchObject({ "actions.0.amount": "Daily budget must be greater than 0" });
    expect(zero.headers.get("Cache-Control")).toBe("no-store");

    const several = await propose([{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }, { type: "nope" }], { title: "" });
    expect(several.status).toBe(400);
    expect(Object.keys(several.body.errors as object)).toEqual(expect.arrayContaining(["actions.1.type", "title"]));

    expect((await propose([])).body.errors).toMatchObject({ actions: "Nothing to change" });
    // Missing, or not a list: said in words, not as zod's "expected array".
    expect((await propose(undefined as never)).body.errors).toMatchObject({ actions: "Nothing to change" });
    expect((await propose("pause everything" as never)).body.errors).toMatchObject({ actions: "Must be a list" });

    const form = await proposeAction(
      args(api(`/accounts/${CUSTOMER}/change-sets`, demo, { body: "actions=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), {
        customerId: CUSTOMER,
      }),
    );
    expect((await read(form)).status).toBe(415);
    const broken = await proposeAction(args(api(`/accounts/${CUSTOMER}/change-sets`, demo, { body: "{not json" }), { customerId: CUSTOMER }));
    expect(await read(broken)).toMatchObject({ status: 400, body: { detail: "Request body is not valid JSON" } });
  });

  it("404 for another user's account, an unknown one or an unknown id; 401 without a token; nothing stored", async () => {
    const stored = await countSets();
    const budget = [{ type: "budget", campaignId, amount: 10 }];
    for (const res of [await propose(budget, {}, stranger), await propose(budget, {}, demo, "9999999999"), await propose(budget, {}, demo, "not-an-id")]) {
      expect(res.status).toBe(404);
      expect(typeof res.body.detail).toBe("string");
    }
    expect((await propose(budget, {}, "x".repeat(43))).status).toBe(401);
    expect(await propose([{ type: "budget", campaignId: "999", amount: 10 }])).toMatchObject({
      status: 404,
      body: { detail: "Campaign not found in this account" },
    });
    // A manager account has no campaigns of its own.
    expect((await propose(budget, {}, demo, DEMO_MANAGER_CUSTOMER_ID)).status).toBe(400);
    expect(await countSets()).toBe(stored);
  });
});

describe("GET /change-sets/{changeSetId}", () => {
  it("answers the caller's set; an unknown, malformed or another user's id is the same 404", async () => {
    const created = changeSetOf(await propose([{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }]));
    const res = await get(created.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(changeSetOf(res)).toEqual(created);
    for (const r of [await get(randomUUID()), await get("not-a-uuid"), await get(created.id, stranger)]) {
      expect(r).toMatchObject({ status: 404, body: { detail: "Change set not found" } });
    }
    for (const what of ["validate", "apply", "discard", "revert"] as const) {
      expect(await post(what, randomUUID())).toMatchObject({ status: 404, body: { detail: "Change set not found" } });
      expect((await post(what, created.id, undefined, stranger)).status).toBe(404);
    }
    expect((await post("discard", created.id)).status).toBe(200);
  });
});

describe("apply, confirm, revert, discard", () => {
  let small: ChangeSetView;
  let large: ChangeSetView;
  let smallAmount: number;

  it("applies a validated set with no body: 200 with the outcome in its status", async () => {
    smallAmount = units(budgetMicros * 1.2);
    small = changeSetOf(await propose([{ type: "budget", campaignId, amount: smallAmount }]));
    const res = await read(await applyAction(args(api(`/change-sets/${small.id}/apply`, demo, { method: "POST" }), { changeSetId: small.id })));
    expect(res.status).toBe(200);
    expect(changeSetOf(res)).toMatchObject({ id: small.id, status: "applied", canApply: false, canRevert: true, counts: { total: 1, applied: 1 } });
    expect(await liveBudget()).toBe(micros(smallAmount));
    // Applied is final: no second apply, no discard, no validate.
    expect(await post("apply", small.id, {})).toMatchObject({ status: 409, body: { detail: "This change set is already applied" } });
    expect((await post("discard", small.id)).status).toBe(409);
    expect((await post("validate", small.id)).status).toBe(409);
  });

  it("a large budget move needs confirmLargeMoves: 409 without, 200 with", async () => {
    const now = await liveBudget();
    large = changeSetOf(await propose([{ type: "budget", campaignId, amount: units(now * 3) }]));
    expect(large).toMatchObject({ status: "validated", needsConfirmation: true });
    expect(large.changes[0].largeMove).toBe(true);

    const refused = await post("apply", large.id, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toHaveProperty("confirmLargeMoves");
    expect(await liveBudget()).toBe(now);
    expect((await post("apply", large.id, { confirmLargeMoves: "yes" })).status).toBe(400);

    const applied = await post("apply", large.id, { confirmLargeMoves: true });
    expect(applied.status).toBe(200);
    expect(changeSetOf(applied).status).toBe("applied");
    expect(await liveBudget()).toBe(now * 3);
  });

  it("revert proposes a NEW validated set with the inverse changes (201), once", async () => {
    const res = await post("revert", large.id);
    expect(res.status).toBe(201);
    expect(res.body.validationProblem).toBeNull();
    const revert = changeSetOf(res);
    expect(revert.id).not.toBe(large.id);
    expect(revert).toMatchObject({ status: "validated", revertOf: large.id });
    expect(revert.changes).toHaveLength(1);
    expect(revert.changes[0].before).toEqual(large.changes[0].after);
    expect(revert.changes[0].after).toEqual(large.changes[0].before);
    expect(await liveBudget()).toBe(micros(smallAmount) * 3);

    // Proposing the revert changed nothing at Google; applying it does.
    expect(changeSetOf(await post("apply", revert.id, { confirmLargeMoves: true })).status).toBe("applied");
    expect(await liveBudget()).toBe(micros(smallAmount));
    expect(changeSetOf(await get(large.id))).toMatchObject({ revertedBy: revert.id, canRevert: false });
    expect(await post("revert", large.id)).toMatchObject({ status: 409, body: { detail: "This change set was already reverted" } });
  });

  it("409 for reverting what was never applied", async () => {
    const open = changeSetOf(await propose([{ type: "budget", campaignId, amount: 12 }]));
    expect(await post("revert", open.id)).toMatchObject({ status: 409, body: { detail: "Nothing in this change set can be reverted" } });
  });

  it("discard keeps the set but it can never be applied", async () => {
    const before = await liveBudget();
    const open = changeSetOf(await propose([{ type: "budget", campaignId, amount: 11 }]));
    const res = await post("discard", open.id);
    expect(res.status).toBe(200);
    expect(changeSetOf(res)).toMatchObject({ id: open.id, status: "discarded", canApply: false, canDiscard: false });
    expect(await post("apply", open.id)).toMatchObject({ status: 409, body: { detail: "This change set is already discarded" } });
    expect((await post("discard", open.id)).status).toBe(409);
    expect(await liveBudget()).toBe(before);
  });

  it("validate checks a set again and answers its verdict", async () => {
    const open = changeSetOf(await propose([{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }]));
    const res = await post("validate", open.id);
    expect(res.status).toBe(200);
    expect(res.body.validationProblem).toBeNull();
    expect(changeSetOf(res)).toMatchObject({ id: open.id, status: "validated" });
    expect(changeSetOf(res).validatedAt! >= open.validatedAt!).toBe(true);
  });
});

describe("methods", () => {
  it("GET on a POST-only path is a 405 {detail}; so is any other method", async () => {
    for (const loader of [proposeLoader, applyLoader]) {
      const res = await read(loader());
      expect(res).toMatchObject({ status: 405, body: { detail: "Method not allowed" } });
      expect(res.headers.get("Allow")).toBe("POST");
    }
    const put = await read(await applyAction(args(api(`/change-sets/${randomUUID()}/apply`, demo, { method: "PUT" }), { changeSetId: randomUUID() })));
    expect(put).toMatchObject({ status: 405, body: { detail: "Method not allowed" } });
    expect(put.headers.get("Allow")).toBe("POST");
  });
});
