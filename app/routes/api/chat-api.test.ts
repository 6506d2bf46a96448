// @vitest-environment node
// The assistant's JSON API called with real Requests and bearer tokens, on the
// small demo account synced from the Google emulator; every response is
// checked against the OpenAPI document.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { documented } from "../../../tests/support/api-doc";
import { setActiveAccount } from "~/server/ads/accounts.server";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "~/server/ads/sync.server";
import { setLanguageModelForTests } from "~/server/ai/model.server";
import { scriptedModel } from "../../../tests/support/scripted-model";
import { createSession } from "~/server/auth/session.server";
import { registerUser } from "~/server/auth/users.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { action as chatRoute, loader as chatGetRoute } from "./chat";
import { loader as chatDetailRoute } from "./chat-detail";
import { loader as chatsRoute } from "./chats";
import { routeArgs } from "../../../tests/support/route-args";

const chatAction = documented(chatRoute);
const chatGet = documented(chatGetRoute);
const chatsLoader = documented(chatsRoute);
const chatDetail = documented(chatDetailRoute);

let emu: WritableEmulator;
let t: TestContext;
let demo: string;
let stranger: string;
let campaignId: string;

const args = routeArgs;
const api = (path: string, token: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
  new Request(`http://localhost:3000/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  if (result instanceof Response) return { status: result.status, body: JSON.parse((await result.text()) || "null") };
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data };
}

const post = async (body: unknown, token = demo) => read(await chatAction(args(api("/chat", token, body))));

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  await setActiveAccount(userId, CUSTOMER);
  demo = (await createSession(userId, new Request("http://localhost/"))).accessToken;
  const other = await registerUser("stranger@example.com", "correct horse battery");
  stranger = (await createSession(other.id, new Request("http://localhost/"))).accessToken;
  campaignId = (await t.db.selectFrom("ads_campaigns").select("id").where("customer_id", "=", CUSTOMER).orderBy("id").executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  setLanguageModelForTests(undefined);
  await t.cleanup();
  await emu.close();
});
afterEach(() => setLanguageModelForTests(undefined));

describe("POST /api/v1/chat", () => {
  it("answers the whole turn with the tools it used and the change sets it proposed (never applied)", async () => {
    setLanguageModelForTests(
      scriptedModel([
        { calls: [{ name: "list_campaigns", input: { limit: 5 } }] },
        {
          calls: [
            {
              name: "propose_changes",
              input: { title: "Pause the first campaign", actions: [{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }] },
            },
          ],
        },
        { text: "I proposed pausing it; review it first." },
      ]),
    );
    const res = await post({ message: "Pause my first campaign" });
    expect(res.status).toBe(200);
    const reply = res.body.reply as { text: string; toolCalls: Array<{ name: string }>; changeSets: Array<{ id: string; status: string; url: string }> };
    expect(reply.text).toBe("I proposed pausing it; review it first.");
    expect(reply.toolCalls.map((c) => c.name)).toEqual(["list_campaigns", "propose_changes"]);
    expect(reply.changeSets).toHaveLength(1);
    expect(reply.changeSets[0]).toMatchObject({ status: "validated", url: `/changes/${reply.changeSets[0].id}` });

    // The same chat goes on with chatId; both are listed and readable, by their owner only.
    const next = await post({ message: "And the totals?", chatId: res.body.chatId });
    expect(next.body.chatId).toBe(res.body.chatId);
    const list = await read(await chatsLoader(args(api("/chats", demo))));
    expect((list.body.chats as Array<{ id: string; title: string }>)[0]).toMatchObject({ id: res.body.chatId, title: "Pause my first campaign" });
    const detail = await read(await chatDetail(args(api(`/chats/${res.body.chatId}`, demo), { chatId: String(res.body.chatId) })));
    expect((detail.body.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect((await read(await chatDetail(args(api(`/chats/${res.body.chatId}`, stranger), { chatId: String(res.body.chatId) })))).status).toBe(404);
    expect((await read(await chatsLoader(args(api("/chats", stranger))))).body.chats).toEqual([]);
    expect((await post({ message: "hi", chatId: res.body.chatId }, stranger)).status).toBe(409);
  });

  it("without a model, the built-in analyst answers with its evidence tools", async () => {
    setLanguageModelForTests(null);
    const res = await post({ message: "How are my campaigns doing?" });
    expect(res.status).toBe(200);
    const reply = res.body.reply as { text: string; toolCalls: Array<{ name: string }> };
    expect(reply.text).toMatch(/No AI model is configured/);
    expect(reply.toolCalls.map((c) => c.name)).toEqual(["get_account_overview", "list_campaigns"]);
  });

  it("refuses bad input with 400 {detail, errors}, a GET with 405, and reports a provider failure as 502 keeping the question", async () => {
    const empty = await post({ message: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({ message: "message cannot be empty" });
    expect((await post({})).body.errors).toMatchObject({ message: "message is required" });
    expect((await post({ message: 42 })).body.errors).toMatchObject({ message: "message must be text" });
    expect((await post({ message: "x", chatId: "nope" })).status).toBe(400);
    expect((await post({ message: "x", extra: 1 })).status).toBe(400);
    expect((await post("{not json")).status).toBe(400);
    expect((await read(await chatGet(args(api("/chat", demo))))).status).toBe(405);
    const { APICallError } = await import("ai");
    setLanguageModelForTests(scriptedModel([{ error: new APICallError({ message: "rate", url: "http://x", requestBodyValues: {}, statusCode: 429 }) }]));
    const answer = (await chatAction(args(api("/chat", demo, { message: "What is wasting money?" })))) as { init?: ResponseInit | null };
    const failed = await read(answer);
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toMatch(/rate limiting/);
    // The chat the question was kept in, to retry there.
    const chatId = new Headers(answer.init?.headers).get("X-Chat-Id");
    expect((await read(await chatDetail(args(api(`/chats/${chatId}`, demo), { chatId: chatId! })))).body.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: "user", text: "What is wasting money?" })]),
    );
  });
});
