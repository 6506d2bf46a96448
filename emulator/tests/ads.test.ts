import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleError } from "../../tests/setup/vitest.setup";
import { BIG, CLIENT, MANAGER, STRANGER, ads, signIn, startEmulator, type Running } from "./helpers";

const FAILURE = "type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure";
const Q = "SELECT campaign.id, metrics.clicks FROM campaign";

let emu: Running;
let token: string;
beforeAll(async () => {
  emu = await startEmulator({ sunsetVersions: ["v19"] });
  token = (await signIn(emu.baseUrl)).tokens.access_token;
});
afterAll(() => emu.close());

function expectFailure(res: { status: number; headers: Headers; json: any }, status: number, grpc: string, errorCode: Record<string, string>) {
  expect(res.status).toBe(status);
  const body = Array.isArray(res.json) ? res.json[0] : res.json;
  expect(body.error.code).toBe(status);
  expect(body.error.status).toBe(grpc);
  const failure = body.error.details.find((d: any) => d["@type"] === FAILURE);
  expect(failure.errors[0].errorCode).toEqual(errorCode);
  const requestId = res.headers.get("request-id");
  expect(requestId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(failure.requestId).toBe(requestId);
  return failure;
}

describe("customers:listAccessibleCustomers", () => {
  it("lists directly accessible customers, with a request-id header", async () => {
    const res = await ads(emu.baseUrl, "customers:listAccessibleCustomers", token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ resourceNames: [`customers/${MANAGER}`, `customers/${BIG}`] });
    expect(res.headers.get("request-id")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  });

  it("works for any vNN version", async () => {
    const res = await fetch(`${emu.baseUrl}/v99/customers:listAccessibleCustomers`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it("answers a sunset version with UNSUPPORTED_VERSION", async () => {
    const res = await fetch(`${emu.baseUrl}/v19/customers:listAccessibleCustomers`, { headers: { Authorization: `Bearer ${token}` } });
    const json = await res.json();
    expect(res.status).toBe(400);
    expect(json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(json.error.details[0]).toEqual({
      "@type": "type.googleapis.com/google.ads.googleads.v19.errors.GoogleAdsFailure",
      errors: [{ errorCode: { requestError: "UNSUPPORTED_VERSION" }, message: "Version v19 is deprecated. Requests to this version will be blocked." }],
      requestId: res.headers.get("request-id"),
    });
  });
});

describe("authentication", () => {
  it("no Authorization header → 401 with Google's missing-credential message", async () => {
    const res = await ads(emu.baseUrl, "customers:listAccessibleCustomers", undefined);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect(res.json.error.status).toBe("UNAUTHENTICATED");
    expect(res.json.error.message).toMatch(/^Request is missing required authentication credential\./);
    expect(res.json.error.details[0]).toMatchObject({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "CREDENTIALS_MISSING" });
  });

  it("unknown token → 401 OAUTH_TOKEN_INVALID", async () => {
    const res = await ads(emu.baseUrl, "customers:listAccessibleCustomers", "ya29.forged");
    expectFailure(res, 401, "UNAUTHENTICATED", { authenticationError: "OAUTH_TOKEN_INVALID" });
    expect(res.json.error.message).toMatch(/^Request had invalid authentication credentials\./);
  });

  it("non-Bearer Authorization → OAUTH_TOKEN_HEADER_INVALID", async () => {
    const res = await ads(emu.baseUrl, "customers:listAccessibleCustomers", undefined, { headers: { Authorization: "Basic abc" } });
    expectFailure(res, 401, "UNAUTHENTICATED", { authenticationError: "OAUTH_TOKEN_HEADER_INVALID" });
  });

  it("expired token → OAUTH_TOKEN_EXPIRED", async () => {
    let now = Date.now();
    const clocked = await startEmulator({ now: () => now, accessTokenTtlSeconds: 60 });
    try {
      const t = (await signIn(clocked.baseUrl)).tokens;
      expect(t.expires_in).toBe(60);
      expect((await ads(clocked.baseUrl, "customers:listAccessibleCustomers", t.access_token)).status).toBe(200);
      now += 61_000;
      expectFailure(await ads(clocked.baseUrl, "customers:listAccessibleCustomers", t.access_token), 401, "UNAUTHENTICATED", {
        authenticationError: "OAUTH_TOKEN_EXPIRED",
      });
    } finally {
      await clocked.close();
    }
  });
});

describe("googleAds:search", () => {
  it("returns results and fieldMask; no requestId in the body", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: Q } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      results: [
        { campaign: { resourceName: `customers/${MANAGER}/campaigns/1`, id: "1" }, metrics: { clicks: "0" } },
        { campaign: { resourceName: `customers/${MANAGER}/campaigns/2`, id: "2" }, metrics: { clicks: "1" } },
        { campaign: { resourceName: `customers/${MANAGER}/campaigns/3`, id: "3" }, metrics: { clicks: "2" } },
      ],
      fieldMask: "campaign.id,metrics.clicks",
      queryResourceConsumption: "42",
    });
  });

  it("pages by 10,000 with nextPageToken, and totalResultsCount on request", async () => {
    const first = await ads(emu.baseUrl, `customers/${BIG}/googleAds:search`, token, {
      body: { query: Q, searchSettings: { returnTotalResultsCount: true } },
    });
    expect(first.json.results).toHaveLength(10_000);
    expect(first.json.totalResultsCount).toBe("25000");
    expect(first.json.nextPageToken).toBeTruthy();
    const last = await ads(emu.baseUrl, `customers/${BIG}/googleAds:search`, token, {
      body: { query: Q, page_token: Buffer.from("20000").toString("base64url") },
    });
    expect(last.json.results).toHaveLength(5_000);
    expect(last.json.nextPageToken).toBeUndefined();
  });

  it("omits results entirely when nothing matches", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: `${Q} EMPTY` } });
    expect(res.status).toBe(200);
    expect("results" in res.json).toBe(false);
    expect(res.json.fieldMask).toBe("campaign.id,metrics.clicks");
  });

  it("rejects pageSize with PAGE_SIZE_NOT_SUPPORTED", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: Q, pageSize: 100 } });
    expectFailure(res, 400, "INVALID_ARGUMENT", { requestError: "PAGE_SIZE_NOT_SUPPORTED" });
  });

  it("passes data-layer query errors through in Google's envelope", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: "SELECT campaign.bad FROM campaign BAD" } });
    const failure = expectFailure(res, 400, "INVALID_ARGUMENT", { queryError: "UNRECOGNIZED_FIELD" });
    expect(res.json.error.message).toBe("Request contains an invalid argument.");
    expect(failure.errors[0].trigger).toEqual({ stringValue: "campaign.bad" });
  });

  it("turns an unexpected data-layer exception into 500 INTERNAL, and logs it", async () => {
    consoleError.mockImplementation(() => {});
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: `${Q} CRASH` } });
    expectFailure(res, 500, "INTERNAL", { internalError: "INTERNAL_ERROR" });
    expect(consoleError).toHaveBeenCalledWith("emulator: data source failed", expect.objectContaining({ requestId: res.headers.get("request-id") }));
  });

  it("malformed JSON → 400 INVALID_ARGUMENT with a BadRequest detail", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: '{"query": "SELECT' });
    expect(res.status).toBe(400);
    expect(res.json.error.status).toBe("INVALID_ARGUMENT");
    expect(res.json.error.message).toMatch(/^Invalid JSON payload received\./);
    expect(res.json.error.details[0]["@type"]).toBe("type.googleapis.com/google.rpc.BadRequest");
  });

  it("unknown body fields and wrong types are rejected like the REST transcoder does", async () => {
    const unknown = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: Q, returnTotalResultsCount: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toBe('Invalid JSON payload received. Unknown name "returnTotalResultsCount": Cannot find field.');
    const typed = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: { query: 5 } });
    expect(typed.json.error.message).toBe("Invalid value at 'query' (TYPE_STRING), 5");
    const root = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:search`, token, { body: "[1]" });
    expect(root.json.error.message).toBe("Invalid JSON payload received. Root element must be a message.");
  });
});

describe("googleAds:searchStream", () => {
  it("returns an array of ≤10,000-row batches sharing the request id", async () => {
    const res = await ads(emu.baseUrl, `customers/${BIG}/googleAds:searchStream`, token, { body: { query: Q } });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json.map((b: any) => b.results.length)).toEqual([10_000, 10_000, 5_000]);
    const rid = res.headers.get("request-id");
    for (const b of res.json) {
      expect(b.requestId).toBe(rid);
      expect(b.fieldMask).toBe("campaign.id,metrics.clicks");
    }
    expect(res.json[2].queryResourceConsumption).toBe("42");
    expect(res.json[0].queryResourceConsumption).toBeUndefined();
  });

  it("an empty result is one batch without results", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, token, { body: { query: `${Q} EMPTY` } });
    expect(res.json).toEqual([{ fieldMask: "campaign.id,metrics.clicks", requestId: res.headers.get("request-id"), queryResourceConsumption: "42" }]);
  });

  it("wraps up-front errors in an array, with the error's HTTP status", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, token, { body: { query: "SELECT x FROM campaign BAD" } });
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json).toHaveLength(1);
    expectFailure(res, 400, "INVALID_ARGUMENT", { queryError: "UNRECOGNIZED_FIELD" });
  });

  it("wraps auth errors in an array too", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, "ya29.bad", { body: { query: Q } });
    expect(Array.isArray(res.json)).toBe(true);
    expectFailure(res, 401, "UNAUTHENTICATED", { authenticationError: "OAUTH_TOKEN_INVALID" });
  });

  it("ends the array with an error element when a later batch fails", async () => {
    const res = await ads(emu.baseUrl, `customers/${BIG}/googleAds:searchStream`, token, { body: { query: `${Q} FAIL_PAGE_2` } });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(2);
    expect(res.json[0].results).toHaveLength(10_000);
    expect(res.json[1].error).toMatchObject({ code: 500, status: "INTERNAL" });
    expect(res.json[1].error.details[0].requestId).toBe(res.headers.get("request-id"));
  });

  it("uses a data source's native queryBatches, re-chunking anything over 10,000 rows", async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => ({ campaign: { id: String(i) } }));
    const base = (await import("./helpers")).fakeDataSource();
    const streaming = await startEmulator({
      dataSource: {
        ...base,
        query: () => {
          throw new Error("search path must not be used for searchStream");
        },
        queryBatches: (_cid: string, gaql: string) => {
          if (gaql.includes("BAD"))
            throw new (class extends Error {
              name = "GoogleAdsFailureError";
              errors = [{ errorCode: { queryError: "EXPECTED_SELECT" }, message: "x" }];
              httpStatus = 400;
              status = "INVALID_ARGUMENT";
            })("Request contains an invalid argument.");
          return [{ results: rows, fieldMask: "campaign.id", queryResourceConsumption: "7" }];
        },
      } as never,
    });
    try {
      const t = (await signIn(streaming.baseUrl)).tokens.access_token;
      const res = await ads(streaming.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, t, { body: { query: Q } });
      expect(res.status).toBe(200);
      expect(res.json.map((b: any) => [b.results.length, b.queryResourceConsumption])).toEqual([
        [10_000, undefined],
        [2_000, "7"],
      ]);
      const bad = await ads(streaming.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, t, { body: { query: "BAD" } });
      expectFailure(bad, 400, "INVALID_ARGUMENT", { queryError: "EXPECTED_SELECT" });
    } finally {
      await streaming.close();
    }
  });

  it("rejects paging fields that only search has", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, token, { body: { query: Q, pageToken: "x" } });
    expect(res.status).toBe(400);
    expect(res.json[0].error.message).toContain('Unknown name "pageToken"');
    const bad = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, token, { body: { query: Q, summaryRowSetting: "ALL" } });
    expect(bad.status).toBe(400);
    const ok = await ads(emu.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, token, { body: { query: Q, summaryRowSetting: "NO_SUMMARY_ROW" } });
    expect(ok.status).toBe(200);
  });
});

describe("customer ids and login-customer-id", () => {
  it("a client under a manager needs login-customer-id = the manager", async () => {
    const without = await ads(emu.baseUrl, `customers/${CLIENT}/googleAds:search`, token, { body: { query: Q } });
    const failure = expectFailure(without, 403, "PERMISSION_DENIED", { authorizationError: "USER_PERMISSION_DENIED" });
    expect(without.json.error.message).toBe("The caller does not have permission");
    expect(failure.errors[0].message).toContain("login-customer-id");

    const withManager = await ads(emu.baseUrl, `customers/${CLIENT}/googleAds:search`, token, {
      body: { query: Q },
      headers: { "login-customer-id": MANAGER },
    });
    expect(withManager.status).toBe(200);
    expect(withManager.json.results).toHaveLength(2);

    const wrongManager = await ads(emu.baseUrl, `customers/${CLIENT}/googleAds:search`, token, { body: { query: Q }, headers: { "login-customer-id": BIG } });
    expect(wrongManager.status).toBe(403);
  });

  it("an account the user cannot reach → USER_PERMISSION_DENIED", async () => {
    expectFailure(await ads(emu.baseUrl, `customers/${STRANGER}/googleAds:search`, token, { body: { query: Q } }), 403, "PERMISSION_DENIED", {
      authorizationError: "USER_PERMISSION_DENIED",
    });
  });

  it("malformed login-customer-id → headerError INVALID_LOGIN_CUSTOMER_ID", async () => {
    const res = await ads(emu.baseUrl, `customers/${CLIENT}/googleAds:search`, token, { body: { query: Q }, headers: { "login-customer-id": "111-111-1111" } });
    expectFailure(res, 400, "INVALID_ARGUMENT", { headerError: "INVALID_LOGIN_CUSTOMER_ID" });
  });

  it("hyphenated customer id → CLIENT_CUSTOMER_ID_INVALID; unknown → CUSTOMER_NOT_FOUND", async () => {
    expectFailure(await ads(emu.baseUrl, `customers/111-111-1111/googleAds:search`, token, { body: { query: Q } }), 401, "UNAUTHENTICATED", {
      authenticationError: "CLIENT_CUSTOMER_ID_INVALID",
    });
    expectFailure(await ads(emu.baseUrl, `customers/9999999999/googleAds:search`, token, { body: { query: Q } }), 401, "UNAUTHENTICATED", {
      authenticationError: "CUSTOMER_NOT_FOUND",
    });
  });
});

describe("routing", () => {
  it("unknown paths get Google's HTML 404", async () => {
    for (const path of ["v24/customers/1111111111/googleAds:frobnicate", "v24/nothing", "nope"]) {
      const res = await fetch(`${emu.baseUrl}/${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain("Error 404 (Not Found)!!1");
      expect(html).toContain(`<code>/${path}</code>`);
    }
  });

  it("the wrong HTTP method is a 404 too", async () => {
    const res = await fetch(`${emu.baseUrl}/v24/customers/${MANAGER}/googleAds:search`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
  });

  it("mutate endpoints exist but answer 501 UNIMPLEMENTED for now", async () => {
    for (const path of [`customers/${MANAGER}/googleAds:mutate`, `customers/${MANAGER}/campaigns:mutate`, `customers/${MANAGER}/adGroupAds:mutate`]) {
      const res = await ads(emu.baseUrl, path, token, { body: { operations: [] } });
      expect(res.status).toBe(501);
      expect(res.json.error).toMatchObject({ code: 501, status: "UNIMPLEMENTED" });
    }
    expect((await ads(emu.baseUrl, `customers/${MANAGER}/campaignz:mutate`, token, { body: {} })).status).toBe(404);
  });

  it("a configured mutate handler receives the parsed request", async () => {
    const seen: unknown[] = [];
    const withMutate = await startEmulator({
      mutate: (r) => {
        seen.push({ customerId: r.customerId, collection: r.collection, body: r.body, login: r.loginCustomerId });
        return { results: [{ resourceName: `customers/${r.customerId}/campaigns/9` }] };
      },
    });
    try {
      const t = (await signIn(withMutate.baseUrl)).tokens.access_token;
      const res = await ads(withMutate.baseUrl, `customers/${CLIENT}/campaigns:mutate`, t, {
        body: { operations: [{ remove: `customers/${CLIENT}/campaigns/9` }] },
        headers: { "login-customer-id": MANAGER },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ results: [{ resourceName: `customers/${CLIENT}/campaigns/9` }] });
      expect(seen).toEqual([
        { customerId: CLIENT, collection: "campaigns", body: { operations: [{ remove: `customers/${CLIENT}/campaigns/9` }] }, login: MANAGER },
      ]);
    } finally {
      await withMutate.close();
    }
  });

  it("other real-but-unemulated methods answer 501 after authentication", async () => {
    const res = await ads(emu.baseUrl, `customers/${MANAGER}:generateKeywordIdeas`, token, { body: {} });
    expect(res.status).toBe(501);
    const anon = await ads(emu.baseUrl, `customers/${MANAGER}:generateKeywordIdeas`, undefined, { body: {} });
    expect(anon.status).toBe(401);
  });
});

describe("searchStream answers rendered ahead (streamCache)", () => {
  it("replies with the live answer's bytes, stamped with each reply's own request id, without asking the data source again", async () => {
    const source = (await import("./helpers")).fakeDataSource();
    const cached = await startEmulator({ dataSource: source, streamCache: true, mutate: async () => ({ results: [] }) });
    try {
      const t = (await signIn(cached.baseUrl)).tokens.access_token;
      const live = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q } });
      expect(cached.emulator.state.streamCacheStats()).toEqual({ hits: 0, misses: 1 });

      const bytes = await cached.emulator.state.prerenderSearchStream(BIG, Q);
      const calls = source.calls.length;
      const first = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q } });
      const second = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q } });
      expect(source.calls.length).toBe(calls);
      expect(cached.emulator.state.streamCacheStats()).toEqual({ hits: 2, misses: 1 });
      for (const reply of [first, second]) {
        const id = reply.headers.get("request-id")!;
        expect(reply.status).toBe(200);
        expect(reply.text).toBe(live.text.replaceAll(live.headers.get("request-id")!, id));
        expect(reply.json.map((b: any) => b.requestId)).toEqual([id, id, id]);
      }
      expect(first.headers.get("request-id")).not.toBe(second.headers.get("request-id"));
      expect(Buffer.byteLength(first.text)).toBe(bytes + 3 * JSON.stringify(first.headers.get("request-id")).length);

      // Another query, or the same query of another customer or with a summary row: built live.
      await ads(cached.baseUrl, `customers/${MANAGER}/googleAds:searchStream`, t, { body: { query: Q } });
      await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q, summaryRowSetting: "SUMMARY_ROW_ONLY" } });
      expect(cached.emulator.state.streamCacheStats()).toEqual({ hits: 2, misses: 3 });

      // Access checks and faults come first, as for a live answer.
      const denied = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, "ya29.bad", { body: { query: Q } });
      expect(denied.status).toBe(401);
      cached.emulator.state.setFaults([{ match: "searchStream", kind: "quota", times: 1 }]);
      const limited = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q } });
      expect(limited.status).toBe(429);

      // A change empties the cache: the next answer is built from the data as it is now.
      const mutated = await ads(cached.baseUrl, `customers/${BIG}/campaigns:mutate`, t, { body: { operations: [] } });
      expect(mutated.status).toBe(200);
      await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: Q } });
      expect(source.calls.length).toBeGreaterThan(calls);
      expect(cached.emulator.state.streamCacheStats()).toMatchObject({ hits: 2 });
    } finally {
      await cached.close();
    }
  });

  it("renders only with streamCache on, and not a query that fails", async () => {
    await expect(emu.emulator.state.prerenderSearchStream(BIG, Q)).rejects.toThrow(/streamCache/);
    expect(emu.emulator.state.streamCacheStats()).toBeNull();
    const cached = await startEmulator({ streamCache: true });
    try {
      await expect(cached.emulator.state.prerenderSearchStream(BIG, "SELECT x FROM campaign BAD")).rejects.toThrow();
      const t = (await signIn(cached.baseUrl)).tokens.access_token;
      const bad = await ads(cached.baseUrl, `customers/${BIG}/googleAds:searchStream`, t, { body: { query: "SELECT x FROM campaign BAD" } });
      expectFailure(bad, 400, "INVALID_ARGUMENT", { queryError: "UNRECOGNIZED_FIELD" });
    } finally {
      await cached.close();
    }
  });
});
