import { createPublicKey, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADWORDS, DEMO_EMAIL, EMAIL, ads, authorize, consentForm, pkcePair, postForm, signIn, startEmulator, type Running } from "./helpers";

const REDIRECT = "http://app.test/oauth/callback";
const CLIENT_ID = "test-client.apps.googleusercontent.com";

let open: Running;
beforeAll(async () => {
  open = await startEmulator();
});
afterAll(() => open.close());

function decodeJwt(jwt: string) {
  const [h, p, s] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(h!, "base64url").toString()),
    payload: JSON.parse(Buffer.from(p!, "base64url").toString()),
    signingInput: `${h}.${p}`,
    signature: Buffer.from(s!, "base64url"),
  };
}

describe("authorization code flow with PKCE S256", () => {
  it("redirects with code, granted scopes and state, then exchanges the code for Google-shaped tokens", async () => {
    const { status, location, tokens } = await signIn(open.baseUrl);
    expect(status).toBe(302);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("scope")).toBe(`openid ${EMAIL} ${ADWORDS}`);
    expect(location.searchParams.get("authuser")).toBe("0");
    expect(location.searchParams.get("prompt")).toBe("consent");
    expect(location.searchParams.get("code")).toMatch(/^4\/0A/);

    expect(Object.keys(tokens)).toEqual(["access_token", "expires_in", "refresh_token", "scope", "token_type", "id_token"]);
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.refresh_token).toMatch(/^1\/\//);
    expect(tokens.expires_in).toBe(3599);
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.scope).toBe(`openid ${EMAIL} ${ADWORDS}`);
  });

  it("issues a verifiable RS256 id_token whose keys come from the JWKS named in the discovery document", async () => {
    const { tokens } = await signIn(open.baseUrl, { nonce: "n-1" });
    const config = (await (await fetch(`${open.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, any>;
    expect(config.issuer).toBe(open.baseUrl);
    expect(config.token_endpoint).toBe(`${open.baseUrl}/token`);
    expect(config.code_challenge_methods_supported).toEqual(["plain", "S256"]);
    const jwks = (await (await fetch(config.jwks_uri)).json()) as { keys: Array<Record<string, string>> };

    const jwt = decodeJwt(tokens.id_token!);
    expect(jwt.header).toMatchObject({ alg: "RS256", typ: "JWT" });
    const jwk = jwks.keys.find((k) => k.kid === jwt.header.kid)!;
    const key = createPublicKey({ key: jwk as any, format: "jwk" });
    expect(verify("sha256", Buffer.from(jwt.signingInput), key, jwt.signature)).toBe(true);
    expect(jwt.payload).toMatchObject({
      iss: open.baseUrl,
      aud: CLIENT_ID,
      azp: CLIENT_ID,
      sub: "100000000000000000001",
      email: DEMO_EMAIL,
      email_verified: true,
      nonce: "n-1",
    });
    expect(jwt.payload.exp - jwt.payload.iat).toBe(3600);
  });

  it("rejects a wrong code_verifier with invalid_grant and burns the code", async () => {
    const auth = await authorize(open.baseUrl);
    const fields = { grant_type: "authorization_code", code: auth.code, redirect_uri: REDIRECT, client_id: CLIENT_ID, client_secret: "s" };
    const wrong = await postForm(`${open.baseUrl}/token`, { ...fields, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: "invalid_grant", error_description: "Bad Request" });
    const right = await postForm(`${open.baseUrl}/token`, { ...fields, code_verifier: auth.verifier });
    expect(right.json.error).toBe("invalid_grant");
  });

  it("requires the verifier when a challenge was sent", async () => {
    const auth = await authorize(open.baseUrl);
    const res = await postForm(`${open.baseUrl}/token`, { grant_type: "authorization_code", code: auth.code, redirect_uri: REDIRECT, client_id: CLIENT_ID });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
  });

  it("accepts a plain challenge", async () => {
    const verifier = pkcePair().verifier;
    const q = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: ADWORDS,
      code_challenge: verifier,
      code_challenge_method: "plain",
    });
    const html = await (await fetch(`${open.baseUrl}/o/oauth2/v2/auth?${q}`)).text();
    const form = consentForm(html);
    form.append("action", "allow");
    const post = await fetch(`${open.baseUrl}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
    const code = new URL(post.headers.get("location")!).searchParams.get("code")!;
    const res = await postForm(`${open.baseUrl}/token`, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    // No offline access, no openid: neither refresh_token nor id_token.
    expect(Object.keys(res.json)).toEqual(["access_token", "expires_in", "scope", "token_type"]);
  });

  it("treats a reused code as invalid_grant and revokes the tokens it produced", async () => {
    const auth = await authorize(open.baseUrl);
    const fields = { grant_type: "authorization_code", code: auth.code, redirect_uri: REDIRECT, client_id: CLIENT_ID, code_verifier: auth.verifier };
    const first = await postForm(`${open.baseUrl}/token`, fields);
    expect(first.status).toBe(200);
    expect((await ads(open.baseUrl, "customers:listAccessibleCustomers", first.json.access_token)).status).toBe(200);

    const second = await postForm(`${open.baseUrl}/token`, fields);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: "invalid_grant", error_description: "Bad Request" });

    const after = await ads(open.baseUrl, "customers:listAccessibleCustomers", first.json.access_token);
    expect(after.status).toBe(401);
    expect(after.json.error.details[0].errors[0].errorCode).toEqual({ authenticationError: "OAUTH_TOKEN_REVOKED" });
    const refresh = await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: first.json.refresh_token, client_id: CLIENT_ID });
    expect(refresh.json).toEqual({ error: "invalid_grant", error_description: "Token has been expired or revoked." });
  });

  it("rejects a redirect_uri that differs from the authorization request", async () => {
    const auth = await authorize(open.baseUrl);
    const res = await postForm(`${open.baseUrl}/token`, {
      grant_type: "authorization_code",
      code: auth.code,
      redirect_uri: "http://app.test/other",
      client_id: CLIENT_ID,
      code_verifier: auth.verifier,
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "redirect_uri_mismatch", error_description: "Bad Request" });
  });

  it("rejects a code presented by another client", async () => {
    const auth = await authorize(open.baseUrl);
    const res = await postForm(`${open.baseUrl}/token`, {
      grant_type: "authorization_code",
      code: auth.code,
      redirect_uri: REDIRECT,
      client_id: "someone-else",
      code_verifier: auth.verifier,
    });
    expect(res.json.error).toBe("invalid_grant");
  });

  it("expires codes after 10 minutes", async () => {
    let now = Date.now();
    const clocked = await startEmulator({ now: () => now });
    try {
      const auth = await authorize(clocked.baseUrl);
      now += 10 * 60 * 1000 + 1;
      const res = await postForm(`${clocked.baseUrl}/token`, {
        grant_type: "authorization_code",
        code: auth.code,
        redirect_uri: REDIRECT,
        client_id: CLIENT_ID,
        code_verifier: auth.verifier,
      });
      expect(res.json.error).toBe("invalid_grant");
    } finally {
      await clocked.close();
    }
  });

  it("answers Cancel with error=access_denied and the state", async () => {
    const q = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT, response_type: "code", scope: `openid ${ADWORDS}`, state: "s-9" });
    const html = await (await fetch(`${open.baseUrl}/o/oauth2/v2/auth?${q}`)).text();
    const form = consentForm(html);
    form.append("action", "cancel");
    const res = await fetch(`${open.baseUrl}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get("location")!);
    expect(loc.origin + loc.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: "access_denied", state: "s-9" });
  });

  it("honours an unticked Ads scope: the grant lacks adwords and Ads calls get ACCESS_TOKEN_SCOPE_INSUFFICIENT", async () => {
    const { location, tokens } = await signIn(open.baseUrl, { untick: [ADWORDS] });
    expect(location.searchParams.get("scope")).toBe(`openid ${EMAIL}`);
    expect(tokens.scope).toBe(`openid ${EMAIL}`);
    const res = await ads(open.baseUrl, "customers:listAccessibleCustomers", tokens.access_token);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(res.json).toEqual({
      error: {
        code: 403,
        message: "Request had insufficient authentication scopes.",
        status: "PERMISSION_DENIED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
            domain: "googleapis.com",
            metadata: { service: "googleads.googleapis.com", method: "google.ads.googleads.v24.services.CustomerService.ListAccessibleCustomers" },
          },
        ],
      },
    });
  });
});

describe("refresh and revoke", () => {
  it("refreshes: same shape without refresh_token or id_token, new access token works", async () => {
    const { tokens } = await signIn(open.baseUrl);
    const res = await postForm(`${open.baseUrl}/token`, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: CLIENT_ID,
      client_secret: "x",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(Object.keys(res.json)).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(res.json.access_token).not.toBe(tokens.access_token);
    expect((await ads(open.baseUrl, "customers:listAccessibleCustomers", res.json.access_token)).status).toBe(200);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const { tokens } = await signIn(open.baseUrl);
    const basic = Buffer.from(`${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent("s3cr:t")}`).toString("base64");
    const res = await postForm(
      `${open.baseUrl}/token`,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { Authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(200);
  });

  it("revoke kills the refresh token and its access tokens; refresh then gives invalid_grant", async () => {
    const { tokens } = await signIn(open.baseUrl);
    const revoke = await postForm(`${open.baseUrl}/revoke`, { token: tokens.refresh_token });
    expect(revoke.status).toBe(200);
    expect(revoke.json).toEqual({});
    const refresh = await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: CLIENT_ID });
    expect(refresh.status).toBe(400);
    expect(refresh.json).toEqual({ error: "invalid_grant", error_description: "Token has been expired or revoked." });
    expect((await ads(open.baseUrl, "customers:listAccessibleCustomers", tokens.access_token)).status).toBe(401);
    const again = await postForm(`${open.baseUrl}/revoke`, { token: tokens.refresh_token });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: "invalid_token", error_description: "Token expired or revoked" });
  });

  it("revokes by access token given in the query string", async () => {
    const { tokens } = await signIn(open.baseUrl);
    const res = await fetch(`${open.baseUrl}/revoke?token=${encodeURIComponent(tokens.access_token)}`, { method: "POST" });
    expect(res.status).toBe(200);
    const refresh = await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: CLIENT_ID });
    expect(refresh.json.error).toBe("invalid_grant");
  });

  it("state.revokeAllForUser and POST /__emulator/revoke-all simulate the user removing access", async () => {
    const a = await signIn(open.baseUrl);
    expect(open.emulator.state.revokeAllForUser(DEMO_EMAIL)).toBeGreaterThan(0);
    const r1 = await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: a.tokens.refresh_token, client_id: CLIENT_ID });
    expect(r1.json.error).toBe("invalid_grant");

    const b = await signIn(open.baseUrl);
    const admin = await fetch(`${open.baseUrl}/__emulator/revoke-all`, { method: "POST", body: JSON.stringify({ email: DEMO_EMAIL }) });
    expect(await admin.json()).toEqual({ email: DEMO_EMAIL, revoked: 1 });
    const r2 = await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: b.tokens.refresh_token, client_id: CLIENT_ID });
    expect(r2.json.error).toBe("invalid_grant");
  });

  it("token endpoint errors: unsupported grant type, missing client, missing code", async () => {
    expect((await postForm(`${open.baseUrl}/token`, { grant_type: "password", client_id: CLIENT_ID })).json).toEqual({
      error: "unsupported_grant_type",
      error_description: "Invalid grant_type: password",
    });
    expect((await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token" })).json.error).toBe("invalid_request");
    expect((await postForm(`${open.baseUrl}/token`, { grant_type: "authorization_code", client_id: CLIENT_ID })).json).toEqual({
      error: "invalid_request",
      error_description: "Missing required parameter: code",
    });
    expect((await postForm(`${open.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: "1//nope", client_id: CLIENT_ID })).json.error).toBe(
      "invalid_grant",
    );
  });

  it("include_granted_scopes adds earlier grants, so unticking a scope granted before does not remove it", async () => {
    const clientId = "incremental.apps.googleusercontent.com";
    await signIn(open.baseUrl, { clientId, scope: `openid ${ADWORDS}` });
    const { location, tokens } = await signIn(open.baseUrl, { clientId, scope: "openid email", includeGrantedScopes: true });
    expect(location.searchParams.get("scope")).toBe(`openid ${EMAIL} ${ADWORDS}`);
    expect(tokens.scope).toBe(`openid ${EMAIL} ${ADWORDS}`);
    const without = await signIn(open.baseUrl, { clientId, scope: "openid email" });
    expect(without.tokens.scope).toBe(`openid ${EMAIL}`);
  });

  it("state.expireAccessTokens makes Ads calls fail with OAUTH_TOKEN_EXPIRED until refreshed", async () => {
    const { tokens } = await signIn(open.baseUrl);
    open.emulator.state.expireAccessTokens(DEMO_EMAIL);
    const res = await ads(open.baseUrl, "customers:listAccessibleCustomers", tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.json.error.details[0].errors[0].errorCode).toEqual({ authenticationError: "OAUTH_TOKEN_EXPIRED" });
  });
});

describe("userinfo", () => {
  it("returns the demo user's claims for the granted scopes at /v1/userinfo and /oauth2/v3/userinfo", async () => {
    const { tokens } = await signIn(open.baseUrl, { scope: `openid email profile ${ADWORDS}` });
    for (const path of ["/v1/userinfo", "/oauth2/v3/userinfo"]) {
      const res = await fetch(`${open.baseUrl}${path}`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        sub: "100000000000000000001",
        name: "Demo Advertiser",
        given_name: "Demo",
        family_name: "Advertiser",
        email: DEMO_EMAIL,
        email_verified: true,
      });
    }
  });

  it("omits profile claims without the profile scope", async () => {
    const { tokens } = await signIn(open.baseUrl);
    const res = await fetch(`${open.baseUrl}/v1/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(await res.json()).toEqual({ sub: "100000000000000000001", email: DEMO_EMAIL, email_verified: true });
  });

  it("401 with WWW-Authenticate for a bad or missing token", async () => {
    const bad = await fetch(`${open.baseUrl}/v1/userinfo`, { headers: { Authorization: "Bearer ya29.nope" } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(await bad.json()).toEqual({ error: "invalid_request", error_description: "Invalid Credentials" });
    const none = await fetch(`${open.baseUrl}/v1/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });
});

describe("fixed client", () => {
  let fixed: Running;
  beforeAll(async () => {
    fixed = await startEmulator({ clientId: "fixed.apps.googleusercontent.com", clientSecret: "fixed-secret" });
  });
  afterAll(() => fixed.close());

  it("rejects another client id on the consent page (no redirect) and at the token endpoint", async () => {
    const q = new URLSearchParams({ client_id: "intruder", redirect_uri: REDIRECT, response_type: "code", scope: ADWORDS });
    const page = await fetch(`${fixed.baseUrl}/o/oauth2/v2/auth?${q}`, { redirect: "manual" });
    expect(page.status).toBe(401);
    expect(page.headers.get("location")).toBeNull();
    expect(await page.text()).toContain("Error 401: invalid_client");

    const res = await postForm(`${fixed.baseUrl}/token`, {
      grant_type: "refresh_token",
      refresh_token: "1//x",
      client_id: "intruder",
      client_secret: "fixed-secret",
    });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "invalid_client", error_description: "The OAuth client was not found." });
  });

  it("rejects a wrong secret with 401 invalid_client and accepts the right one", async () => {
    const auth = await authorize(fixed.baseUrl, { clientId: "fixed.apps.googleusercontent.com" });
    const fields = {
      grant_type: "authorization_code",
      code: auth.code,
      redirect_uri: REDIRECT,
      client_id: "fixed.apps.googleusercontent.com",
      code_verifier: auth.verifier,
    };
    const wrong = await postForm(`${fixed.baseUrl}/token`, { ...fields, client_secret: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: "invalid_client", error_description: "Unauthorized" });
    const right = await postForm(`${fixed.baseUrl}/token`, { ...fields, client_secret: "fixed-secret" });
    expect(right.status).toBe(200);
  });
});

describe("prefix mounting", () => {
  it("builds issuer and endpoint URLs from the mount prefix", async () => {
    const mounted = await startEmulator({}, "/emulator");
    try {
      const config = (await (await fetch(`${mounted.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, string>;
      expect(config.issuer).toBe(mounted.baseUrl);
      expect(config.authorization_endpoint).toBe(`${mounted.baseUrl}/o/oauth2/v2/auth`);
      const { tokens } = await signIn(mounted.baseUrl);
      const jwt = decodeJwt(tokens.id_token!);
      expect(jwt.payload.iss).toBe(mounted.baseUrl);
      const html = await (
        await fetch(
          `${mounted.baseUrl}/o/oauth2/v2/auth?${new URLSearchParams({ client_id: "c", redirect_uri: REDIRECT, response_type: "code", scope: "openid" })}`,
        )
      ).text();
      expect(html).toContain('action="/emulator/o/oauth2/v2/auth"');
    } finally {
      await mounted.close();
    }
  });
});

describe("behind body parsers", () => {
  it("works when an upstream middleware already consumed the body into req.body", async () => {
    const { createServer } = await import("node:http");
    const { createEmulator } = await import("../server");
    const { fakeDataSource } = await import("./helpers");
    const emulator = createEmulator({ dataSource: fakeDataSource() });
    // What express.urlencoded()/express.json() leave behind: a drained stream and a parsed object.
    const handle = async (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString();
      const type = req.headers["content-type"] ?? "";
      const parsed: Record<string, unknown> = {};
      if (type.startsWith("application/json") && text) Object.assign(parsed, JSON.parse(text));
      else
        for (const [k, v] of new URLSearchParams(text)) {
          const prev = parsed[k];
          parsed[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
        }
      Object.assign(req, { body: parsed });
      emulator.handler(req, res);
    };
    const server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const { tokens } = await signIn(base);
      expect(tokens.scope).toBe(`openid ${EMAIL} ${ADWORDS}`);
      const res = await ads(base, "customers/1111111111/googleAds:search", tokens.access_token, { body: { query: "SELECT campaign.id FROM campaign" } });
      expect(res.status).toBe(200);
      expect(res.json.results).toHaveLength(3);
    } finally {
      await emulator.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
