// @vitest-environment node
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AdsNetworkError,
  AdsOutcomeUnknownError,
  AdsResponseError,
  GoogleAdsApiError,
  InvalidCustomerIdError,
  createAdsClient,
  type AdsClientOptions,
  type AdsRetryEvent,
} from "./client.server";

// A stand-in for googleads.googleapis.com that answers each request with the
// next scripted reply, in Google's own wire format (see shared/google-ads-api).

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}
type Reply = (req: Recorded, res: http.ServerResponse) => void;

let server: http.Server;
let baseUrl: string;
let replies: Reply[];
let requests: Recorded[];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const rec: Recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json };
      requests.push(rec);
      const reply = replies.shift() ?? json404;
      reply(rec, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  replies = [];
  requests = [];
});

let requestCounter = 0;
function send(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (_req, res) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/html; charset=UTF-8" : "application/json; charset=UTF-8",
      "request-id": `req-${++requestCounter}`,
      ...headers,
    });
    res.end(text);
  };
}

const FAILURE = "type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure";

function googleError(
  status: number,
  grpc: string,
  message: string,
  errors: unknown[],
  opts: { requestId?: string; extra?: unknown[]; wrap?: boolean } = {},
): unknown {
  const details: unknown[] = [];
  if (errors.length) details.push({ "@type": FAILURE, errors, ...(opts.requestId ? { requestId: opts.requestId } : {}) });
  details.push(...(opts.extra ?? []));
  const body = { error: { code: status, message, status: grpc, ...(details.length ? { details } : {}) } };
  return opts.wrap ? [body] : body;
}

const transient = () =>
  send(
    500,
    googleError(500, "INTERNAL", "Internal error encountered.", [
      { errorCode: { internalError: "TRANSIENT_ERROR" }, message: "The request failed due to a transient error. Retry." },
    ]),
  );

const json404: Reply = send(404, "<!DOCTYPE html><title>Error 404 (Not Found)!!1</title><p><b>404.</b> That’s an error.");

const hang: Reply = () => {
  /* never answers: the client's timeout has to fire */
};

interface Harness {
  client: ReturnType<typeof createAdsClient>;
  sleeps: number[];
  tokenCalls: boolean[];
  retries: AdsRetryEvent[];
}

function makeClient(overrides: Partial<AdsClientOptions> = {}): Harness {
  const sleeps: number[] = [];
  const tokenCalls: boolean[] = [];
  const retries: AdsRetryEvent[] = [];
  let n = 0;
  const client = createAdsClient({
    baseUrl: `${baseUrl}/`,
    version: "v24",
    developerToken: "dev-token-123",
    getAccessToken: async ({ forceRefresh }) => {
      tokenCalls.push(forceRefresh);
      return forceRefresh ? `ya29.fresh-${++n}` : "ya29.cached";
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onRetry: (e) => retries.push(e),
    ...overrides,
  });
  return { client, sleeps, tokenCalls, retries };
}

async function failure<E extends Error>(promise: Promise<unknown>, type: new (...args: any[]) => E): Promise<E> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

const QUERY = "SELECT campaign.id, campaign.name, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_7_DAYS";

describe("requests", () => {
  it("lists accessible customers with the documented headers and no login-customer-id", async () => {
    replies.push(send(200, { resourceNames: ["customers/1234567890", "customers/9876543210"] }));
    const { client } = makeClient();
    expect(await client.listAccessibleCustomers()).toEqual(["1234567890", "9876543210"]);
    const [req] = requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/v24/customers:listAccessibleCustomers");
    expect(req.headers.authorization).toBe("Bearer ya29.cached");
    expect(req.headers["developer-token"]).toBe("dev-token-123");
    expect(req.headers["login-customer-id"]).toBeUndefined();
    expect(req.headers["content-type"]).toBeUndefined();
  });

  it("treats an account list without resourceNames as empty, and leaves developer-token out when not configured", async () => {
    replies.push(send(200, {}));
    const { client } = makeClient({ developerToken: undefined });
    expect(await client.listAccessibleCustomers()).toEqual([]);
    expect(requests[0].headers["developer-token"]).toBeUndefined();
  });

  it("sends searchStream to the 10-digit customer with login-customer-id and a JSON query body", async () => {
    replies.push(
      send(200, [
        {
          results: [
            { campaign: { resourceName: "customers/1112223334/campaigns/1", id: "1", name: "Brand" }, metrics: { costMicros: "85200000" } },
            { campaign: { resourceName: "customers/1112223334/campaigns/2", id: "9007199254740993", name: "Generic" }, metrics: { costMicros: "0" } },
          ],
          fieldMask: "campaign.id,campaign.name,metrics.costMicros",
          requestId: "stream-req-1",
        },
        {
          results: [{ campaign: { resourceName: "customers/1112223334/campaigns/3", id: "3", name: "Shopping" } }],
          fieldMask: "campaign.id,campaign.name,metrics.costMicros",
          requestId: "stream-req-1",
          queryResourceConsumption: "1202",
        },
        { fieldMask: "campaign.id", requestId: "stream-req-1" },
      ]),
    );
    const { client } = makeClient();
    const rows = await client.searchStream("111-222-3334", QUERY, { loginCustomerId: "123-456-7890" });
    expect(rows).toHaveLength(3);
    // int64 stays a string, even past 2^53: no silent precision loss.
    expect((rows[1].campaign as { id: string }).id).toBe("9007199254740993");
    expect((rows[0].metrics as { costMicros: string }).costMicros).toBe("85200000");
    const [req] = requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v24/customers/1112223334/googleAds:searchStream");
    expect(req.headers["login-customer-id"]).toBe("1234567890");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.json).toEqual({ query: QUERY });
  });

  it("yields searchStream batches with their request id, field mask and resource consumption", async () => {
    replies.push(
      send(200, [
        { results: [{ customer: { id: "1" } }], fieldMask: "customer.id", requestId: "r1" },
        { results: [{ customer: { id: "2" } }], fieldMask: "customer.id", requestId: "r1", queryResourceConsumption: "7" },
        { summaryRow: { metrics: { clicks: "10" } }, requestId: "r1" },
      ]),
    );
    const { client } = makeClient();
    const batches = [];
    for await (const batch of client.searchStreamBatches("1112223334", QUERY, { summaryRowSetting: "SUMMARY_ROW_WITH_RESULTS" })) {
      batches.push(batch);
    }
    expect(batches).toEqual([
      { results: [{ customer: { id: "1" } }], fieldMask: "customer.id", requestId: "r1" },
      { results: [{ customer: { id: "2" } }], fieldMask: "customer.id", requestId: "r1", queryResourceConsumption: "7" },
      { results: [], requestId: "r1", summaryRow: { metrics: { clicks: "10" } } },
    ]);
    expect(requests[0].json).toEqual({ query: QUERY, summaryRowSetting: "SUMMARY_ROW_WITH_RESULTS" });
  });

  it("hands searchStream rows on batch by batch while the body streams in (searchStreamEach)", async () => {
    // Written in pieces, the second only after the first batch has been handed on.
    let writeRest!: () => void;
    const restWritten = new Promise<void>((resolve) => (writeRest = resolve));
    replies.push((_req, res) => {
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "request-id": "r-stream" });
      res.write('[{"results":[{"campaign":{"id":"1","name":"a [}"}}]},');
      void restWritten.then(() => res.end('{"results":[{"campaign":{"id":"2"}}],"fieldMask":"campaign.id"}]'));
    });
    const { client } = makeClient();
    const seen: unknown[][] = [];
    await client.searchStreamEach("1112223334", QUERY, (rows) => {
      seen.push(rows);
      writeRest();
    });
    expect(seen).toEqual([[{ campaign: { id: "1", name: "a [}" } }], [{ campaign: { id: "2" } }]]);
  });

  it("starts searchStreamEach over after an error element mid-stream, telling the caller to discard what it had", async () => {
    const unavailable = { error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } };
    replies.push(
      send(200, [{ results: [{ campaign: { id: "1" } }] }, unavailable]),
      send(200, [{ results: [{ campaign: { id: "1" } }, { campaign: { id: "2" } }] }]),
    );
    const { client, retries } = makeClient();
    const rows: unknown[] = [];
    let restarts = 0;
    await client.searchStreamEach("1112223334", QUERY, (batch) => void rows.push(...batch), {
      onRestart: () => {
        restarts += 1;
        rows.length = 0;
      },
    });
    expect(restarts).toBe(1);
    expect(retries).toHaveLength(1);
    expect(rows).toEqual([{ campaign: { id: "1" } }, { campaign: { id: "2" } }]);
  });

  it("passes a consumer's own error through searchStreamEach without retrying", async () => {
    replies.push(send(200, [{ results: [{ campaign: { id: "1" } }] }]));
    const { client, retries } = makeClient();
    const mine = new Error("row 0 does not match");
    await expect(
      client.searchStreamEach("1112223334", QUERY, () => {
        throw mine;
      }),
    ).rejects.toBe(mine);
    expect(retries).toEqual([]);
  });

  it("reads an empty searchStream ([] or batches without results) as no rows", async () => {
    replies.push(send(200, []), send(200, [{ fieldMask: "campaign.id", requestId: "x" }]));
    const { client } = makeClient();
    expect(await client.searchStream("1112223334", QUERY)).toEqual([]);
    expect(await client.searchStream("1112223334", QUERY)).toEqual([]);
  });

  it("pages search: pageToken and searchSettings in the body, never pageSize, missing results as []", async () => {
    replies.push(send(200, { results: [{ campaign: { id: "1" } }], nextPageToken: "tok-2", totalResultsCount: "3", fieldMask: "campaign.id" }));
    const { client } = makeClient();
    const page = await client.search("1112223334", QUERY, { returnTotalResultsCount: true, pageToken: "tok-1" });
    expect(page).toMatchObject({ results: [{ campaign: { id: "1" } }], nextPageToken: "tok-2", totalResultsCount: 3 });
    expect(page.requestId).toMatch(/^req-/);
    expect(requests[0].path).toBe("/v24/customers/1112223334/googleAds:search");
    expect(requests[0].json).toEqual({ query: QUERY, pageToken: "tok-1", searchSettings: { returnTotalResultsCount: true } });

    replies.push(send(200, { fieldMask: "campaign.id" }));
    expect(await client.search("1112223334", QUERY)).toMatchObject({ results: [] });
    expect(requests[1].json).toEqual({ query: QUERY });
  });

  it("follows nextPageToken in searchAll until the last page", async () => {
    replies.push(
      send(200, { results: [{ n: 1 }, { n: 2 }], nextPageToken: "p2" }),
      send(200, { results: [{ n: 3 }], nextPageToken: "p3" }),
      send(200, { results: [{ n: 4 }] }),
    );
    const { client } = makeClient();
    expect(await client.searchAll("1112223334", QUERY, { loginCustomerId: "1234567890" })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(requests.map((r) => r.json.pageToken)).toEqual([undefined, "p2", "p3"]);
    expect(requests.every((r) => r.json.query === QUERY && r.headers["login-customer-id"] === "1234567890")).toBe(true);
  });

  it("posts mutates to the collection path, adding validateOnly when asked", async () => {
    replies.push(send(200, { results: [{ resourceName: "customers/1112223334/campaignBudgets/11" }] }), send(200, {}));
    const { client } = makeClient();
    const body = { operations: [{ create: { name: "B1", amountMicros: "20000000", deliveryMethod: "STANDARD" } }] };
    const result = await client.mutate<{ results: Array<{ resourceName: string }> }>("1112223334", "campaignBudgets:mutate", body, {
      loginCustomerId: "1234567890",
    });
    expect(result.results[0].resourceName).toBe("customers/1112223334/campaignBudgets/11");
    expect(requests[0].path).toBe("/v24/customers/1112223334/campaignBudgets:mutate");
    expect(requests[0].json).toEqual(body);
    expect(await client.mutate("1112223334", "googleAds:mutate", { mutateOperations: [] }, { validateOnly: true })).toEqual({});
    expect(requests[1].path).toBe("/v24/customers/1112223334/googleAds:mutate");
    expect(requests[1].json).toEqual({ mutateOperations: [], validateOnly: true });
  });

  it("rejects malformed customer ids, login ids and mutate paths before any request", async () => {
    const { client, tokenCalls } = makeClient();
    for (const bad of ["123456789", "12345678901", "123-4567-890", "customers/1234567890", "abcdefghij", "", " 123 456 7890"]) {
      const error = await failure(client.searchStream(bad, QUERY), InvalidCustomerIdError);
      expect(error.message).toContain("10 digits");
    }
    await failure(client.search("1112223334", QUERY, { loginCustomerId: "12-34" }), InvalidCustomerIdError);
    await failure(client.mutate("1112223334", "../campaigns:mutate", {}), RangeError);
    await failure(client.searchStreamBatches("nope", QUERY).next(), InvalidCustomerIdError);
    expect(requests).toHaveLength(0);
    expect(tokenCalls).toHaveLength(0);
  });

  it("reports a 2xx body that is not JSON as a response error, without retrying", async () => {
    replies.push(send(200, "<html>captive portal</html>"));
    const { client } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), AdsResponseError);
    expect(error.message).toContain("not JSON");
    expect(requests).toHaveLength(1);
  });
});

describe("error bodies", () => {
  it("surfaces the GoogleAdsFailure reason of a 403 and takes the request id from the header when the body has none", async () => {
    replies.push(
      send(
        403,
        googleError(403, "PERMISSION_DENIED", "The caller does not have permission", [{ errorCode: { authorizationError: "USER_PERMISSION_DENIED" } }]),
        { "request-id": "hdr-req-7" },
      ),
    );
    const { client, sleeps } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({
      httpStatus: 403,
      grpcStatus: "PERMISSION_DENIED",
      requestId: "hdr-req-7",
      retryable: false,
      kind: "permission",
    });
    expect(error.errors).toEqual([
      { code: "authorizationError.USER_PERMISSION_DENIED", category: "authorizationError", value: "USER_PERMISSION_DENIED", message: "" },
    ]);
    expect(error.userMessage).toContain("no access to this Google Ads account");
    expect(error.userMessage).toContain("authorizationError.USER_PERMISSION_DENIED");
    expect(error.userMessage).toContain("hdr-req-7");
    expect(error.hasCode("authorizationError.USER_PERMISSION_DENIED")).toBe(true);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("prefers Google's own message and the body's request id (DEVELOPER_TOKEN_NOT_APPROVED)", async () => {
    const message = "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.";
    replies.push(
      send(
        403,
        googleError(
          403,
          "PERMISSION_DENIED",
          "The caller does not have permission",
          [{ errorCode: { authorizationError: "DEVELOPER_TOKEN_NOT_APPROVED" }, message }],
          { requestId: "ctPQxfy09Y6rARFlyeiW6w" },
        ),
      ),
    );
    const { client } = makeClient();
    const error = await failure(client.listAccessibleCustomers(), GoogleAdsApiError);
    expect(error.requestId).toBe("ctPQxfy09Y6rARFlyeiW6w");
    expect(error.userMessage).toMatch(
      new RegExp(
        `^Google Ads rejected the request: ${message.replace(/[.()]/g, "\\$&")} Since developer tokens were retired \\(2026-09-09\\) this means the Google Cloud project that owns this app's OAuth client \\(GOOGLE_CLIENT_ID\\) has Test access.*GOOGLE_ADS_DEVELOPER_TOKEN is not needed\\. Apply for Explorer access .*https://console\\.cloud\\.google\\.com/google/ads-apis/overview.* \\[authorizationError\\.DEVELOPER_TOKEN_NOT_APPROVED; request ID ctPQxfy09Y6rARFlyeiW6w\\]$`,
      ),
    );
  });

  // Issue 26 point 5: what to apply for, and where (Google's message names only the access level).
  it("says what to apply for and where on CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION (v25+)", async () => {
    const message =
      "The Google Cloud project is only approved for use with test accounts. To access non-test accounts, apply for Explorer, Basic or Standard access.";
    replies.push(
      send(
        403,
        googleError(403, "PERMISSION_DENIED", "The caller does not have permission", [
          { errorCode: { authorizationError: "CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION" }, message },
        ]),
      ),
    );
    const { client } = makeClient();
    const error = await failure(client.listAccessibleCustomers(), GoogleAdsApiError);
    expect(error).toMatchObject({ kind: "permission", retryable: false });
    expect(
      error.userMessage.startsWith(
        `Google Ads rejected the request: ${message} The Google Cloud project that owns this app's OAuth client (GOOGLE_CLIENT_ID) has Test access`,
      ),
    ).toBe(true);
    expect(error.userMessage).toContain("Apply for Explorer access (up to 2,880 operations a day on real accounts");
    expect(error.userMessage).toContain("Google Cloud Console, https://console.cloud.google.com/google/ads-apis/overview");
    expect(error.userMessage).toContain("https://developers.google.com/google-ads/api/docs/api-policy/access-levels");
    expect(error.userMessage).toMatch(/\[authorizationError\.CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION; request ID [^\]]+\]$/);
    expect(requests).toHaveLength(1);
  });

  it("parses the array-wrapped searchStream error form", async () => {
    replies.push(
      send(
        400,
        googleError(
          400,
          "INVALID_ARGUMENT",
          "Request contains an invalid argument.",
          [
            {
              errorCode: { queryError: "INVALID_VALUE_WITH_DURING_OPERATOR" },
              message: "Invalid date literal supplied for DURING operator: LAST_90_DAYS.",
              trigger: { stringValue: "LAST_90_DAYS" },
            },
          ],
          { requestId: "FAk-3h1TY-uJkxzKVt6jJg", wrap: true },
        ),
      ),
    );
    const { client } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ httpStatus: 400, grpcStatus: "INVALID_ARGUMENT", requestId: "FAk-3h1TY-uJkxzKVt6jJg", kind: "invalidRequest" });
    expect(error.errors[0]).toMatchObject({ code: "queryError.INVALID_VALUE_WITH_DURING_OPERATOR", trigger: "LAST_90_DAYS" });
    expect(error.userMessage).toContain("Invalid date literal supplied for DURING operator: LAST_90_DAYS.");
    expect(requests).toHaveLength(1);
  });

  it("flattens field paths of mutate errors and never retries validation errors", async () => {
    replies.push(
      send(
        400,
        googleError(
          400,
          "INVALID_ARGUMENT",
          "Request contains an invalid argument.",
          [
            {
              errorCode: { campaignBudgetError: "DUPLICATE_NAME" },
              message: "Budget names must be unique.",
              trigger: { stringValue: "Budget A" },
              location: { fieldPathElements: [{ fieldName: "operations", index: 1 }, { fieldName: "create" }, { fieldName: "name" }] },
            },
            {
              errorCode: { fieldError: "REQUIRED" },
              message: "Required field was not specified.",
              location: { fieldPathElements: [{ fieldName: "operations", index: 2 }, { fieldName: "create" }, { fieldName: "amount_micros" }] },
            },
          ],
          { requestId: "mut-1" },
        ),
      ),
    );
    const { client, sleeps } = makeClient();
    const error = await failure(client.mutate("1112223334", "campaignBudgets:mutate", { operations: [] }), GoogleAdsApiError);
    expect(error.errors.map((e) => e.fieldPath)).toEqual(["operations[1].create.name", "operations[2].create.amount_micros"]);
    expect(error.errors[0].trigger).toBe("Budget A");
    expect(error.userMessage).toContain("Budget names must be unique. (at operations[1].create.name) (and 1 more error)");
    expect(error.retryable).toBe(false);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("reads google.rpc.ErrorInfo ACCESS_TOKEN_SCOPE_INSUFFICIENT as an authentication problem without refreshing", async () => {
    replies.push(
      send(
        403,
        googleError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [], {
          extra: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
              domain: "googleapis.com",
              metadata: { service: "googleads.googleapis.com", method: "google.ads.googleads.v24.services.GoogleAdsService.SearchStream" },
            },
          ],
          wrap: true,
        }),
      ),
    );
    const { client, tokenCalls } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", kind: "authentication", retryable: false, errors: [] });
    expect(error.hasCode("ACCESS_TOKEN_SCOPE_INSUFFICIENT")).toBe(true);
    expect(error.userMessage).toContain("did not grant access to Google Ads");
    expect(tokenCalls).toEqual([false]);
  });

  it("describes an HTML 404 from the front end and points at the URL or version", async () => {
    replies.push(json404);
    const { client } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ httpStatus: 404, grpcStatus: undefined, kind: "notFound", retryable: false });
    expect(error.userMessage).toContain("HTTP 404");
    expect(error.userMessage).toContain("POST /v24/customers/1112223334/googleAds:searchStream");
    expect(error.userMessage).toContain("API URL or version");
    expect(error.requestId).toMatch(/^req-/);
    expect(requests).toHaveLength(1);
  });

  it("turns an error that arrives mid-stream after a 200 into the same error type", async () => {
    replies.push(
      send(200, [
        { results: [{ campaign: { id: "1" } }], requestId: "mid-1" },
        googleError(
          403,
          "PERMISSION_DENIED",
          "The caller does not have permission",
          [
            {
              errorCode: { authorizationError: "CUSTOMER_NOT_ENABLED" },
              message: "The customer account can't be accessed because it is not yet enabled or has been deactivated.",
            },
          ],
          { requestId: "mid-1" },
        ),
      ]),
    );
    const { client } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ httpStatus: 403, requestId: "mid-1", kind: "permission" });
    expect(error.errors[0].code).toBe("authorizationError.CUSTOMER_NOT_ENABLED");
  });

  it("never puts the access token into an error", async () => {
    replies.push(send(401, googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", [])));
    replies.push(send(401, googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", [])));
    const { client } = makeClient();
    const error = await failure(client.listAccessibleCustomers(), GoogleAdsApiError);
    const everything = JSON.stringify({ ...error, message: error.message, userMessage: error.userMessage });
    expect(everything).not.toContain("ya29");
  });
});

describe("retries", () => {
  it("retries a transient error up to 3 times with growing full-jitter waits, then throws it", async () => {
    replies.push(transient(), transient(), transient(), transient(), transient());
    const { client, sleeps, retries } = makeClient({ random: () => 0.999 });
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error.retryable).toBe(true);
    expect(error.kind).toBe("transient");
    expect(error.userMessage).toContain("The request failed due to a transient error");
    expect(requests).toHaveLength(4);
    expect(sleeps).toEqual([999, 1998, 3996]);
    expect(retries.map((r) => [r.operation, r.retry])).toEqual([
      ["searchStream", 1],
      ["searchStream", 2],
      ["searchStream", 3],
    ]);
  });

  it("caps each wait at maxBackoffMs and respects maxRetries", async () => {
    for (let i = 0; i < 6; i++) replies.push(send(503, googleError(503, "UNAVAILABLE", "The service is currently unavailable.", [])));
    const { client, sleeps } = makeClient({ random: () => 1, maxRetries: 5, maxBackoffMs: 3000 });
    await failure(client.search("1112223334", QUERY), GoogleAdsApiError);
    expect(requests).toHaveLength(6);
    expect(sleeps).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it("succeeds after transient failures and a 503 without a body", async () => {
    replies.push(transient(), send(503, ""), send(200, [{ results: [{ campaign: { id: "1" } }] }]));
    const { client, sleeps } = makeClient();
    expect(await client.searchStream("1112223334", QUERY)).toEqual([{ campaign: { id: "1" } }]);
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it("retries a transient error that arrives inside a 200 searchStream body", async () => {
    replies.push(
      send(200, [
        { results: [{ campaign: { id: "1" } }] },
        googleError(500, "INTERNAL", "Internal error encountered.", [
          { errorCode: { internalError: "INTERNAL_ERROR" }, message: "An internal error has occurred." },
        ]),
      ]),
      send(200, [{ results: [{ campaign: { id: "1" } }, { campaign: { id: "2" } }] }]),
    );
    const { client } = makeClient();
    expect(await client.searchStream("1112223334", QUERY)).toHaveLength(2);
    expect(requests).toHaveLength(2);
  });

  it("honours the retry delay of a 429 (quotaErrorDetails and google.rpc.RetryInfo)", async () => {
    replies.push(
      send(
        429,
        googleError(
          429,
          "RESOURCE_EXHAUSTED",
          "Too many requests. Retry in 2 seconds.",
          [
            {
              errorCode: { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" },
              message: "Too many requests. Retry in 2 seconds.",
              details: { quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Requests per developer per minute", retryDelay: "2s" } },
            },
          ],
          { extra: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2.500s" }] },
        ),
      ),
      send(200, [{ results: [{ customer: { id: "1" } }] }]),
    );
    const { client, sleeps } = makeClient({ random: () => 0 });
    expect(await client.searchStream("1112223334", QUERY)).toHaveLength(1);
    expect(sleeps).toEqual([2500]);
  });

  it("keeps the jittered backoff when it is longer than Google's retry delay", async () => {
    replies.push(
      send(
        429,
        googleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [], {
          extra: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.2s" }],
        }),
      ),
      send(200, { results: [] }),
    );
    const { client, sleeps } = makeClient({ random: () => 0.9 });
    await client.search("1112223334", QUERY);
    expect(sleeps).toEqual([900]);
  });

  it("gives up at once when Google asks for a longer pause than the cap, keeping the delay on the error", async () => {
    replies.push(
      send(
        429,
        googleError(429, "RESOURCE_EXHAUSTED", "Too many requests. Retry in 60 seconds.", [
          {
            errorCode: { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" },
            message: "Too many requests. Retry in 60 seconds.",
            details: { quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Requests per developer per minute", retryDelay: "60s" } },
          },
        ]),
      ),
    );
    const { client, sleeps } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ retryable: true, retryDelayMs: 60_000, kind: "quota" });
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("does not retry the daily operations cap (quotaError RESOURCE_EXHAUSTED without a delay)", async () => {
    replies.push(
      send(
        429,
        googleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
          { errorCode: { quotaError: "RESOURCE_EXHAUSTED" }, message: "Number of operations for basic access has been exceeded." },
        ]),
      ),
    );
    const { client } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ retryable: false, kind: "quota" });
    expect(requests).toHaveLength(1);
  });

  it("does not retry INVALID_ARGUMENT or PERMISSION_DENIED", async () => {
    replies.push(
      send(
        400,
        googleError(
          400,
          "INVALID_ARGUMENT",
          "Request contains an invalid argument.",
          [{ errorCode: { requestError: "UNSUPPORTED_VERSION" }, message: "Version v20 is deprecated. Requests to this version will be blocked." }],
          { requestId: "abc123" },
        ),
      ),
      send(403, googleError(403, "PERMISSION_DENIED", "The caller does not have permission", [])),
    );
    const { client, sleeps } = makeClient();
    const invalid = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(invalid.userMessage).toContain("Version v20 is deprecated");
    const denied = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(denied.userMessage).toContain("The caller does not have permission");
    expect(requests).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("retries a mutate that Google refused with CONCURRENT_MODIFICATION or TRANSIENT_ERROR", async () => {
    replies.push(
      send(
        409,
        googleError(409, "ABORTED", "The operation was aborted.", [
          {
            errorCode: { databaseError: "CONCURRENT_MODIFICATION" },
            message: "Multiple requests were attempting to modify the same resource at once. Retry the request.",
          },
        ]),
      ),
      transient(),
      send(200, { results: [{ resourceName: "customers/1112223334/campaigns/5" }] }),
    );
    const { client } = makeClient();
    const body = { operations: [{ update: { resourceName: "customers/1112223334/campaigns/5", status: "PAUSED" }, updateMask: "status" }] };
    await client.mutate("1112223334", "campaigns:mutate", body);
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.body === JSON.stringify(body))).toBe(true);
  });
});

describe("access token refresh", () => {
  const expired = () =>
    send(
      401,
      googleError(
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        [{ errorCode: { authenticationError: "OAUTH_TOKEN_EXPIRED" }, message: "Oauth token is expired." }],
      ),
    );

  it("refreshes once on 401 and replays with the new token", async () => {
    replies.push(expired(), send(200, { resourceNames: ["customers/1112223334"] }));
    const { client, tokenCalls, sleeps } = makeClient();
    expect(await client.listAccessibleCustomers()).toEqual(["1112223334"]);
    expect(tokenCalls).toEqual([false, true]);
    expect(requests.map((r) => r.headers.authorization)).toEqual(["Bearer ya29.cached", "Bearer ya29.fresh-1"]);
    expect(sleeps).toEqual([]);
  });

  it("throws the second 401 after exactly one refresh", async () => {
    replies.push(expired(), expired(), send(200, {}));
    const { client, tokenCalls } = makeClient();
    const error = await failure(client.searchStream("1112223334", QUERY), GoogleAdsApiError);
    expect(error).toMatchObject({ httpStatus: 401, kind: "authentication", retryable: false });
    expect(error.userMessage).toContain("Oauth token is expired.");
    expect(tokenCalls.filter(Boolean)).toHaveLength(1);
    expect(requests).toHaveLength(2);
  });

  it("replays a mutate after a 401, which Google answers before doing anything", async () => {
    replies.push(expired(), send(200, { results: [{}] }));
    const { client } = makeClient();
    await client.mutate("1112223334", "campaigns:mutate", { operations: [] });
    expect(requests).toHaveLength(2);
  });
});

describe("timeouts and network failures", () => {
  it("retries a read after a timeout", async () => {
    replies.push(hang, send(200, [{ results: [{ campaign: { id: "1" } }] }]));
    const { client, sleeps } = makeClient({ timeoutMs: 100 });
    expect(await client.searchStream("1112223334", QUERY)).toHaveLength(1);
    expect(requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it("reports a read that keeps timing out as a network error", async () => {
    replies.push(hang, hang);
    const { client } = makeClient({ timeoutMs: 50, maxRetries: 1 });
    const error = await failure(client.listAccessibleCustomers(), AdsNetworkError);
    expect(error).toMatchObject({ timedOut: true, retryable: true });
    expect(error.userMessage).toContain("did not answer in time");
    expect(requests).toHaveLength(2);
  });

  it("never retries a mutate after a timeout: the outcome is unknown", async () => {
    replies.push(hang, send(200, { results: [{}] }));
    const { client, sleeps } = makeClient({ timeoutMs: 100 });
    const error = await failure(
      client.mutate("1112223334", "campaignBudgets:mutate", {
        operations: [{ update: { resourceName: "customers/1112223334/campaignBudgets/2", amountMicros: "700000000" }, updateMask: "amount_micros" }],
      }),
      AdsOutcomeUnknownError,
    );
    expect(error).toMatchObject({ timedOut: true, retryable: false });
    expect(error.userMessage).toContain("could not confirm whether Google Ads applied this change");
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("never retries a mutate whose connection dropped after it was sent", async () => {
    replies.push((_req, res) => res.socket?.destroy(), send(200, {}));
    const { client } = makeClient();
    const error = await failure(client.mutate("1112223334", "adGroupCriteria:mutate", { operations: [] }), AdsOutcomeUnknownError);
    expect(error.timedOut).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it("treats a 504 or an unexplained 500 on a mutate as an unknown outcome", async () => {
    replies.push(send(504, googleError(504, "DEADLINE_EXCEEDED", "Deadline exceeded.", [])), send(500, ""));
    const { client } = makeClient();
    const first = await failure(client.mutate("1112223334", "campaigns:mutate", { operations: [] }), AdsOutcomeUnknownError);
    expect(first.cause).toBeInstanceOf(GoogleAdsApiError);
    expect(first.message).toContain("504 DEADLINE_EXCEEDED");
    await failure(client.mutate("1112223334", "campaigns:mutate", { operations: [] }), AdsOutcomeUnknownError);
    expect(requests).toHaveLength(2);
  });

  it("retries a validateOnly mutate after a timeout, since it writes nothing", async () => {
    replies.push(hang, send(200, {}));
    const { client } = makeClient({ timeoutMs: 100 });
    expect(await client.mutate("1112223334", "campaigns:mutate", { operations: [] }, { validateOnly: true })).toEqual({});
    expect(requests).toHaveLength(2);
  });

  it("retries even a mutate when the connection was refused (nothing was sent)", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let calls = 0;
    const { client, sleeps } = makeClient({
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await failure(client.mutate("1112223334", "campaigns:mutate", { operations: [] }), AdsNetworkError);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.timedOut).toBe(false);
    expect(calls).toBe(4);
    expect(sleeps).toHaveLength(3);
  });

  it("treats an unclassified fetch failure on a mutate as an unknown outcome", async () => {
    const { client } = makeClient({
      fetch: async () => {
        throw new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
      },
    });
    const error = await failure(client.mutate("1112223334", "campaigns:mutate", { operations: [] }), AdsOutcomeUnknownError);
    expect(error.message).toContain("UND_ERR_SOCKET");
  });
});
