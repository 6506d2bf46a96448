// @vitest-environment node
// Issue 34 point 2: the JSON API accepts personal access tokens next to
// session tokens, each endpoint with the scope it names; applying,
// discarding and reverting stay with a person's session. Real Requests
// against the Google emulator's write side; every response is checked
// against the OpenAPI document, whose per-endpoint scopes are held to the
// routes' own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { documented } from "../../../tests/support/api-doc";
import { routeArgs } from "../../../tests/support/route-args";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import routes from "../../routes";
import { syncAccount } from "~/server/ads/sync.server";
import { createAccessToken, revokeAccessToken } from "~/server/auth/access-tokens.server";
import { createSession } from "~/server/auth/session.server";
import { openApiDocument, tokenScopeOf } from "~/server/api-docs/document.server";
import type { Endpoint, HttpMethod } from "~/server/api-docs/registry.server";
import { TOKEN_SCOPE } from "~/server/http/api-route.server";
import { setConfigForTests } from "~/server/env.server";
import { loader as accountsRoute } from "./accounts";
import { action as proposeRoute } from "./account-change-sets";
import { action as applyRoute } from "./change-set-apply";
import { action as discardRoute } from "./change-set-discard";
import { action as revertRoute } from "./change-set-revert";
import { action as validateRoute } from "./change-set-validate";
import { action as chatRoute } from "./chat";
import { action as logoutRoute } from "./auth-logout";

const accounts = documented(accountsRoute);
const propose = documented(proposeRoute);
const apply = documented(applyRoute);
const discard = documented(discardRoute);
const revert = documented(revertRoute);
const validate = documented(validateRoute);
const chat = documented(chatRoute);
const logout = documented(logoutRoute);

let emu: WritableEmulator;
let t: TestContext;
let userId: string;
let session: string;
let reader: string;
let proposer: string;
let campaignId: string;

const request = (path: string, token: string, body?: unknown) =>
  new Request(`http://localhost:3000/api/v1${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  if (result instanceof Response) return { status: result.status, body: JSON.parse((await result.text()) || "null"), headers: result.headers };
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
}
const token = async (name: string, scopes: Array<"read" | "propose">) => (await createAccessToken(userId, { name, scopes, expiresInDays: "30" })).token;
const pause = () => ({ actions: [{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }] });
const proposeWith = async (bearer: string) =>
  read(await propose(routeArgs(request(`/accounts/${CUSTOMER}/change-sets`, bearer, pause()), { customerId: CUSTOMER })));

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  session = (await createSession(userId, new Request("http://localhost:3000/login"))).accessToken;
  reader = await token("Reader", ["read"]);
  proposer = await token("Proposer", ["read", "propose"]);
  campaignId = (await t.db.selectFrom("ads_campaigns").select("id").where("customer_id", "=", CUSTOMER).orderBy("id").executeTakeFirstOrThrow()).id;
}, 90_000);
afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("personal access tokens on the JSON API", () => {
  it("read with `read`, propose with `propose`, each refused with 403 naming the scope it lacks", async () => {
    expect((await read(await accounts(routeArgs(request("/accounts", reader))))).status).toBe(200);
    const proposeOnly = await token("Propose only", ["propose"]);
    expect(await read(await accounts(routeArgs(request("/accounts", proposeOnly))))).toMatchObject({
      status: 403,
      body: { detail: "The access token “Propose only” does not have the read scope; create a token with it in Settings → Access tokens" },
    });

    const refused = await proposeWith(reader);
    expect(refused).toMatchObject({ status: 403, body: { detail: expect.stringMatching(/does not have the propose scope/) } });
    const proposed = await proposeWith(proposer);
    expect(proposed.status).toBe(201);
    const id = (proposed.body.changeSet as { id: string }).id;
    expect((await read(await validate(routeArgs(request(`/change-sets/${id}/validate`, proposer, {}), { changeSetId: id })))).status).toBe(200);
  });

  it("never applies, discards or reverts, nor chats or signs out: 403, and Google gets no write", async () => {
    const id = ((await proposeWith(proposer)).body.changeSet as { id: string }).id;
    const before = emu.mutateKinds();
    for (const [route, path] of [
      [apply, `/change-sets/${id}/apply`],
      [discard, `/change-sets/${id}/discard`],
      [revert, `/change-sets/${id}/revert`],
    ] as const) {
      const res = await read(await route(routeArgs(request(path, proposer, {}), { changeSetId: id })));
      expect(res, path).toMatchObject({ status: 403, body: { detail: expect.stringMatching(/^A personal access token cannot do this/) } });
    }
    expect((await read(await chat(routeArgs(request("/chat", proposer, { message: "Pause everything" }))))).status).toBe(403);
    expect((await read(await logout(routeArgs(request("/auth/logout", proposer, {}))))).status).toBe(403);
    expect(emu.mutateKinds().writes).toBe(before.writes);
    expect((await t.db.selectFrom("change_sets").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("validated");

    // The person's session token applies it.
    const applied = await read(await apply(routeArgs(request(`/change-sets/${id}/apply`, session, {}), { changeSetId: id })));
    expect(applied.status).toBe(200);
    expect(emu.mutateKinds().writes).toBe(before.writes + 1);
  });

  it("a revoked or expired token is a 401; too many requests a 429 with Retry-After", async () => {
    const gone = await createAccessToken(userId, { name: "Gone", scopes: ["read"], expiresInDays: "7" });
    await revokeAccessToken(userId, gone.id);
    const old = await createAccessToken(userId, { name: "Old", scopes: ["read"], expiresInDays: "7" }, new Date(Date.now() - 8 * 24 * 3600 * 1000));
    for (const bearer of [gone.token, old.token]) {
      expect(await read(await accounts(routeArgs(request("/accounts", bearer))))).toMatchObject({
        status: 401,
        body: { detail: "This access token is unknown, revoked or expired: create a new one in Settings → Access tokens" },
      });
    }
    const [busy, calm] = [await token("Busy", ["read"]), await token("Calm", ["read"])];
    setConfigForTests({ ...t.config, ACCESS_TOKEN_RATE_LIMIT: 2 });
    try {
      for (let i = 0; i < 2; i++) expect((await read(await accounts(routeArgs(request("/accounts", busy))))).status).toBe(200);
      const limited = await read(await accounts(routeArgs(request("/accounts", busy))));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      // Another token has its own count.
      expect((await read(await accounts(routeArgs(request("/accounts", calm))))).status).toBe(200);
    } finally {
      setConfigForTests(t.config);
    }
  });
});

describe("the document's scopes", () => {
  type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
  const apiRoutes = (entries: RouteEntry[]): RouteEntry[] =>
    entries.flatMap((e) => [...(e.path?.startsWith("api/v1/") && e.path !== "api/v1/*" ? [e] : []), ...apiRoutes(e.children ?? [])]);

  it("state, per endpoint, exactly the scope its route lets personal access tokens in with", async () => {
    const doc = openApiDocument("http://localhost:3000");
    const { AREAS } = await import("~/server/api-docs/document.server");
    const endpoints = new Map<string, Endpoint>();
    for (const area of AREAS)
      for (const [path, methods] of Object.entries(area.paths)) for (const [m, e] of Object.entries(methods)) endpoints.set(`${m} ${path}`, e as Endpoint);
    let checked = 0;
    for (const route of apiRoutes(routes as RouteEntry[])) {
      const path = route.path!.replace(/^api\/v1/, "").replace(/:(\w+)/g, "{$1}");
      const module = (await import(/* @vite-ignore */ `../../${route.file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      for (const [exported, method] of [
        ["loader", "get"],
        ["action", "post"],
      ] as const) {
        const endpoint = endpoints.get(`${method} ${path}`);
        if (!endpoint) continue;
        const handler = module[exported] as { [TOKEN_SCOPE]?: "read" | "propose" | null } | undefined;
        const routeScope = handler && TOKEN_SCOPE in handler ? handler[TOKEN_SCOPE] : null;
        const documentedScope = endpoint.auth === false ? null : tokenScopeOf(method as HttpMethod, endpoint);
        expect(routeScope ?? null, `${method.toUpperCase()} ${path}`).toBe(documentedScope);
        const security = (doc.paths[path] as Record<string, { security: unknown }>)[method].security;
        if (documentedScope) expect(security).toEqual([{ bearerAuth: [] }, { personalAccessToken: [documentedScope] }]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
