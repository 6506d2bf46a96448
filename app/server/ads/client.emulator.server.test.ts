// @vitest-environment node
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID, DEMO_USER_EMAIL, createAdsDataSource, createDemoStore } from "../../../emulator/ads";
import { createEmulator, type Emulator } from "../../../emulator/server";
import { GoogleAdsApiError, Int64, Int64String, Micros, createAdsClient, parseRows, type AdsClient } from "./client.server";

// The client against the project's Google emulator, end to end over HTTP: a
// token minted through the emulator's OAuth endpoints, then real Ads calls
// on the seeded demo account (a client reached through its manager).

const ADWORDS = "https://www.googleapis.com/auth/adwords";
const CLIENT_ID = "ads-client-test.apps.googleusercontent.com";
const REDIRECT_URI = "http://app.test/oauth/callback";
const MANAGER = "1234567890";
const CLIENT = "1112223334";

let server: http.Server;
let emulator: Emulator;
let baseUrl: string;

async function postForm(url: string, form: URLSearchParams): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
}

/** Consent (Allow, Ads scope ticked) → code → tokens, as the app's OAuth flow does it. */
async function mintTokens(): Promise<{ accessToken: string; refreshToken: string }> {
  const verifier = randomBytes(48).toString("base64url");
  const consent = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: `openid email ${ADWORDS}`,
    state: "state-1",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    access_type: "offline",
    prompt: "consent",
    action: "allow",
    granted_scope: ADWORDS,
  });
  const redirect = await postForm(`${baseUrl}/o/oauth2/v2/auth`, consent);
  expect(redirect.status).toBe(302);
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code");
  expect(code).toBeTruthy();
  const res = await postForm(
    `${baseUrl}/token`,
    new URLSearchParams({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      client_secret: "test-secret",
      code_verifier: verifier,
    }),
  );
  const body = (await res.json()) as { access_token?: string; refresh_token?: string; scope?: string };
  expect(res.status).toBe(200);
  expect(body.scope).toContain(ADWORDS);
  return { accessToken: body.access_token!, refreshToken: body.refresh_token! };
}

async function refresh(refreshToken: string): Promise<string> {
  const res = await postForm(
    `${baseUrl}/token`,
    new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: CLIENT_ID, client_secret: "test-secret" }),
  );
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`refresh failed with HTTP ${res.status}`);
  return body.access_token;
}

describe("client against the emulator", () => {
  let client: AdsClient;
  let sleeps: number[];
  let forcedRefreshes: number;

  beforeAll(async () => {
    // The brief's ids, pinned: if the demo data moves, this says so here.
    expect([DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID]).toEqual([MANAGER, CLIENT]);
    emulator = createEmulator({
      dataSource: createAdsDataSource(createDemoStore()),
      demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
    });
    server = http.createServer((req, res) => emulator.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await emulator?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  beforeEach(async () => {
    emulator.state.clearFaults();
    const tokens = await mintTokens();
    let current = tokens.accessToken;
    sleeps = [];
    forcedRefreshes = 0;
    client = createAdsClient({
      baseUrl,
      version: "v24",
      developerToken: "emulator-dev-token",
      getAccessToken: async ({ forceRefresh }) => {
        if (forceRefresh) {
          forcedRefreshes++;
          current = await refresh(tokens.refreshToken);
        }
        return current;
      },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    });
  });

  const CAMPAIGNS = `SELECT campaign.id, campaign.name, campaign.status, metrics.clicks, metrics.cost_micros
    FROM campaign WHERE segments.date DURING LAST_30_DAYS`;
  const CampaignRow = z.object({
    campaign: z.object({ resourceName: z.string(), id: Int64String, name: z.string(), status: z.string() }),
    metrics: z.object({ clicks: Int64, costMicros: Micros }),
  });

  it("lists the accounts the signed-in user reaches directly", async () => {
    const ids = await client.listAccessibleCustomers();
    expect(ids).toContain(MANAGER);
    expect(ids.every((id) => /^\d{10}$/.test(id))).toBe(true);
  });

  it("streams a client account's campaigns through its manager", async () => {
    const rows = parseRows(CampaignRow, await client.searchStream("111-222-3334", CAMPAIGNS, { loginCustomerId: MANAGER }));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.campaign.resourceName).toBe(`customers/${CLIENT}/campaigns/${row.campaign.id}`);
      expect(row.metrics.costMicros).toBeGreaterThanOrEqual(0);
    }
    const batches = [];
    for await (const batch of client.searchStreamBatches(CLIENT, CAMPAIGNS, { loginCustomerId: MANAGER })) batches.push(batch);
    expect(batches.flatMap((b) => b.results)).toHaveLength(rows.length);
    expect(batches.at(-1)?.requestId).toBeTruthy();
  });

  it("reports a bad query with Google's error code, without retrying", async () => {
    const error = await client.searchStream(CLIENT, "SELECT campaign.nope FROM campaign", { loginCustomerId: MANAGER }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GoogleAdsApiError);
    const apiError = error as GoogleAdsApiError;
    expect(apiError.httpStatus).toBe(400);
    expect(apiError.errors[0]?.category).toBe("queryError");
    expect(apiError.requestId).toBeTruthy();
    expect(sleeps).toEqual([]);
  });

  it("waits out an injected rate limit and refreshes an expired token once", async () => {
    emulator.state.setFaults([{ match: "searchStream", kind: "quota", times: 1, retryDelaySeconds: 2 }]);
    const rows = await client.searchStream(CLIENT, CAMPAIGNS, { loginCustomerId: MANAGER });
    expect(rows.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([2000]);

    emulator.state.expireAccessTokens();
    expect((await client.listAccessibleCustomers()).length).toBeGreaterThan(0);
    expect(forcedRefreshes).toBe(1);
  });
});
