import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FaultEngine, parseFaultsEnv } from "../faults";
import { BIG, MANAGER, ads, postForm, signIn, startEmulator, type Running } from "./helpers";

const FAILURE = "type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure";
const Q = "SELECT campaign.id FROM campaign";

let emu: Running;
let token: string;
let refreshToken: string;
beforeAll(async () => {
  emu = await startEmulator();
  const t = (await signIn(emu.baseUrl)).tokens;
  token = t.access_token;
  refreshToken = t.refresh_token!;
});
afterAll(() => emu.close());
afterEach(() => emu.emulator.state.clearFaults());

const search = (cid = MANAGER) => ads(emu.baseUrl, `customers/${cid}/googleAds:search`, token, { body: { query: Q } });
const stream = (cid = MANAGER) => ads(emu.baseUrl, `customers/${cid}/googleAds:searchStream`, token, { body: { query: Q } });

describe("fault kinds on the Ads API", () => {
  it("quota: 429 RESOURCE_EXHAUSTED with RESOURCE_TEMPORARILY_EXHAUSTED and retryDelay, then stops after `times`", async () => {
    emu.emulator.state.setFaults([{ match: "search", kind: "quota", times: 2, retryDelaySeconds: 3 }]);
    const first = await search();
    expect(first.status).toBe(429);
    expect(first.json.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED", message: "Too many requests. Retry in 3 seconds." });
    const [failure, retryInfo] = first.json.error.details;
    expect(failure).toEqual({
      "@type": FAILURE,
      errors: [
        {
          errorCode: { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" },
          message: "Too many requests. Retry in 3 seconds.",
          details: { quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Requests per developer per minute", retryDelay: "3s" } },
        },
      ],
      requestId: first.headers.get("request-id"),
    });
    expect(retryInfo).toEqual({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" });
    expect(emu.emulator.state.getFaults()).toEqual([expect.objectContaining({ kind: "quota", remaining: 1 })]);
    expect((await search()).status).toBe(429);
    expect((await search()).status).toBe(200);
    expect(emu.emulator.state.getFaults()).toEqual([]);
  });

  it("dailyQuota: 429 quotaError RESOURCE_EXHAUSTED without a retry delay", async () => {
    emu.emulator.state.setFaults([{ match: "ads", kind: "dailyQuota", times: 1 }]);
    const res = await search();
    expect(res.status).toBe(429);
    expect(res.json.error.details).toHaveLength(1);
    expect(res.json.error.details[0].errors[0].errorCode).toEqual({ quotaError: "RESOURCE_EXHAUSTED" });
  });

  it("transient: 500 INTERNAL with internalError TRANSIENT_ERROR, array-wrapped on searchStream", async () => {
    emu.emulator.state.setFaults([{ match: "searchStream", kind: "transient", times: 1 }]);
    expect((await search()).status).toBe(200);
    const res = await stream();
    expect(res.status).toBe(500);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json[0].error).toMatchObject({ code: 500, status: "INTERNAL", message: "Internal error encountered." });
    expect(res.json[0].error.details[0].errors[0].errorCode).toEqual({ internalError: "TRANSIENT_ERROR" });
    expect(res.json[0].error.details[0].requestId).toBe(res.headers.get("request-id"));
    expect((await stream()).status).toBe(200);
  });

  it("internal and unavailable", async () => {
    emu.emulator.state.setFaults([
      { match: "search", kind: "internal", times: 1 },
      { match: "search", kind: "unavailable", times: 1 },
    ]);
    const a = await search();
    expect(a.status).toBe(500);
    expect(a.json.error.details[0].errors[0].errorCode).toEqual({ internalError: "INTERNAL_ERROR" });
    const b = await search();
    expect(b.status).toBe(503);
    expect(b.json.error).toEqual({ code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" });
  });

  it("unauthenticated: 401 OAUTH_TOKEN_EXPIRED although the token is fine", async () => {
    emu.emulator.state.setFaults([{ match: "listAccessibleCustomers", kind: "unauthenticated", times: 1 }]);
    const res = await ads(emu.baseUrl, "customers:listAccessibleCustomers", token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(res.json.error.details[0].errors[0].errorCode).toEqual({ authenticationError: "OAUTH_TOKEN_EXPIRED" });
    expect((await ads(emu.baseUrl, "customers:listAccessibleCustomers", token)).status).toBe(200);
  });

  it("slow: delays, then answers normally", async () => {
    emu.emulator.state.setFaults([{ match: "search", kind: "slow", delayMs: 150, times: 1 }]);
    const t0 = performance.now();
    const res = await search();
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("customerId narrows a rule to one account", async () => {
    emu.emulator.state.setFaults([{ match: "*", kind: "quota", customerId: BIG }]);
    expect((await search(MANAGER)).status).toBe(200);
    expect((await search(BIG)).status).toBe(429);
    expect((await search(BIG)).status).toBe(429);
  });

  it("faults apply only after authentication", async () => {
    emu.emulator.state.setFaults([{ match: "search", kind: "quota" }]);
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, "ya29.bad", { body: { query: Q } });
    expect(res.status).toBe(401);
  });
});

describe("fault kinds on the OAuth endpoints", () => {
  const refresh = () =>
    postForm(`${emu.baseUrl}/token`, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: "test-client.apps.googleusercontent.com" });

  it("token: unauthenticated → invalid_grant, transient → 500 internal_failure, quota → 429", async () => {
    emu.emulator.state.setFaults([
      { match: "token", kind: "unauthenticated", times: 1 },
      { match: "token", kind: "transient", times: 1 },
      { match: "token", kind: "quota", times: 1 },
    ]);
    expect(await refresh()).toMatchObject({ status: 400, json: { error: "invalid_grant", error_description: "Token has been expired or revoked." } });
    expect(await refresh()).toMatchObject({ status: 500, json: { error: "internal_failure" } });
    expect(await refresh()).toMatchObject({ status: 429 });
    expect((await refresh()).status).toBe(200);
  });

  it("'ads' rules leave the token endpoint alone; '*' does not", async () => {
    emu.emulator.state.setFaults([{ match: "ads", kind: "transient" }]);
    expect((await refresh()).status).toBe(200);
    emu.emulator.state.setFaults([{ match: "*", kind: "transient", times: 1 }]);
    expect((await refresh()).status).toBe(500);
  });
});

describe("fault configuration", () => {
  it("parses EMULATOR_FAULTS as a list, a single rule or {faults}", () => {
    expect(parseFaultsEnv('[{"match":"searchStream","kind":"quota","times":2}]')).toEqual([{ match: "searchStream", kind: "quota", times: 2 }]);
    expect(parseFaultsEnv('{"kind":"slow","delayMs":5}')).toEqual([{ match: "*", kind: "slow", delayMs: 5 }]);
    expect(parseFaultsEnv('{"faults":[{"match":"token","kind":"transient"}]}')).toEqual([{ match: "token", kind: "transient" }]);
    expect(parseFaultsEnv("")).toEqual([]);
    expect(parseFaultsEnv(undefined)).toEqual([]);
  });

  it("rejects bad EMULATOR_FAULTS with a readable message", () => {
    expect(() => parseFaultsEnv("{nope")).toThrow(/not valid JSON/);
    expect(() => parseFaultsEnv('[{"match":"search","kind":"explode"}]')).toThrow(/EMULATOR_FAULTS is invalid:\n {2}0\.kind/);
    expect(() => parseFaultsEnv('[{"kind":"quota","customerId":"123-456-7890"}]')).toThrow(/customerId/);
    expect(() => parseFaultsEnv('[{"kind":"quota","typo":1}]')).toThrow(/typo/);
  });

  it("createEmulator({faults}) arms rules from the start", async () => {
    const pre = await startEmulator({ faults: [{ match: "listAccessibleCustomers", kind: "transient", times: 1 }] });
    try {
      const t = (await signIn(pre.baseUrl)).tokens.access_token;
      expect((await ads(pre.baseUrl, "customers:listAccessibleCustomers", t)).status).toBe(500);
      expect((await ads(pre.baseUrl, "customers:listAccessibleCustomers", t)).status).toBe(200);
    } finally {
      await pre.close();
    }
  });

  it("POST/GET/DELETE /__emulator/faults", async () => {
    const set = await fetch(`${emu.baseUrl}/__emulator/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify([{ match: "search", kind: "quota", times: 1 }]),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ faults: [{ match: "search", kind: "quota", times: 1, remaining: 1 }] });
    expect((await search()).status).toBe(429);
    expect(await (await fetch(`${emu.baseUrl}/__emulator/faults`)).json()).toEqual({ faults: [] });

    const bad = await fetch(`${emu.baseUrl}/__emulator/faults`, { method: "POST", body: JSON.stringify([{ kind: "nope" }]) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_faults");

    await fetch(`${emu.baseUrl}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "quota" }) });
    await fetch(`${emu.baseUrl}/__emulator/faults`, { method: "DELETE" });
    expect((await search()).status).toBe(200);
  });

  it("admin routes do not exist unless enabled", async () => {
    const plain = await startEmulator({ enableAdmin: false });
    try {
      const res = await fetch(`${plain.baseUrl}/__emulator/faults`, { method: "POST", body: "[]" });
      expect(res.status).toBe(404);
      expect((await fetch(`${plain.baseUrl}/__emulator/revoke-all`, { method: "POST" })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("close() releases requests parked by a slow fault", async () => {
    const engine = new FaultEngine([{ kind: "slow", delayMs: 60_000 }]);
    expect(engine.decide("search").delayMs).toBe(60_000);
    const parked = await startEmulator({ faults: [{ match: "search", kind: "slow", delayMs: 60_000 }] });
    const t = (await signIn(parked.baseUrl)).tokens.access_token;
    const pending = ads(parked.baseUrl, `customers/${MANAGER}/googleAds:search`, t, { body: { query: Q } }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await parked.close();
    await pending;
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
