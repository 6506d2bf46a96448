// @vitest-environment node
// Issue 34 point 2: personal access tokens in /settings, through the page's
// own loader and action (the forms post without JavaScript), on the database
// the run selects.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authenticateAccessToken, MAX_ACCESS_TOKENS, type AccessTokenView } from "~/server/auth/access-tokens.server";
import { commitSessionCookie, createSession } from "~/server/auth/session.server";
import { registerUser } from "~/server/auth/users.server";
import { sha256 } from "~/server/auth/crypto-utils.server";
import { setupTestEnvironment, type TestContext } from "../../tests/setup/test-db";
import { signedInArgs } from "../../tests/support/route-args";
import { action, loader } from "./settings";

const APP = "http://localhost:3000";
let t: TestContext;
let cookie: string;
let userId: string;

beforeAll(async () => {
  t = await setupTestEnvironment();
  userId = (await registerUser("tokens@example.com", "tokens-password")).id;
  cookie = (await commitSessionCookie(await createSession(userId, new Request(APP)))).split(";")[0];
});
afterAll(() => t.cleanup());
beforeEach(async () => {
  await t.db.deleteFrom("access_tokens").execute();
});

type Created = { data: { createdToken: { id: string; name: string; token: string; scopes: string[]; expiresAt: string } }; init: ResponseInit | null };
type Refused = { data: { tokenResult?: { error?: Record<string, string[]> }; error?: string }; init: ResponseInit | null };

const post = async (fields: Record<string, string | string[]>, as = cookie) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of ([] as string[]).concat(value)) body.append(name, v);
  return action(await signedInArgs(new Request(`${APP}/settings`, { method: "POST", body, headers: { Cookie: as } })));
};
const create = (fields: Record<string, string | string[]>) => post({ intent: "create-access-token", ...fields });
const page = async () =>
  (await loader(await signedInArgs(new Request(`${APP}/settings`, { headers: { Cookie: cookie } })))) as {
    accessTokens: { tokens: AccessTokenView[]; mcpUrl: string };
  };

describe("/settings access tokens", () => {
  it("creates a token shown once in the answer, stored only as its hash, listed by name, scopes, expiry and last use", async () => {
    const before = Date.now();
    const created = (await create({ name: "Claude Desktop", scopes: ["read", "propose"], expiresInDays: "90" })) as unknown as Created;
    const { token, name, scopes, expiresAt } = created.data.createdToken;
    expect({ name, scopes }).toEqual({ name: "Claude Desktop", scopes: ["read", "propose"] });
    expect(token).toMatch(/^aam_pat_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(90 * 24 * 3600 * 1000);
    expect(Date.parse(expiresAt) - before).toBeLessThan(90 * 24 * 3600 * 1000 + 60_000);

    const rows = await t.db.selectFrom("access_tokens").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const listed = (await page()).accessTokens;
    expect(listed.mcpUrl).toBe(`${APP}/mcp`);
    expect(listed.tokens).toEqual([expect.objectContaining({ name: "Claude Desktop", scopes: ["read", "propose"], lastUsedAt: null, expired: false })]);
    expect(JSON.stringify(listed)).not.toContain(token);

    await authenticateAccessToken(token);
    expect((await page()).accessTokens.tokens[0].lastUsedAt).toEqual(expect.any(String));
  });

  it("refuses bad input with a message per field and stores nothing", async () => {
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{ name: "", scopes: "read", expiresInDays: "30" }, "name", "Give the token a name, e.g. the agent that will use it"],
      [{ name: "x".repeat(61), scopes: "read", expiresInDays: "30" }, "name", "A name can be at most 60 characters"],
      [{ name: "Bidi\u202e", scopes: "read", expiresInDays: "30" }, "name", "A name cannot contain invisible text-direction characters"],
      [{ name: "No scope", expiresInDays: "30" }, "scopes", "Choose at least one scope"],
      [{ name: "Admin", scopes: ["read", "apply"], expiresInDays: "30" }, "scopes[1]", "A scope is read or propose"],
      [{ name: "Forever", scopes: "read", expiresInDays: "100000" }, "expiresInDays", "Choose when the token expires"],
    ];
    for (const [fields, field, message] of cases) {
      const refused = (await create(fields)) as unknown as Refused;
      expect(refused.init?.status, JSON.stringify(fields)).toBe(400);
      expect(refused.data.tokenResult?.error?.[field], JSON.stringify(fields)).toEqual([message]);
    }
    expect(await t.db.selectFrom("access_tokens").select("id").execute()).toEqual([]);
  });

  it("refuses a second token of the same name, and more than the maximum", async () => {
    await create({ name: "Agent", scopes: "read", expiresInDays: "7" });
    const again = (await create({ name: "agent", scopes: "read", expiresInDays: "7" })) as unknown as Refused;
    expect(again.init?.status).toBe(400);
    expect(again.data.tokenResult?.error?.name).toEqual(["You already have a token named “agent”"]);
    for (let i = 1; i < MAX_ACCESS_TOKENS; i++) await create({ name: `Agent ${i}`, scopes: "read", expiresInDays: "7" });
    const over = (await create({ name: "One too many", scopes: "read", expiresInDays: "7" })) as unknown as Refused;
    expect(over.init?.status).toBe(400);
    expect(over.data.tokenResult?.error?.[""]).toEqual([
      `You have ${MAX_ACCESS_TOKENS} access tokens, the most there can be; revoke one you no longer use first.`,
    ]);
    expect(await t.db.selectFrom("access_tokens").select("id").execute()).toHaveLength(MAX_ACCESS_TOKENS);
  });

  it("revokes one of the person's tokens (it stops working at once), and nobody else's", async () => {
    const { token, id } = ((await create({ name: "Script", scopes: "read", expiresInDays: "30" })) as unknown as Created).data.createdToken;
    const otherId = (await registerUser("other@example.com", "other-password")).id;
    const otherCookie = (await commitSessionCookie(await createSession(otherId, new Request(APP)))).split(";")[0];
    const theirs = (await post({ intent: "revoke-access-token", tokenId: id }, otherCookie)) as unknown as Refused;
    expect(theirs.init?.status).toBe(400);
    expect(theirs.data.error).toBe("That access token is not one of yours, or it was already revoked.");
    expect(await authenticateAccessToken(token)).not.toBeNull();
    const garbage = (await post({ intent: "revoke-access-token", tokenId: "../../etc" })) as unknown as Refused;
    expect(garbage.init?.status).toBe(400);

    const res = (await post({ intent: "revoke-access-token", tokenId: id })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings");
    expect(await authenticateAccessToken(token)).toBeNull();
    expect((await page()).accessTokens.tokens).toEqual([]);
  });
});
