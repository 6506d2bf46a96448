import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIG, MANAGER, fakeDataSource, signIn, startEmulator, type Running } from "./helpers";

// Issue 26 point 5: the emulator serves the current API (v26) and the versions Google still serves, refuses the
// ones it has sunset, and answers a Test-level Cloud project's calls on production accounts as Google does.

const Q = { query: "SELECT campaign.id, metrics.clicks FROM campaign" };

async function call(emu: Running, token: string, version: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.baseUrl}/${version}/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, requestId: res.headers.get("request-id"), json: (await res.json()) as any };
}

describe("versions", () => {
  let emu: Running;
  let token: string;
  beforeAll(async () => {
    emu = await startEmulator();
    token = (await signIn(emu.baseUrl)).tokens.access_token;
  });
  afterAll(() => emu.close());

  it("serves v26 and the versions before it that Google still serves, with the version in the answer's types", async () => {
    for (const version of ["v23", "v24", "v25", "v26"]) {
      const ok = await call(emu, token, version, `customers/${MANAGER}/googleAds:search`, Q);
      expect(ok.status, version).toBe(200);
      expect(ok.json.results.length).toBeGreaterThan(0);
    }
    const bad = await call(emu, token, "v26", `customers/${MANAGER}/googleAds:search`, { query: "SELECT campaign.bad FROM campaign BAD" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details[0]["@type"]).toBe("type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure");
  });

  it("refuses versions Google has sunset (v22 and older) with UNSUPPORTED_VERSION", async () => {
    for (const version of ["v22", "v20"]) {
      const res = await call(emu, token, version, "customers:listAccessibleCustomers");
      expect(res.status).toBe(400);
      expect(res.json.error.details[0]).toEqual({
        "@type": `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
        errors: [
          { errorCode: { requestError: "UNSUPPORTED_VERSION" }, message: `Version ${version} is deprecated. Requests to this version will be blocked.` },
        ],
        requestId: res.requestId,
      });
    }
  });
});

describe("a Test-level Cloud project (EMULATOR_ACCESS_LEVEL=test)", () => {
  let emu: Running;
  let token: string;
  beforeAll(async () => {
    // BIG is a test account here; MANAGER is not.
    emu = await startEmulator({ accessLevel: "test", dataSource: { ...fakeDataSource(), isTestAccount: (id) => id === BIG } });
    token = (await signIn(emu.baseUrl)).tokens.access_token;
  });
  afterAll(() => emu.close());

  it("v25 and later: CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION on a production account, in Google's error shape", async () => {
    for (const version of ["v25", "v26"]) {
      const res = await call(emu, token, version, `customers/${MANAGER}/googleAds:search`, Q);
      expect(res.status).toBe(403);
      expect(res.json.error).toMatchObject({ code: 403, status: "PERMISSION_DENIED", message: "The caller does not have permission" });
      expect(res.json.error.details[0]).toEqual({
        "@type": `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
        errors: [
          {
            errorCode: { authorizationError: "CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION" },
            message:
              "The Google Cloud project is only approved for use with test accounts. To access non-test accounts, apply for Explorer, Basic or Standard access.",
          },
        ],
        requestId: res.requestId,
      });
    }
  });

  it("v24 and older: DEVELOPER_TOKEN_NOT_APPROVED; searchStream wraps it in an array", async () => {
    const res = await call(emu, token, "v24", `customers/${MANAGER}/googleAds:searchStream`, Q);
    expect(res.status).toBe(403);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json[0].error.details[0].errors).toEqual([
      {
        errorCode: { authorizationError: "DEVELOPER_TOKEN_NOT_APPROVED" },
        message: "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.",
      },
    ]);
  });

  it("test accounts and listAccessibleCustomers still work", async () => {
    expect((await call(emu, token, "v26", `customers/${BIG}/googleAds:search`, Q)).status).toBe(200);
    expect((await call(emu, token, "v26", "customers:listAccessibleCustomers")).status).toBe(200);
  });
});
