import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../ads";
import { mountDemoEmulator } from "../mount";

/**
 * The emulator as the app mounts it on its own origin in demo mode (issue 9
 * points 4 and 7): only the app's client, secret, callback and PKCE; and its
 * state kept in DATA_DIR/emulator across restarts.
 */
const CLIENT = { id: "app-client.apps.googleusercontent.com", secret: "app-secret", redirectUri: "http://localhost:3000/api/v1/auth/google/callback" };
const ADS = "https://www.googleapis.com/auth/adwords";

const servers: http.Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function mount(stateDir?: string): Promise<string> {
  const handler = mountDemoEmulator({ publicBaseUrl: "http://localhost:3000/emulator", client: CLIENT, stateDir });
  const server = http.createServer((req, res) => handler(req, res, () => res.writeHead(404).end()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function authUrl(base: string, overrides: Record<string, string | undefined> = {}) {
  const verifier = randomBytes(32).toString("base64url");
  const params: Record<string, string | undefined> = {
    client_id: CLIENT.id,
    redirect_uri: CLIENT.redirectUri,
    response_type: "code",
    scope: `openid email ${ADS}`,
    state: "s",
    access_type: "offline",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...overrides,
  };
  const url = new URL(`${base}/o/oauth2/v2/auth`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return { url, verifier };
}

/** Consent (Allow with the Ads box ticked) and the code exchange, as the app does them. */
async function signIn(base: string) {
  const { url, verifier } = authUrl(base);
  const form = new URLSearchParams(url.searchParams);
  form.set("action", "allow");
  form.append("granted_scope", ADS);
  const consent = await fetch(`${base}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
  expect(consent.status).toBe(302);
  const code = new URL(consent.headers.get("Location")!).searchParams.get("code")!;
  const token = await fetch(`${base}/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: CLIENT.redirectUri,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      code_verifier: verifier,
    }),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string; refresh_token: string };
}

async function ads(base: string, accessToken: string, method: string, body: unknown) {
  const res = await fetch(`${base}/v24/customers/${DEMO_SMALL_CUSTOMER_ID}/${method}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "login-customer-id": DEMO_MANAGER_CUSTOMER_ID, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function firstBudget(base: string, accessToken: string) {
  const res = await ads(base, accessToken, "googleAds:search", {
    query: "SELECT campaign_budget.id, campaign_budget.resource_name, campaign_budget.amount_micros FROM campaign_budget ORDER BY campaign_budget.id LIMIT 1",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = (res.body.results as Array<{ campaignBudget: { resourceName: string; amountMicros: string } }>)[0]!.campaignBudget;
  return { resourceName: row.resourceName, amountMicros: Number(row.amountMicros) };
}

describe("mounted on the app's origin: only the app's own client (point 7)", () => {
  it("refuses another redirect URI, even with prompt=none, instead of sending a code there", async () => {
    const base = await mount();
    for (const extra of [{}, { prompt: "none" }]) {
      const res = await fetch(authUrl(base, { redirect_uri: "https://evil.example/cb", ...extra }).url, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toContain("redirect_uri_mismatch");
    }
  });

  it("refuses another client id, and a request without PKCE", async () => {
    const base = await mount();
    expect((await fetch(authUrl(base, { client_id: "someone-else" }).url, { redirect: "manual" })).status).toBe(401);
    const noPkce = await fetch(authUrl(base, { code_challenge: undefined, code_challenge_method: undefined }).url, { redirect: "manual" });
    expect(noPkce.status).toBe(400);
    expect(await noPkce.text()).toContain("code_challenge");
  });

  it("refuses a code exchange with a wrong secret or without the verifier", async () => {
    const base = await mount();
    for (const [secret, withVerifier] of [
      ["wrong-secret", true],
      [CLIENT.secret, false],
    ] as const) {
      const { url, verifier } = authUrl(base);
      const form = new URLSearchParams(url.searchParams);
      form.set("action", "allow");
      const consent = await fetch(`${base}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
      const code = new URL(consent.headers.get("Location")!).searchParams.get("code")!;
      const token = await fetch(`${base}/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: CLIENT.redirectUri,
          client_id: CLIENT.id,
          client_secret: secret,
          ...(withVerifier ? { code_verifier: verifier } : {}),
        }),
      });
      expect(token.status).toBeGreaterThanOrEqual(400);
      expect(await token.json()).not.toHaveProperty("access_token");
    }
  });
});

describe("state kept in DATA_DIR/emulator across restarts (point 4)", () => {
  it("a restarted emulator still honours the refresh token and shows the applied change", async () => {
    const stateDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emu-state-")), "emulator");
    dirs.push(path.dirname(stateDir));
    const first = await mount(stateDir);
    const tokens = await signIn(first);
    const budget = await firstBudget(first, tokens.access_token);
    const target = budget.amountMicros + 1_230_000;
    const mutate = await ads(first, tokens.access_token, "campaignBudgets:mutate", {
      operations: [{ update: { resourceName: budget.resourceName, amountMicros: String(target) }, updateMask: "amount_micros" }],
    });
    expect(mutate.status).toBe(200);
    // A dry run changes nothing and is not kept.
    await ads(first, tokens.access_token, "campaignBudgets:mutate", {
      operations: [{ update: { resourceName: budget.resourceName, amountMicros: "1000000" }, updateMask: "amount_micros" }],
      validateOnly: true,
    });
    expect(fs.statSync(stateDir).mode & 0o777).toBe(0o700);

    // "Restart": a new emulator over the same directory.
    const second = await mount(stateDir);
    const refreshed = await fetch(`${second}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: CLIENT.id, client_secret: CLIENT.secret }),
    });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect(await firstBudget(second, access_token)).toEqual({ resourceName: budget.resourceName, amountMicros: target });
    // The old access token is still valid too, as at Google within its hour.
    expect((await firstBudget(second, tokens.access_token)).amountMicros).toBe(target);
  });

  it("without a state directory nothing is written and a new emulator starts fresh", async () => {
    const base = await mount();
    const tokens = await signIn(base);
    const again = await mount();
    const refreshed = await fetch(`${again}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: CLIENT.id, client_secret: CLIENT.secret }),
    });
    expect(refreshed.status).toBe(400);
  });
});

describe("EMULATOR_FIXTURE in demo mode", () => {
  it("serves the fixture's accounts instead of the demo", async () => {
    const previous = process.env.EMULATOR_FIXTURE;
    process.env.EMULATOR_FIXTURE = path.join(__dirname, "../fixtures/example.json");
    try {
      const base = await mount();
      const { access_token } = await signIn(base);
      const res = await fetch(`${base}/v24/customers:listAccessibleCustomers`, { headers: { Authorization: `Bearer ${access_token}` } });
      expect(await res.json()).toEqual({ resourceNames: ["customers/1234567890"] });
      const search = await fetch(`${base}/v24/customers/1112223334/googleAds:search`, {
        method: "POST",
        headers: { Authorization: `Bearer ${access_token}`, "login-customer-id": "1234567890", "Content-Type": "application/json" },
        body: JSON.stringify({ query: "SELECT customer.descriptive_name FROM customer" }),
      });
      expect(((await search.json()) as { results: Array<{ customer: { descriptiveName: string } }> }).results[0].customer.descriptiveName).toBe("Acme Tents");
    } finally {
      if (previous === undefined) delete process.env.EMULATOR_FIXTURE;
      else process.env.EMULATOR_FIXTURE = previous;
    }
  });
});
