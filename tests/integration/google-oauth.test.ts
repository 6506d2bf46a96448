import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAdsDataSource, createDemoStore, DEMO_USER_EMAIL } from "../../emulator/ads";
import { createEmulator, type Emulator } from "../../emulator/server";
import { googleEnvFor } from "../support/emulator-harness";
import { settleSyncs, SYNC_SETTLE_MS } from "../support/settle-syncs";
import { CONNECT_SESSION_CHANGED, loader as callbackLoader } from "~/routes/api/auth-google-callback";
import { loader as startLoader } from "~/routes/api/auth-google";
import { disconnectGoogle, getConnection, getGoogleAccessToken, ReconnectNeededError } from "~/server/auth/google-connection.server";
import { commitSessionCookie, createSession, getBearerSession, getSession } from "~/server/auth/session.server";
import { wrongHostMessage } from "~/server/http/canonical-host.server";
import { registerUser } from "~/server/auth/users.server";
import { setupTestEnvironment, type TestContext } from "../setup/test-db";
import { routeArgs } from "../support/route-args";
import { arriveAt } from "../support/sign-in-code";

/**
 * The whole Google sign-in flow through the app's own routes against the
 * emulator over HTTP: a browser is simulated by a cookie jar.
 */
const APP = "http://localhost:3000";
let server: http.Server;
let emulator: Emulator;
let base: string;
let t: TestContext;
const calls: string[] = [];

beforeAll(async () => {
  emulator = createEmulator({
    dataSource: createAdsDataSource(createDemoStore()),
    clientId: "test-client.apps.googleusercontent.com",
    clientSecret: "test-secret",
    logger: { info() {}, warn() {}, error() {} },
  });
  server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url?.split("?")[0]}`);
    emulator.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await setupTestEnvironment({
    GOOGLE_CLIENT_ID: "test-client.apps.googleusercontent.com",
    GOOGLE_CLIENT_SECRET: "test-secret",
    ...googleEnvFor(base),
    APP_URL: APP,
  });
});
afterAll(async () => {
  await settleSyncs(t.db);
  await t.cleanup();
  await new Promise((resolve) => server.close(resolve));
}, SYNC_SETTLE_MS);
beforeEach(async () => {
  // A sync a connection started talks to the emulator: not during the next test's count of calls.
  await settleSyncs(t.db);
  calls.length = 0;
  emulator.state.clearFaults();
}, SYNC_SETTLE_MS);

class Browser {
  cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  request(url: string) {
    return new Request(url, { headers: { Cookie: this.header() } });
  }
  /** Follows the callback's redirect to `/dashboard?token=<code>`: the root middleware's answer. */
  async arrive(res: Response) {
    const answer = await arriveAt(new URL(res.headers.get("Location")!, APP).href, this.header());
    this.take(answer);
    return answer;
  }
  /** Who this browser's cookie signs in, if anyone. */
  session() {
    return getSession(this.request(`${APP}/dashboard`));
  }
}

const args = routeArgs;

async function start(browser: Browser, path = "/api/v1/auth/google") {
  const res = (await startLoader(args(browser.request(`${APP}${path}`)))) as Response;
  expect(res.status).toBe(302);
  browser.take(res);
  return new URL(res.headers.get("Location")!);
}

/** The user's answer on the consent screen, as the emulator's form posts it. */
async function consent(authUrl: URL, opts: { allow?: boolean; ads?: boolean } = {}) {
  const form = new URLSearchParams(authUrl.searchParams);
  form.set("action", opts.allow === false ? "cancel" : "allow");
  if (opts.ads !== false) form.append("granted_scope", "https://www.googleapis.com/auth/adwords");
  const res = await fetch(`${base}/o/oauth2/v2/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return res.headers.get("Location")!;
}

async function callback(browser: Browser, url: string) {
  const res = (await callbackLoader(args(browser.request(url)))) as Response;
  browser.take(res);
  return res;
}

function toastOf(res: Response) {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("toast="));
  if (!cookie) return null;
  const value = decodeURIComponent(cookie.split(";")[0].slice("toast=".length));
  return JSON.parse(Buffer.from(value.split(".")[0], "base64").toString("utf8")).message as string;
}

async function allText(): Promise<string> {
  const tables = ["users", "sessions", "google_connections", "ads_accounts"] as const;
  const rows = await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute()));
  return JSON.stringify(rows);
}

describe("sign in with Google", () => {
  it("starts with state + PKCE S256, offline access and the three scopes", async () => {
    const url = await start(new Browser());
    expect(url.origin + url.pathname).toBe(`${base}/o/oauth2/v2/auth`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email https://www.googleapis.com/auth/adwords");
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP}/api/v1/auth/google/callback`);
  });

  it(
    "completes: real email, encrypted refresh token, session, token in the redirect, accounts listed, the first sync started",
    { timeout: SYNC_SETTLE_MS },
    async () => {
      const browser = new Browser();
      const back = await consent(await start(browser));
      const res = await callback(browser, back);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("Location")!, APP);
      expect(location.pathname).toBe("/dashboard");
      // The seed's ?token= is a one-time code, not a credential: no session yet, and it is no API token.
      const token = location.searchParams.get("token")!;
      expect(browser.cookies.has("__session")).toBe(false);
      expect(await getBearerSession(new Request(APP, { headers: { Authorization: `Bearer ${token}` } }))).toBeNull();
      // Arriving exchanges it for the session, on a clean address.
      const arrived = await browser.arrive(res);
      expect(arrived.headers.get("Location")).toBe("/dashboard");
      const session = await browser.session();
      expect(session?.user.email).toBe(DEMO_USER_EMAIL);
      expect(browser.cookies.has("__session")).toBe(true);
      expect(browser.cookies.has("__token_handoff")).toBe(true);
      // The state cookie is spent.
      expect([...browser.cookies.keys()].some((k) => k.startsWith("__google_oauth"))).toBe(false);

      const connection = (await getConnection(session!.user.id))!;
      expect(connection.refresh_token_enc).toMatch(/^enc:v1:/);
      expect(connection.status).toBe("active");
      const accounts = await t.db.selectFrom("ads_accounts").selectAll().where("user_id", "=", session!.user.id).execute();
      expect(accounts.map((a) => a.customer_id).sort()).toEqual(["1112223334", "1234567890", "5556667778"]);
      expect(accounts.find((a) => a.customer_id === "1112223334")?.login_customer_id).toBe("1234567890");
      // The active account's first sync started with the connection, before the redirect, whatever page comes next.
      const syncStatus = async () =>
        (await t.db.selectFrom("ads_sync_state").select("status").where("customer_id", "=", "1112223334").executeTakeFirst())?.status;
      expect(["running", "ok"]).toContain(await syncStatus());
      await settleSyncs(t.db);
      expect(await syncStatus()).toBe("ok");
      expect(
        session!.user.active_customer_id ??
          (await t.db.selectFrom("users").select("active_customer_id").where("id", "=", session!.user.id).executeTakeFirst())?.active_customer_id,
      ).toBe("1112223334");

      // No token or code in plaintext anywhere in the database.
      const code = new URL(back).searchParams.get("code")!;
      const plainAccess = await getGoogleAccessToken(connection);
      const dump = await allText();
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(plainAccess);
      expect(dump).not.toContain(token);
      expect(dump).not.toMatch(/1\/\/[A-Za-z0-9_-]{10,}/);
    },
  );

  it("a replayed code is refused (invalid_grant) and starts no session", async () => {
    const browser = new Browser();
    const back = await consent(await start(browser));
    const saved = new Map(browser.cookies);
    await callback(browser, back);
    const replay = new Browser();
    replay.cookies = saved;
    const res = await callback(replay, back);
    expect(new URL(res.headers.get("Location")!, APP).pathname).toBe("/login");
    expect(toastOf(res)).toMatch(/did not accept this sign-in/);
    expect(replay.cookies.has("__session")).toBe(false);
  });

  it("Cancel: back to /login with a clear message; nothing stored", async () => {
    const before = await allText();
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser), { allow: false }));
    expect(res.headers.get("Location")).toBe("/login");
    expect(toastOf(res)).toBe("Google sign-in was cancelled.");
    expect(await allText()).toBe(before);
  });

  it("a forged or missing state never reaches the token endpoint", async () => {
    const browser = new Browser();
    const authUrl = await start(browser);
    const back = new URL(await consent(authUrl));
    calls.length = 0;
    back.searchParams.set("state", "forged");
    const res = await callback(browser, back.toString());
    expect(res.headers.get("Location")).toBe("/login");
    expect(toastOf(res)).toMatch(/could not be verified/);
    const noState = await callback(new Browser(), `${APP}/api/v1/auth/google/callback?code=abc`);
    expect(noState.headers.get("Location")).toBe("/login");
    expect(calls.filter((c) => c.startsWith("POST /token"))).toEqual([]);
    expect(browser.cookies.has("__session")).toBe(false);
  });

  it("the Ads scope unticked: refused, nothing stored, the grant revoked at Google", async () => {
    const before = await allText();
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser), { ads: false }));
    expect(res.headers.get("Location")).toBe("/login");
    expect(toastOf(res)).toMatch(/Google Ads access was not granted/);
    expect(await allText()).toBe(before);
    expect(calls).toContain("POST /revoke");
  });

  it("the Ads API unreachable after sign-in: still signed in, with a clear error about the accounts", async () => {
    emulator.state.setFaults([{ match: "listAccessibleCustomers", kind: "unauthenticated", times: 5 }]);
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser)));
    expect(new URL(res.headers.get("Location")!, APP).pathname).toBe("/dashboard");
    await browser.arrive(res);
    expect(browser.cookies.has("__session")).toBe(true);
    expect(toastOf(res)).toMatch(/accounts could not be loaded/);
  });
});

describe("a password user connects Google Ads", () => {
  it("links the Google account to that user and returns to the page they came from", async () => {
    const user = await registerUser("owner@example.com", "owner-password");
    const session = await createSession(user.id, new Request(APP));
    const browser = new Browser();
    const cookie = await commitSessionCookie(session);
    browser.cookies.set("__session", cookie.split(";")[0].slice("__session=".length));
    const res = await callback(browser, await consent(await start(browser, "/api/v1/auth/google?returnTo=/campaigns")));
    expect(res.headers.get("Location")).toBe("/campaigns");
    expect(toastOf(res)).toBe("Google Ads connected");
    const connection = await getConnection(user.id);
    expect(connection?.google_email).toBe(DEMO_USER_EMAIL);
    // An open redirect is not possible through returnTo.
    const evil = await start(new Browser(), "/api/v1/auth/google?returnTo=//evil.example");
    expect(evil.hostname).toBe("127.0.0.1");
  });
});

describe("tokens after sign-in", () => {
  async function signedIn() {
    const browser = new Browser();
    await browser.arrive(await callback(browser, await consent(await start(browser))));
    const session = await browser.session();
    return (await getConnection(session!.user.id))!;
  }

  it("refreshes shortly before expiry, once for concurrent callers", async () => {
    const connection = await signedIn();
    const first = await getGoogleAccessToken(connection);
    await t.db
      .updateTable("google_connections")
      .set({ access_token_expires_at: new Date(Date.now() + 30_000).toISOString() })
      .where("id", "=", connection.id)
      .execute();
    calls.length = 0;
    const [a, b] = await Promise.all([getGoogleAccessToken(connection), getGoogleAccessToken(connection)]);
    expect(a).toBe(b);
    expect(a).not.toBe(first);
    expect(calls.filter((c) => c === "POST /token")).toHaveLength(1);
  });

  it("a dead refresh token marks the connection 'reconnect needed' once and never loops", async () => {
    const connection = await signedIn();
    emulator.state.revokeAllForUser(DEMO_USER_EMAIL);
    await expect(getGoogleAccessToken(connection, { forceRefresh: true })).rejects.toBeInstanceOf(ReconnectNeededError);
    const after = await getConnection(connection.user_id);
    expect(after?.status).toBe("reconnect_needed");
    calls.length = 0;
    await expect(getGoogleAccessToken(connection, { forceRefresh: true })).rejects.toBeInstanceOf(ReconnectNeededError);
    expect(calls).toEqual([]);
  });

  it("disconnect revokes the grant at Google and deletes the tokens", async () => {
    const connection = await signedIn();
    const access = await getGoogleAccessToken(connection);
    calls.length = 0;
    expect(await disconnectGoogle(connection.user_id)).toBe(true);
    expect(calls).toContain("POST /revoke");
    expect(await getConnection(connection.user_id)).toBeUndefined();
    const userinfo = await fetch(`${base}/v1/userinfo`, { headers: { Authorization: `Bearer ${access}` } });
    expect(userinfo.status).toBe(401);
  });
});

/** A password user signed in in this browser. */
async function passwordUserIn(browser: Browser, email: string) {
  const user = await registerUser(email, "correct-password");
  browser.cookies.set("__session", (await commitSessionCookie(await createSession(user.id, new Request(APP)))).split(";")[0].slice("__session=".length));
  return user;
}

// Issue 25 point 9: the token that passes through the address is single-use, short-lived and bound to the browser.
describe("the sign-in code on /dashboard?token=", () => {
  it("is used once: arriving again with the same code signs nobody in", async () => {
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser)));
    const saved = new Map(browser.cookies);
    await browser.arrive(res);
    expect(await browser.session()).not.toBeNull();
    const again = new Browser();
    again.cookies = saved;
    const answer = await again.arrive(res);
    expect(answer.headers.get("Location")).toBe("/dashboard");
    expect(again.cookies.has("__session")).toBe(false);
  });

  it("works only in the browser that finished the Google flow (a link with the code signs nobody else in)", async () => {
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser)));
    const victim = new Browser();
    await victim.arrive(res);
    expect(victim.cookies.has("__session")).toBe(false);
    // Not used up by the stranger: the right browser still gets in.
    await browser.arrive(res);
    expect((await browser.session())?.user.email).toBe(DEMO_USER_EMAIL);
  });

  it("expires: a code older than two minutes signs nobody in", async () => {
    const browser = new Browser();
    const res = await callback(browser, await consent(await start(browser)));
    await t.db
      .updateTable("auth_codes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await browser.arrive(res);
    expect(browser.cookies.has("__session")).toBe(false);
  });
});

// Issue 25 point 7: "Connect Google Ads" attaches Google to the signed-in user or stops; it never signs in someone else.
describe("connecting Google Ads never changes who is signed in", () => {
  it("from a host name other than APP_URL's: stopped with an explanation before Google is asked", async () => {
    const browser = new Browser();
    await passwordUserIn(browser, "other-host@example.com");
    calls.length = 0;
    const res = (await startLoader(args(browser.request("http://127.0.0.1:3000/api/v1/auth/google?returnTo=/settings")))) as Response;
    expect(res.headers.get("Location")).toBe("/settings");
    expect(toastOf(res)).toBe(wrongHostMessage("127.0.0.1:3000", APP));
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__google_oauth"))).toBe(false);
    expect(calls).toEqual([]);
  });

  it("signed out on another host name: the sign-in is first sent to APP_URL's host", async () => {
    const res = (await startLoader(args(new Request("http://127.0.0.1:3000/api/v1/auth/google?returnTo=/campaigns")))) as Response;
    expect(res.headers.get("Location")).toBe(`${APP}/api/v1/auth/google?returnTo=/campaigns`);
  });

  it("finished after the browser changed user: nothing is connected and nobody is signed in", async () => {
    const browser = new Browser();
    const starter = await passwordUserIn(browser, "starter@example.com");
    const back = await consent(await start(browser, "/api/v1/auth/google?returnTo=/settings"));
    // Meanwhile, in another tab, someone else signs in in this browser.
    const other = await passwordUserIn(browser, "meanwhile@example.com");
    calls.length = 0;
    const res = await callback(browser, back);
    expect(res.headers.get("Location")).toBe("/settings");
    expect(toastOf(res)).toBe(CONNECT_SESSION_CHANGED);
    expect(await getConnection(starter.id)).toBeUndefined();
    expect(await getConnection(other.id)).toBeUndefined();
    expect((await browser.session())?.user.id).toBe(other.id);
    // The tokens Google issued were given back.
    expect(calls).toContain("POST /revoke");
    // Signed out meanwhile instead: back to /login, still nobody.
    const alone = new Browser();
    await passwordUserIn(alone, "signed-out@example.com");
    const back2 = await consent(await start(alone));
    alone.cookies.delete("__session");
    const res2 = await callback(alone, back2);
    expect(res2.headers.get("Location")).toBe("/login");
    expect(new URL(res2.headers.get("Location")!, APP).searchParams.has("token")).toBe(false);
    expect(alone.cookies.has("__sign_in_code")).toBe(false);
  });
});
