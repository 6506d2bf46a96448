// @vitest-environment node
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser, DEMO_USER_EMAIL } from "../../../tests/support/emulator-harness";
import { approved, CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { syncAccount } from "../ads/sync.server";
import * as m0160 from "../db/migrations/0160_change_set_origin";
import { InvalidError, NotFoundError } from "../domain-errors.server";
import { runOptimizer } from "../optimizer/run.server";
import { applyRecommendation, listRecommendations } from "../optimizer/service.server";
import { countDrafts, discardDrafts, listDrafts } from "./drafts.server";
import { listHistory } from "./history.server";
import { getChangeSet, proposeRevert } from "./pipeline.server";
import { proposeBulk, proposeCreateRsa } from "./propose.server";
import { applyAndRefresh, changeSetView, validateQuietly } from "./review.server";
import { proposeFromForm } from "./forms.server";
import { createSession } from "../auth/session.server";
import { documented, responseOf } from "../../../tests/support/api-doc";
import { routeArgs } from "../../../tests/support/route-args";
import { loader as rawDraftsLoader } from "~/routes/api/drafts";
import { action as rawDiscardAction, loader as discardGet } from "~/routes/api/drafts-discard";

// Every API response read here is checked against the OpenAPI document.
const draftsLoader = documented(rawDraftsLoader);
const discardAction = documented(rawDiscardAction);

// Drafts (issue 29 point 4) against the demo account through the emulator: change sets
// proposed from each place the product proposes them, listed with who or what proposed them,
// when and Google's verdict, filtered, counted, and discarded in bulk; an applied
// recommendation names who applied it.

let emu: WritableEmulator;
let t: TestContext;
let userId: string;
let otherId: string;
let campaignIds: string[];
let adGroupId: string;
const chatId = randomUUID();
const ids = {} as Record<"form" | "chat" | "recommendation" | "generator" | "api" | "refused" | "applied" | "revert", string>;

const form = (fields: Record<string, string | string[]>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) f.append(k, one);
  return f;
};

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  const campaigns = await t.db
    .selectFrom("ads_campaigns")
    .select("id")
    .where("customer_id", "=", CUSTOMER)
    .where("advertising_channel_type", "=", "SEARCH")
    .where("status", "=", "ENABLED")
    .orderBy("id")
    .execute();
  campaignIds = campaigns.map((c) => c.id);
  adGroupId = (
    await t.db
      .selectFrom("ads_ad_groups")
      .select("id")
      .where("customer_id", "=", CUSTOMER)
      .where("campaign_id", "=", campaignIds[0])
      .orderBy("id")
      .executeTakeFirstOrThrow()
  ).id;
  const now = new Date().toISOString();
  otherId = randomUUID();
  await t.db
    .insertInto("users")
    .values({ id: otherId, email: "other@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
  await t.db
    .insertInto("chats")
    .values({ id: chatId, user_id: userId, customer_id: CUSTOMER, title: "Raise the Torten budget", created_at: now, updated_at: now })
    .execute();

  // Ticked rows on the campaign list: pause two campaigns.
  const fromForm = await proposeFromForm(userId, CUSTOMER, form({ intent: "pause", kind: "campaign", id: campaignIds.slice(0, 2) }));
  if (!fromForm.ok) throw new Error("the form's proposal was refused");
  ids.form = fromForm.changeSetId;
  // The assistant, in a chat (as tools.server.ts proposes).
  ids.chat = await proposeBulk(
    userId,
    { customerId: CUSTOMER, actions: [{ type: "status", kind: "campaign", ids: [campaignIds[0]], status: "PAUSED" }] },
    { source: "assistant", sourceDetail: `chat:${chatId}`, chatId, title: "Pause the Torten campaign" },
  );
  // The ad generator's Use in campaign.
  ids.generator = await proposeCreateRsa(
    userId,
    {
      customerId: CUSTOMER,
      adGroupId,
      headlines: ["Torten aus Berlin", "Torten online bestellen", "Bäckerei Northwind"].map((text) => ({ text })),
      descriptions: ["Frische Torten für jeden Anlass, online bestellt.", "Handgemacht in unserer Backstube in Berlin."].map((text) => ({ text })),
      finalUrl: "https://www.northwind-baeckerei.example/torten",
    },
    { source: "user", origin: "ad_generator", sourceDetail: "Ad generator (templates)" },
  );
  // The API.
  ids.api = await proposeBulk(
    userId,
    { customerId: CUSTOMER, actions: [{ type: "status", kind: "ad_group", ids: [adGroupId], status: "PAUSED" }] },
    { origin: "api", title: "Pause an ad group" },
  );
  for (const id of [ids.form, ids.chat, ids.generator, ids.api]) expect(await validateQuietly(userId, id)).toBeNull();
  // One Google refuses in its dry run: the keyword was removed at Google meanwhile.
  const keyword = await t.db
    .selectFrom("ads_keywords")
    .select(["ad_group_id", "criterion_id"])
    .where("customer_id", "=", CUSTOMER)
    .where("negative", "=", 0)
    .where("status", "=", "ENABLED")
    .orderBy("criterion_id")
    .executeTakeFirstOrThrow();
  ids.refused = await proposeBulk(
    userId,
    { customerId: CUSTOMER, actions: [{ type: "status", kind: "keyword", ids: [`${keyword.ad_group_id}~${keyword.criterion_id}`], status: "PAUSED" }] },
    { origin: "api", title: "Pause a keyword" },
  );
  emu.store.update(`customers/${CUSTOMER}/adGroupCriteria/${keyword.ad_group_id}~${keyword.criterion_id}`, { status: "REMOVED" });
  await validateQuietly(userId, ids.refused);

  // A recommendation's Apply, then applied on its review page by the person.
  await runOptimizer(CUSTOMER);
  const rec = (await listRecommendations(t.db, CUSTOMER)).recommendations.find((r) => r.actions.length > 0);
  if (!rec) throw new Error("the demo account has no recommendation with actions");
  ids.recommendation = (await applyRecommendation(userId, rec.id)).changeSet.id;
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("listDrafts", () => {
  it("lists every open proposal with who or what proposed it, when, and Google's verdict", async () => {
    const { drafts, total } = await listDrafts(userId, { customerId: CUSTOMER });
    const byId = new Map(drafts.map((d) => [d.id, d]));
    expect(total).toBe(drafts.length);
    expect(byId.get(ids.form)).toMatchObject({ origin: "campaign", proposedBy: DEMO_USER_EMAIL, status: "validated", changeCount: 2 });
    expect(byId.get(ids.form)!.verdict).toBe("Google accepted all 2 changes in a dry run");
    expect(byId.get(ids.chat)).toMatchObject({ origin: "chat", proposedBy: "Assistant", chat: { id: chatId, title: "Raise the Torten budget" } });
    expect(byId.get(ids.generator)).toMatchObject({ origin: "ad_generator", proposedBy: DEMO_USER_EMAIL, verdict: "Google accepted the change in a dry run" });
    expect(byId.get(ids.api)).toMatchObject({ origin: "api" });
    expect(byId.get(ids.recommendation)).toMatchObject({ origin: "recommendation", proposedBy: "Recommendation" });
    expect(byId.get(ids.refused)).toMatchObject({ status: "invalid", refusedCount: 1, verdict: "Google refused 1 of 1 change" });
    // Newest first.
    expect(drafts.map((d) => d.createdAt)).toEqual([...drafts.map((d) => d.createdAt)].sort().reverse());
    expect(await countDrafts(userId, CUSTOMER)).toBe(total);
  });

  it("filters by where it was proposed, by Google's verdict and by words in the title", async () => {
    const only = async (filters: Record<string, string>) => (await listDrafts(userId, { customerId: CUSTOMER, ...filters })).drafts.map((d) => d.id);
    expect(await only({ origin: "chat" })).toEqual([ids.chat]);
    expect(await only({ origin: "ad_generator" })).toEqual([ids.generator]);
    expect(await only({ q: "TORTEN campaign" })).toEqual([ids.chat]);
    // LIKE's wildcards are taken literally.
    expect(await only({ q: "%" })).toEqual([]);
    expect(await only({ status: "invalid" })).toEqual([ids.refused]);
    const validated = await only({ status: "validated" });
    expect(validated).toEqual(expect.arrayContaining([ids.form, ids.chat, ids.generator]));
    for (const id of validated) expect((await getChangeSet(userId, id)).set.status).toBe("validated");
  });

  it("refuses a bad filter with the field's message, and another user's account as unknown", async () => {
    await expect(listDrafts(userId, { origin: "fax" as never })).rejects.toThrow(InvalidError);
    await expect(listDrafts(userId, { origin: "fax" as never })).rejects.toThrow(/origin must be one of chat, ad_generator/);
    await expect(listDrafts(userId, { status: "applied" as never })).rejects.toThrow(/status must be one of proposed, validated, invalid/);
    await expect(listDrafts(otherId, { customerId: CUSTOMER })).rejects.toThrow(NotFoundError);
    expect(await listDrafts(otherId)).toEqual({ drafts: [], total: 0 });
  });
});

describe("discardDrafts", () => {
  it("discards the caller's open drafts at once and says why it left the others", async () => {
    // Apply one first: an applied set is no draft and can't be discarded.
    ids.applied = ids.generator;
    const applied = await applyAndRefresh(userId, ids.applied, await approved(userId, ids.applied));
    expect(applied.set.status).toBe("applied");
    const stranger = randomUUID();
    const before = await countDrafts(userId, CUSTOMER);
    const outcome = await discardDrafts(userId, [ids.form, ids.api, ids.applied, stranger, ids.form]);
    expect(outcome.discarded.sort()).toEqual([ids.form, ids.api].sort());
    expect(outcome.notDiscarded).toEqual([
      { id: ids.applied, reason: "Already applied" },
      { id: stranger, reason: "No such draft among yours" },
    ]);
    expect((await getChangeSet(userId, ids.form)).set.status).toBe("discarded");
    expect(await countDrafts(userId, CUSTOMER)).toBe(before - 2);
    // Someone else's ids are not theirs to discard: nothing changes.
    const theirs = await discardDrafts(otherId, [ids.chat]);
    expect(theirs).toEqual({ discarded: [], notDiscarded: [{ id: ids.chat, reason: "No such draft among yours" }] });
    expect((await getChangeSet(userId, ids.chat)).set.status).toBe("validated");
  });

  it("refuses an empty or malformed list and changes nothing", async () => {
    await expect(discardDrafts(userId, [])).rejects.toThrow(/Choose at least one draft to discard/);
    await expect(discardDrafts(userId, ["nope"])).rejects.toThrow(/Each id must be a change set id/);
    expect((await getChangeSet(userId, ids.chat)).set.status).toBe("validated");
  });
});

describe("the JSON API", () => {
  const call = async (path: string, init: RequestInit = {}, who = userId) => {
    const { accessToken } = await createSession(who, new Request("http://localhost:3000/login"));
    const request = new Request(`http://localhost:3000/api/v1${path}`, { ...init, headers: { Authorization: `Bearer ${accessToken}`, ...init.headers } });
    const handler = init.method === "POST" ? discardAction : draftsLoader;
    return responseOf(await handler(routeArgs(request)));
  };

  it("GET /drafts lists the caller's drafts with the filters in the query, as documented", async () => {
    const all = await call(`/drafts?customerId=${CUSTOMER}`);
    expect(all.status).toBe(200);
    const { drafts, total } = all.body as { drafts: Array<{ id: string; origin: string }>; total: number };
    expect(total).toBe(await countDrafts(userId, CUSTOMER));
    expect(drafts.map((d) => d.id)).toContain(ids.chat);
    const chats = await call("/drafts?origin=chat&status=");
    expect((chats.body as { drafts: Array<{ id: string }> }).drafts.map((d) => d.id)).toEqual([ids.chat]);
    const bad = await call("/drafts?origin=fax");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { origin: expect.stringMatching(/origin must be one of/) } });
    expect((await call(`/drafts?customerId=${CUSTOMER}`, {}, otherId)).status).toBe(404);
  });

  it("POST /drafts/discard discards in bulk, refuses a bad body, and is POST only", async () => {
    const spare = await proposeBulk(
      userId,
      { customerId: CUSTOMER, actions: [{ type: "status", kind: "campaign", ids: [campaignIds[0]], status: "PAUSED" }] },
      { origin: "api", title: "A spare draft" },
    );
    const json = (body: unknown) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const done = await call("/drafts/discard", json({ ids: [spare] }));
    expect(done).toEqual({ status: 200, body: { discarded: [spare], notDiscarded: [] } });
    const bad = await call("/drafts/discard", json({ ids: "all" }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { ids: "ids must be a list of change set ids" } });
    expect((await responseOf(discardGet())).status).toBe(405);
  });
});

describe("who applied it", () => {
  it("an applied recommendation's change set names the person who pressed Apply, on its review and in history", async () => {
    const before = await changeSetView(await getChangeSet(userId, ids.recommendation), "EUR");
    expect(before).toMatchObject({ proposedBy: "Recommendation", origin: "recommendation", approvedBy: null });
    const detail = await applyAndRefresh(userId, ids.recommendation, await approved(userId, ids.recommendation, { confirmLargeMoves: true }));
    const after = await changeSetView(detail, "EUR");
    expect(after.approvedBy).toBe(DEMO_USER_EMAIL);
    const { items } = await listHistory(userId, { customerId: CUSTOMER, source: "rule" });
    const mine = items.filter((i) => i.changeSetId === ids.recommendation);
    expect(mine.length).toBeGreaterThan(0);
    for (const i of mine) expect(i.who).toBe(`Recommendation, applied by ${DEMO_USER_EMAIL}`);
  });

  it("a chat's proposal names its chat, never a raw id; a revert is one of the drafts", async () => {
    const view = await changeSetView(await getChangeSet(userId, ids.chat), "EUR");
    expect(view.chat).toEqual({ id: chatId, title: "Raise the Torten budget" });
    ids.revert = await proposeRevert(userId, ids.applied);
    expect((await listDrafts(userId, { origin: "revert" })).drafts.map((d) => d.id)).toEqual([ids.revert]);
    expect((await listDrafts(userId, { origin: "revert" })).drafts[0].revertOf).toBe(ids.applied);
  });
});

describe("0160_change_set_origin", () => {
  it("fills in the origin and chat of change sets proposed before it", async () => {
    await m0160.down(t.db as never);
    const now = new Date().toISOString();
    const legacy = (id: string, source: string, detail: string | null, revertOf: string | null = null) =>
      sql`INSERT INTO change_sets (id, user_id, customer_id, source, source_detail, title, status, atomic, needs_confirmation, revert_of, created_at)
          VALUES (${id}, ${userId}, ${CUSTOMER}, ${source}, ${detail}, ${"Legacy"}, ${"proposed"}, 1, 0, ${revertOf}, ${now})`.execute(t.db);
    const [a, b, c, d, e] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await legacy(a, "assistant", `chat:${chatId}`);
    await legacy(b, "rule", "Recommendation: Pause a keyword");
    await legacy(c, "user", "Ad generator (model)");
    await legacy(d, "user", null);
    await legacy(e, "user", null, randomUUID());
    await m0160.up(t.db as never);
    const rows = await t.db.selectFrom("change_sets").select(["id", "origin", "chat_id"]).where("id", "in", [a, b, c, d, e]).execute();
    const by = new Map(rows.map((r) => [r.id, r]));
    expect(by.get(a)).toMatchObject({ origin: "chat", chat_id: chatId });
    expect(by.get(b)).toMatchObject({ origin: "recommendation", chat_id: null });
    expect(by.get(c)).toMatchObject({ origin: "ad_generator" });
    expect(by.get(d)).toMatchObject({ origin: "campaign" });
    expect(by.get(e)).toMatchObject({ origin: "revert" });
    // The sets of this file kept theirs.
    expect((await getChangeSet(userId, ids.chat)).set).toMatchObject({ origin: "chat", chat_id: chatId });
  });
});
