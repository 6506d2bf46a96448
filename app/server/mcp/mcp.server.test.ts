// @vitest-environment node
// Issue 34: the MCP server at /mcp, driven by the MCP SDK's own client over
// HTTP (Streamable HTTP) against the route module, on the small demo account
// synced from the Google emulator's write side, on the database the run
// selects (SQLite, or PostgreSQL with TEST_DB_DIALECT=postgres).
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { serveFetch, type FetchServer } from "../../../tests/support/fetch-server";
import { routeArgs } from "../../../tests/support/route-args";
import { approved, CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { DEMO_RICH_CUSTOMER_ID } from "../../../emulator/ads";
import { action as mcpAction, loader as mcpLoader } from "~/routes/mcp";
import { requireAccountOf } from "../account-access.server";
import { NO_SUCH_ACCOUNT } from "../ads/context.server";
import { syncAccount } from "../ads/sync.server";
import { buildTools, TOOL_CONTRACT, TOOL_NAMES, type ToolName } from "../ai/tools.server";
import { createAccessToken, revokeAccessToken } from "../auth/access-tokens.server";
import { createSession } from "../auth/session.server";
import { registerUser } from "../auth/users.server";
import { applyChangeSet } from "../changes/pipeline.server";
import { setConfigForTests } from "../env.server";

let emu: WritableEmulator;
let t: TestContext;
let server: FetchServer;
let userId: string;
let campaignId: string;
let agent: string;
let reader: string;
let stranger: string;
const clients: Client[] = [];

const CONTRACT_AND_ACCOUNTS = [...TOOL_NAMES, "list_accounts"].sort();

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const jsonOf = (result: CallToolResult) => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as Record<string, unknown>;
};
const changeSetCount = async () =>
  Number(
    (
      await t.db
        .selectFrom("change_sets")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const newToken = async (name: string, scopes: Array<"read" | "propose">, owner = userId, now?: Date) =>
  (await createAccessToken(owner, { name, scopes, expiresInDays: "30" }, now)).token;

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment({ ...emu.env, ACCESS_TOKEN_RATE_LIMIT: "10000" });
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  campaignId = (await t.db.selectFrom("ads_campaigns").select("id").where("customer_id", "=", CUSTOMER).orderBy("id").executeTakeFirstOrThrow()).id;
  agent = await newToken("Claude Desktop", ["read", "propose"]);
  reader = await newToken("Read-only script", ["read"]);
  stranger = await newToken("Stranger's agent", ["read", "propose"], (await registerUser("stranger@example.com", "correct horse battery")).id);
  server = await serveFetch((request) => (request.method === "POST" ? mcpAction : mcpLoader)(routeArgs(request)));
}, 90_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server?.close();
  await t?.cleanup();
  await emu?.close();
});

describe("the tool listing", () => {
  it("is the assistant's contract plus list_accounts, each contract tool with its own description and schema plus customerId", async () => {
    const { tools } = await (await connect(agent)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(CONTRACT_AND_ACCOUNTS);
    expect(tools.filter((tool) => /apply|approve|revert|discard|mutate|delete/.test(tool.name))).toEqual([]);
    for (const name of TOOL_NAMES) {
      const listed = tools.find((tool) => tool.name === name)!;
      const contract = TOOL_CONTRACT[name];
      expect(listed.description).toBe(contract.description);
      expect(Object.keys(listed.inputSchema.properties ?? {}).sort()).toEqual([...Object.keys(contract.inputSchema.shape), "customerId"].sort());
      expect(listed.inputSchema.required).toContain("customerId");
      expect(listed.inputSchema).toHaveProperty("additionalProperties", false);
      expect(listed.annotations?.readOnlyHint).toBe(contract.access === "read");
    }
    // The assistant's model is offered the same tools, from the same definitions.
    const account = await requireAccountOf(userId, CUSTOMER);
    expect(Object.keys(buildTools({ userId, account, chatId: "c" })).sort()).toEqual([...TOOL_NAMES].sort());
  });
});

describe("each tool on the demo account", () => {
  const inputs: Record<Exclude<ToolName, "propose_changes">, Record<string, unknown>> = {
    get_account_overview: {},
    list_campaigns: { limit: 5 },
    get_campaign: {},
    get_keywords: { limit: 5 },
    get_search_terms: { nonConvertingOnly: true, limit: 5 },
    get_recommendations: { limit: 5 },
    get_change_history: {},
    get_change_impact: {},
  };

  it("list_accounts names the token owner's accounts with their customerId", async () => {
    const out = jsonOf(await call(await connect(reader), "list_accounts", {}));
    const accounts = out.accounts as Array<Record<string, unknown>>;
    expect(accounts).toContainEqual(expect.objectContaining({ customerId: CUSTOMER, manager: false, currencyCode: expect.any(String) }));
    expect(accounts.find((a) => a.customerId === CUSTOMER)!.lastSyncAt).toEqual(expect.any(String));
  });

  it("answers every read tool with the very JSON the assistant's model gets, evidence included", async () => {
    const client = await connect(reader);
    const account = await requireAccountOf(userId, CUSTOMER);
    const assistant = buildTools({ userId, account, chatId: "c" });
    for (const [name, input] of Object.entries(inputs) as Array<[keyof typeof inputs, Record<string, unknown>]>) {
      const args = name === "get_campaign" ? { ...input, campaignId } : input;
      const viaMcp = jsonOf(await call(client, name, { customerId: CUSTOMER, ...args }));
      const direct = await assistant[name].execute!(TOOL_CONTRACT[name].inputSchema.parse(args), { toolCallId: "x", messages: [] });
      expect(viaMcp, name).toEqual(JSON.parse(JSON.stringify(direct)));
      // The evidence a person sees under the assistant's answers: what was read, over which days, in which columns.
      expect(viaMcp, name).toMatchObject({ summary: expect.stringMatching(/^Read /), columns: expect.any(Array), rows: expect.any(Array) });
    }
  });

  it("propose_changes stores a proposal Google dry-ran and returns its id, verdict and review address; a person's Apply then works", async () => {
    const before = emu.mutateKinds();
    const out = jsonOf(
      await call(await connect(agent), "propose_changes", {
        customerId: CUSTOMER,
        title: "Pause the first campaign",
        actions: [{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }],
      }),
    );
    const id = out.changeSetId as string;
    expect(out).toMatchObject({ status: "validated", validationProblem: null, url: `http://localhost:3000/changes/${id}` });
    expect(out.note).toMatch(/Nothing changes in Google Ads until a person reviews it and presses Apply/);
    expect(emu.mutateKinds()).toEqual({ dryRuns: before.dryRuns + 1, writes: before.writes });
    const set = await t.db.selectFrom("change_sets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(set).toMatchObject({
      user_id: userId,
      customer_id: CUSTOMER,
      status: "validated",
      source: "assistant",
      origin: "mcp",
      source_detail: "access token “Claude Desktop”",
    });

    // The person applies it (their own request mints the approval); only now does Google get a write.
    const applied = await applyChangeSet(userId, id, await approved(userId, id));
    expect(applied.set.status).toBe("applied");
    expect(emu.mutateKinds().writes).toBe(before.writes + 1);
  });
});

describe("who may call", () => {
  it("refuses another person's account exactly like an unknown one", async () => {
    const client = await connect(stranger);
    const theirs = await call(client, "list_campaigns", { customerId: CUSTOMER });
    const unknown = await call(client, "list_campaigns", { customerId: "9999999999" });
    expect(theirs).toEqual({ content: [{ type: "text", text: NO_SUCH_ACCOUNT }], isError: true });
    expect(unknown).toEqual(theirs);
    expect(jsonOf(await call(client, "list_accounts", {}))).toMatchObject({ accounts: [] });
  });

  it("a read token cannot propose: refused, nothing stored, nothing sent to Google", async () => {
    const [sets, mutates] = [await changeSetCount(), emu.mutates()];
    const result = await call(await connect(reader), "propose_changes", {
      customerId: CUSTOMER,
      title: "Pause it",
      actions: [{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Refused: the access token “Read-only script” does not have the propose scope/);
    expect([await changeSetCount(), emu.mutates()]).toEqual([sets, mutates]);
  });

  it("a propose-only token cannot read", async () => {
    const result = await call(await connect(await newToken("Proposer", ["propose"])), "get_keywords", { customerId: CUSTOMER });
    expect(textOf(result)).toMatch(/does not have the read scope/);
  });

  it("refuses a revoked or expired token, a session's token and no token, with 401", async () => {
    const revoked = await newToken("Revoked", ["read"]);
    const client = await connect(revoked);
    const id = (await t.db.selectFrom("access_tokens").select("id").where("name", "=", "Revoked").executeTakeFirstOrThrow()).id;
    expect(await revokeAccessToken(userId, id)).toEqual({ name: "Revoked" });
    await expect(client.listTools()).rejects.toThrow(/401|unknown, revoked or expired/);

    const expired = await newToken("Expired", ["read"], userId, new Date(Date.now() - 31 * 24 * 3600 * 1000));
    await expect(connect(expired)).rejects.toThrow(/unknown, revoked or expired/);
    const session = (await createSession(userId, new Request("http://localhost:3000/login"))).accessToken;
    await expect(connect(session)).rejects.toThrow(/Send a personal access token/);
    await expect(connect(null)).rejects.toThrow(/Send a personal access token/);

    const raw = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("WWW-Authenticate")).toBe('Bearer realm="mcp"');
  });

  it("counts each token's requests in the database and answers 429 with Retry-After over ACCESS_TOKEN_RATE_LIMIT", async () => {
    const token = await newToken("Busy agent", ["read"]);
    setConfigForTests({ ...t.config, ACCESS_TOKEN_RATE_LIMIT: 3 });
    try {
      const client = await connect(token); // initialize + initialized: two requests
      await client.listTools(); // the third
      await expect(client.listTools()).rejects.toThrow(/429|Too many requests with the access token “Busy agent”/);
      const id = (await t.db.selectFrom("access_tokens").select("id").where("name", "=", "Busy agent").executeTakeFirstOrThrow()).id;
      expect(await t.db.selectFrom("rate_limits").select("points").where("key", "=", `access-token:${id}`).executeTakeFirst()).toEqual({ points: 4 });
    } finally {
      setConfigForTests(t.config);
    }
  });
});

describe("a hostile client", () => {
  it("gets errors for invented tools, another account's ids and oversized arguments, and Google sees only dry runs", async () => {
    const client = await connect(agent);
    const [sets, before] = [await changeSetCount(), emu.mutateKinds()];
    const someSet = (await t.db.selectFrom("change_sets").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()).id;

    for (const name of ["apply_change_set", "approve_change_set", "revert_change_set", "discard_change_set"]) {
      const result = await call(client, name, { changeSetId: someSet, customerId: CUSTOMER });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`Tool ${name} not found`));
    }
    // An approval smuggled into the arguments is an unknown key, refused before anything runs.
    const smuggled = await call(client, "propose_changes", {
      customerId: CUSTOMER,
      title: "Pause",
      actions: [{ type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" }],
      approval: { userId, changeSetId: someSet, via: "api" },
    });
    expect(textOf(smuggled)).toMatch(/Input validation error/);

    // Ids from another account (the rich demo account the same Google user reaches) are not found in this one.
    const ours = new Set((await t.db.selectFrom("ads_campaigns").select("id").where("customer_id", "=", CUSTOMER).execute()).map((c) => c.id));
    const foreign = emu.store
      .account(DEMO_RICH_CUSTOMER_ID)!
      .campaigns.map((c) => String(c.data.id))
      .find((id) => !ours.has(id))!;
    const crossed = await call(client, "propose_changes", {
      customerId: CUSTOMER,
      title: "Pause a campaign",
      actions: [{ type: "status", kind: "campaign", ids: [foreign], status: "PAUSED" }],
    });
    expect(crossed.isError).toBe(true);
    expect(textOf(crossed)).toMatch(/^Not proposed: Campaign not found in this account/);
    expect(textOf(await call(client, "get_campaign", { customerId: CUSTOMER, campaignId: foreign }))).toMatch(/is not in this account/);

    // Oversized: a long title, too many actions, a flood of elements, and a body over MAX_BODY_BYTES.
    const action = { type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" };
    const long = await call(client, "propose_changes", { customerId: CUSTOMER, title: "x".repeat(10_000), actions: [action] });
    expect(textOf(long)).toMatch(/Input validation error[\s\S]*title can be at most 200 characters/);
    const many = await call(client, "propose_changes", { customerId: CUSTOMER, title: "Many", actions: Array.from({ length: 51 }, () => action) });
    expect(textOf(many)).toMatch(/At most 50 actions per proposal/);
    const flood = await call(client, "get_keywords", { customerId: CUSTOMER, contains: "a", extra: Array.from({ length: 6_000 }, (_, i) => i) });
    expect(textOf(flood)).toMatch(/more than the maximum of 5000 elements/);
    await expect(call(client, "get_keywords", { customerId: CUSTOMER, contains: "y".repeat(1_200_000) })).rejects.toThrow(
      /Payload Too Large: Request body must not exceed 1048576 bytes/,
    );

    expect(await changeSetCount()).toBe(sets);
    expect(emu.mutateKinds()).toEqual(before);
  });

  it("has no path to apply: the MCP server's code never names the apply, approval, revert or discard functions", () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".server.ts") && !f.endsWith(".test.ts"))) {
      const source = fs.readFileSync(path.join(dir, file), "utf8");
      expect(source, file).not.toMatch(
        /applyChangeSet|applyAndRefresh|applyForApi|approvalFrom|ApprovalCapability|discardChangeSet|discardForApi|proposeRevert|revertForApi|createMutateHandler|\.mutate\(/,
      );
    }
  });
});

// A token id that is not the caller's revokes nothing (the settings form's guard).
describe("revoking", () => {
  it("only the owner's own tokens", async () => {
    const id = (await t.db.selectFrom("access_tokens").select("id").where("name", "=", "Claude Desktop").executeTakeFirstOrThrow()).id;
    const strangerId = (await t.db.selectFrom("users").select("id").where("email", "=", "stranger@example.com").executeTakeFirstOrThrow()).id;
    expect(await revokeAccessToken(strangerId, id)).toBeNull();
    expect(await revokeAccessToken(userId, randomUUID())).toBeNull();
    expect(await t.db.selectFrom("access_tokens").select("id").where("id", "=", id).executeTakeFirst()).toEqual({ id });
  });
});
