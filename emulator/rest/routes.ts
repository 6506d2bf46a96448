import type { ServerResponse } from "node:http";
import {
  GoogleAdsFailureError,
  type AdsDataSource,
  type GoogleAdsErrorEntry,
  type QueryBatch,
  type QueryPage,
  type StreamingAdsDataSource,
} from "../ads/contract";
import type { EmulatorContext } from "../context";
import type { FaultOperation, ParsedFaultRule } from "../faults";
import { GoogleApiError, MSG, errorBody, errorInfo, notFoundHtml } from "../http/google-errors";
import { bearerToken, headerValue, newRequestId, readBody, sendHtml, sendJson, type MaybeExpressRequest } from "../http/util";
import { ADWORDS_SCOPE } from "../oauth/scopes";
import { SEARCH_REQUEST, checkMessage, parseJsonObject, searchStreamRequest } from "./body";
import { REST_METHODS } from "./methods";
import { REQUEST_ID_MARK, type RenderedStream } from "./stream-cache";
import { mutateOperationCount, type OperationMethod } from "../quota";

/**
 * The Google Ads REST surface at /{vNN}/...: routing, authentication, the
 * customer-access checks, faults, and the search / searchStream /
 * listAccessibleCustomers methods on top of an AdsDataSource.
 */

export const ADS_PATH = /^\/(v\d+)([/:].*)$/;

/** Rows per search page and per searchStream batch. */
export const PAGE_ROWS = 10_000;

type AdsRoute =
  | { op: "listAccessibleCustomers" }
  | { op: "search" | "searchStream"; customerId: string }
  | { op: "mutate"; customerId: string; collection: string }
  | { op: "unimplemented"; customerId?: string; methodId: string };

const KNOWN = REST_METHODS.map(([httpMethod, template, methodId]) => ({
  httpMethod,
  methodId,
  re: new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  ),
  customerScoped: template.startsWith("/customers/{"),
}));

function resolve(method: string, rest: string): AdsRoute | undefined {
  const seg = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  if (rest === "/customers:listAccessibleCustomers") return method === "GET" ? { op: "listAccessibleCustomers" } : undefined;
  let m = /^\/customers\/([^/]+)\/googleAds:(search|searchStream|mutate)$/.exec(rest);
  if (m) {
    if (method !== "POST") return undefined;
    if (m[2] === "mutate") return { op: "mutate", customerId: seg(m[1]!), collection: "googleAds" };
    return { op: m[2] as "search" | "searchStream", customerId: seg(m[1]!) };
  }
  const known = KNOWN.find((k) => k.httpMethod === method && k.re.test(rest));
  if (!known) return undefined;
  m = /^\/customers\/([^/]+)\/([A-Za-z]+):mutate$/.exec(rest) ?? /^\/(customers)\/([^/:]+):mutate$/.exec(rest);
  if (m) {
    return m[1] === "customers"
      ? { op: "mutate", customerId: seg(m[2]!), collection: "customers" }
      : { op: "mutate", customerId: seg(m[1]!), collection: m[2]! };
  }
  const cid = known.customerScoped ? /^\/customers\/([^/:]+)/.exec(rest)?.[1] : undefined;
  return { op: "unimplemented", customerId: cid ? seg(cid) : undefined, methodId: known.methodId };
}

function rpcMethod(version: string, route: AdsRoute): string | undefined {
  const svc = `google.ads.googleads.${version}.services`;
  switch (route.op) {
    case "listAccessibleCustomers":
      return `${svc}.CustomerService.ListAccessibleCustomers`;
    case "search":
      return `${svc}.GoogleAdsService.Search`;
    case "searchStream":
      return `${svc}.GoogleAdsService.SearchStream`;
    case "mutate":
      return route.collection === "googleAds" ? `${svc}.GoogleAdsService.Mutate` : undefined;
    default:
      return undefined;
  }
}

const adsError = (httpStatus: number, status: string, message: string, errors: GoogleAdsErrorEntry[]) =>
  new GoogleApiError(httpStatus, status, message, errors);

const AUTH_CHALLENGE = 'Bearer realm="https://accounts.google.com/"';

function authError(code: string, message: string, topMessage: string = MSG.CREDENTIALS_INVALID): GoogleApiError {
  return new GoogleApiError(401, "UNAUTHENTICATED", topMessage, [{ errorCode: { authenticationError: code }, message }], [], {
    "WWW-Authenticate": `${AUTH_CHALLENGE}, error="invalid_token"`,
  });
}

export function adsFault(fault: ParsedFaultRule): GoogleApiError {
  switch (fault.kind) {
    case "quota": {
      const seconds = fault.retryDelaySeconds ?? 2;
      const text = `Too many requests. Retry in ${seconds} seconds.`;
      return new GoogleApiError(
        429,
        "RESOURCE_EXHAUSTED",
        text,
        [
          {
            errorCode: { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" },
            message: text,
            details: {
              quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Requests per developer per minute", retryDelay: `${seconds}s` },
            },
          } as GoogleAdsErrorEntry,
        ],
        [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${seconds}s` }],
      );
    }
    case "dailyQuota":
      return adsError(429, "RESOURCE_EXHAUSTED", MSG.RESOURCE_EXHAUSTED, [{ errorCode: { quotaError: "RESOURCE_EXHAUSTED" }, message: "Too many requests." }]);
    case "transient":
      return adsError(500, "INTERNAL", MSG.INTERNAL, [
        {
          errorCode: { internalError: "TRANSIENT_ERROR" },
          message: "Google Ads API encountered an unexpected transient error. The user should retry their request in these cases.",
        },
      ]);
    case "internal":
      return adsError(500, "INTERNAL", MSG.INTERNAL, [
        { errorCode: { internalError: "INTERNAL_ERROR" }, message: "Google Ads API encountered unexpected internal error." },
      ]);
    case "unavailable":
      return new GoogleApiError(503, "UNAVAILABLE", MSG.UNAVAILABLE);
    case "unauthenticated":
      return authError("OAUTH_TOKEN_EXPIRED", "OAuth token in the header has expired.");
    default:
      return adsError(500, "INTERNAL", MSG.INTERNAL, [
        { errorCode: { internalError: "INTERNAL_ERROR" }, message: "Google Ads API encountered unexpected internal error." },
      ]);
  }
}

/** The data layer may be loaded as a second module instance (vite SSR vs tsx); match by shape too. */
function asFailure(error: unknown): GoogleAdsFailureError | undefined {
  if (error instanceof GoogleAdsFailureError) return error;
  const e = error as Partial<GoogleAdsFailureError> | null;
  if (e && e.name === "GoogleAdsFailureError" && Array.isArray(e.errors)) return e as GoogleAdsFailureError;
  return undefined;
}

function toGoogleError(ctx: EmulatorContext, error: unknown, requestId: string): GoogleApiError {
  if (error instanceof GoogleApiError) return error;
  const failure = asFailure(error);
  if (failure) return new GoogleApiError(failure.httpStatus, failure.status, failure.message, failure.errors);
  ctx.log.error?.("emulator: data source failed", { requestId, error: error instanceof Error ? error.stack : String(error) });
  return adsError(500, "INTERNAL", MSG.INTERNAL, [
    { errorCode: { internalError: "INTERNAL_ERROR" }, message: "Google Ads API encountered unexpected internal error." },
  ]);
}

function sendError(res: ServerResponse, err: GoogleApiError, version: string, requestId: string, wrapInArray: boolean): void {
  const body = errorBody(err, version, requestId);
  sendJson(res, err.httpStatus, wrapInArray ? [body] : body, { ...err.headers, Vary: "Origin, X-Origin, Referer" });
}

export async function handleAds(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, path: string, displayPath: string): Promise<void> {
  const requestId = newRequestId();
  res.setHeader("request-id", requestId);
  const [, version, rest] = ADS_PATH.exec(path)!;
  const route = resolve(req.method ?? "GET", rest!);
  if (!route) {
    sendHtml(res, 404, notFoundHtml(displayPath));
    return;
  }
  const wrap = route.op === "searchStream";
  const meter = new RequestMeter(ctx, route.op === "unimplemented" ? "other" : route.op);
  try {
    await run(ctx, req, res, version!, route, requestId, meter);
  } catch (error) {
    // A request Google refused after authenticating it still counts (one operation).
    meter.settle();
    if (res.headersSent) throw error;
    sendError(res, toGoogleError(ctx, error, requestId), version!, requestId, wrap);
  }
}

/** Counts one authenticated request once, with its operations (emulator/quota.ts). */
class RequestMeter {
  private authenticated = false;
  private charged = false;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly method: OperationMethod,
  ) {}

  authenticate(): void {
    this.authenticated = true;
  }

  /** Counts the request; throws Google's daily-cap error when it does not fit in the day's operations. */
  charge(ops = 1): void {
    if (this.charged) return;
    this.charged = true;
    const refused = this.ctx.operations.charge(this.method, ops);
    if (refused) throw refused;
  }

  /** A request that failed before it was charged: one operation. */
  settle(): void {
    if (this.authenticated && !this.charged) {
      this.charged = true;
      this.ctx.operations.charge(this.method, 1);
    }
  }
}

async function run(
  ctx: EmulatorContext,
  req: MaybeExpressRequest,
  res: ServerResponse,
  version: string,
  route: AdsRoute,
  requestId: string,
  meter: RequestMeter,
): Promise<void> {
  if (ctx.sunsetVersions.has(version)) {
    throw adsError(400, "INVALID_ARGUMENT", MSG.INVALID_ARGUMENT, [
      { errorCode: { requestError: "UNSUPPORTED_VERSION" }, message: `Version ${version} is deprecated. Requests to this version will be blocked.` },
    ]);
  }

  // Authentication: the token must be a live one from this emulator's token endpoint.
  const token = bearerToken(req);
  if (token === undefined) {
    throw new GoogleApiError(401, "UNAUTHENTICATED", MSG.CREDENTIALS_MISSING, [], [errorInfo("CREDENTIALS_MISSING", rpcMethod(version, route))], {
      "WWW-Authenticate": AUTH_CHALLENGE,
    });
  }
  if (token === null) throw authError("OAUTH_TOKEN_HEADER_INVALID", "OAuth token HTTP header is malformed.");
  const lookup = ctx.oauth.lookupAccessToken(token);
  if (lookup.status !== "ok") {
    if (lookup.status === "expired") throw authError("OAUTH_TOKEN_EXPIRED", "OAuth token in the header has expired.");
    if (lookup.status === "revoked") throw authError("OAUTH_TOKEN_REVOKED", "OAuth token in the header has been revoked.");
    throw authError("OAUTH_TOKEN_INVALID", "OAuth token in the header is not valid.");
  }
  const { record } = lookup;
  if (!record.scopes.includes(ADWORDS_SCOPE)) {
    throw new GoogleApiError(403, "PERMISSION_DENIED", MSG.SCOPE_INSUFFICIENT, [], [errorInfo("ACCESS_TOKEN_SCOPE_INSUFFICIENT", rpcMethod(version, route))], {
      "WWW-Authenticate": `${AUTH_CHALLENGE}, error="insufficient_scope", scope="${ADWORDS_SCOPE}"`,
    });
  }
  const email = record.userEmail;
  meter.authenticate();
  // The daily cap is checked before anything else happens; a mutate is counted once its operations are known.
  if (route.op !== "mutate") meter.charge();

  const customerId = route.op === "listAccessibleCustomers" ? undefined : route.customerId;
  const faultOp: FaultOperation | undefined = route.op === "unimplemented" ? undefined : route.op;
  if (faultOp) {
    const decision = ctx.faults.decide(faultOp, customerId);
    if (decision.delayMs > 0) await ctx.delays.wait(decision.delayMs);
    if (decision.fault) {
      ctx.log.info?.("emulator: injected fault", { requestId, op: faultOp, kind: decision.fault.kind });
      throw adsFault(decision.fault);
    }
  }

  if (ctx.dataSource.accessibleCustomerIds(email).length === 0) {
    throw authError(
      "NOT_ADS_USER",
      "The Google account that generated the OAuth access token is not associated with any Ads accounts. Create a new account, or add the Google account to an existing Ads account.",
      MSG.CREDENTIALS_MISSING,
    );
  }

  if (route.op === "listAccessibleCustomers") {
    const ids = ctx.dataSource.accessibleCustomerIds(email);
    sendJson(res, 200, { resourceNames: ids.map((id) => `customers/${id}`) }, { Vary: "Origin, X-Origin, Referer" });
    return;
  }

  const loginCustomerId = checkCustomerAccess(ctx, req, email, customerId);
  if (customerId !== undefined) checkAccessLevel(ctx, version, customerId);

  if (route.op === "unimplemented") throw new GoogleApiError(501, "UNIMPLEMENTED", MSG.UNIMPLEMENTED);

  const raw = await readBody(req);
  const body = parseJsonObject(raw.text, raw.parsed);
  if (route.op === "mutate") meter.charge(mutateOperationCount(body));
  if (route.op !== "mutate") {
    if (route.op === "search") return search(ctx, res, route.customerId, body);
    return searchStream(ctx, res, version, route.customerId, body, requestId);
  }
  if (!ctx.mutate) throw new GoogleApiError(501, "UNIMPLEMENTED", MSG.UNIMPLEMENTED);
  const result = await ctx.mutate({
    version,
    customerId: route.customerId,
    collection: route.collection,
    body,
    userEmail: email,
    loginCustomerId,
    requestId,
    dataSource: ctx.dataSource,
  });
  // Answers rendered before this change may no longer be true.
  ctx.streamCache?.clear();
  sendJson(res, 200, result ?? {}, { Vary: "Origin, X-Origin, Referer" });
}

/** Customer id format, existence, and Google's manager-hierarchy rule via login-customer-id. */
function checkCustomerAccess(ctx: EmulatorContext, req: MaybeExpressRequest, email: string, customerId: string | undefined): string | undefined {
  if (customerId === undefined) return undefined;
  if (!/^\d+$/.test(customerId)) {
    throw authError("CLIENT_CUSTOMER_ID_INVALID", "Client customer ID is not a number.", MSG.CREDENTIALS_MISSING);
  }
  if (!ctx.dataSource.customerExists(customerId)) {
    throw authError("CUSTOMER_NOT_FOUND", "No customer found for the provided customer id.", MSG.CREDENTIALS_MISSING);
  }
  const rawLogin = headerValue(req, "login-customer-id");
  let loginCustomerId: string | undefined;
  if (rawLogin !== undefined && rawLogin.trim() !== "") {
    loginCustomerId = rawLogin.trim();
    if (!/^\d{10}$/.test(loginCustomerId)) {
      throw adsError(400, "INVALID_ARGUMENT", MSG.INVALID_ARGUMENT, [
        { errorCode: { headerError: "INVALID_LOGIN_CUSTOMER_ID" }, message: "The login customer ID could not be validated." },
      ]);
    }
  }
  if (!ctx.dataSource.canAccess(email, customerId, loginCustomerId)) {
    throw adsError(403, "PERMISSION_DENIED", MSG.PERMISSION_DENIED, [
      {
        errorCode: { authorizationError: "USER_PERMISSION_DENIED" },
        message:
          "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer ID must be set in the `login-customer-id` header. Learn more at https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid",
      },
    ]);
  }
  return loginCustomerId;
}

/**
 * A Test-level Cloud project may call test accounts only. v25 introduced CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION
 * for it; older versions still answer with the developer token's DEVELOPER_TOKEN_NOT_APPROVED (messages as in
 * Google's authorization_error.proto).
 */
function checkAccessLevel(ctx: EmulatorContext, version: string, customerId: string): void {
  if (ctx.accessLevel !== "test" || ctx.dataSource.isTestAccount?.(customerId)) return;
  const projectError = Number(version.slice(1)) >= 25;
  throw adsError(403, "PERMISSION_DENIED", MSG.PERMISSION_DENIED, [
    projectError
      ? {
          errorCode: { authorizationError: "CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION" },
          message:
            "The Google Cloud project is only approved for use with test accounts. To access non-test accounts, apply for Explorer, Basic or Standard access.",
        }
      : {
          errorCode: { authorizationError: "DEVELOPER_TOKEN_NOT_APPROVED" },
          message: "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.",
        },
  ]);
}

/** QueryPage plus fields a data source may add beyond the contract (passed through when present). */
type PageWithExtras = QueryPage & { summaryRow?: Record<string, unknown> };

async function search(ctx: EmulatorContext, res: ServerResponse, customerId: string, raw: Record<string, unknown>): Promise<void> {
  const body = checkMessage(raw, SEARCH_REQUEST) as {
    query?: string;
    pageToken?: string;
    pageSize?: number;
    validateOnly?: boolean;
    searchSettings?: { omitResults?: boolean; returnSummaryRow?: boolean; returnTotalResultsCount?: boolean };
  };
  // Pages are fixed at 10,000 rows since v17; Google rejects any explicit page size.
  if (body.pageSize !== undefined && body.pageSize !== 0) {
    throw adsError(400, "INVALID_ARGUMENT", MSG.INVALID_ARGUMENT, [
      {
        errorCode: { requestError: "PAGE_SIZE_NOT_SUPPORTED" },
        message: "Setting the page size is not supported, and will be unavailable in a future version.",
        location: { fieldPathElements: [{ fieldName: "page_size" }] },
      },
    ]);
  }
  const settings = body.searchSettings ?? {};
  if (body.validateOnly && body.pageToken) {
    throw adsError(400, "INVALID_ARGUMENT", MSG.INVALID_ARGUMENT, [
      { errorCode: { requestError: "VALIDATE_ONLY_REQUEST_HAS_PAGE_TOKEN" }, message: "page_token is set in the validate only request" },
    ]);
  }
  if (body.validateOnly && settings.returnSummaryRow) {
    throw adsError(400, "INVALID_ARGUMENT", MSG.INVALID_ARGUMENT, [
      {
        errorCode: { requestError: "CANNOT_RETURN_SUMMARY_ROW_FOR_VALIDATE_ONLY_REQUESTS" },
        message: "return_summary_row should not be enabled for validate only requests.",
      },
    ]);
  }
  const page = ctx.dataSource.query(customerId, body.query ?? "", {
    pageSize: PAGE_ROWS,
    pageToken: body.pageToken || undefined,
    returnTotalResultsCount: settings.returnTotalResultsCount === true,
  }) as PageWithExtras;

  // Field order as Google serialises SearchGoogleAdsResponse; empty repeated fields are omitted.
  const out: Record<string, unknown> = {};
  if (!body.validateOnly && !settings.omitResults && page.results.length > 0) out.results = page.results;
  if (page.fieldMask) out.fieldMask = page.fieldMask;
  if (!body.validateOnly && page.nextPageToken) out.nextPageToken = page.nextPageToken;
  if (page.totalResultsCount !== undefined) out.totalResultsCount = page.totalResultsCount;
  if (settings.returnSummaryRow && page.summaryRow) out.summaryRow = page.summaryRow;
  if (page.queryResourceConsumption !== undefined) out.queryResourceConsumption = page.queryResourceConsumption;
  sendJson(res, 200, out, { Vary: "Origin, X-Origin, Referer" });
}

/** A searchStream batch before the HTTP layer stamps the request id; summaryRow only if a source adds it. */
type StreamBatch = QueryBatch & { summaryRow?: Record<string, unknown> };

function isStreaming(source: AdsDataSource): source is StreamingAdsDataSource {
  return typeof (source as Partial<StreamingAdsDataSource>).queryBatches === "function";
}

/**
 * Batches of ≤10,000 rows: natively from a StreamingAdsDataSource, otherwise by
 * paging query(). Either way the query is validated before the first batch.
 */
async function* streamBatches(ctx: EmulatorContext, customerId: string, query: string): AsyncGenerator<StreamBatch> {
  const source = ctx.dataSource;
  const raw: Iterable<StreamBatch> | AsyncIterable<StreamBatch> = isStreaming(source)
    ? source.queryBatches(customerId, query)
    : pagedBatches(source, customerId, query);
  for await (const batch of raw) {
    const rows = batch.results ?? [];
    if (rows.length <= PAGE_ROWS) {
      yield batch;
      continue;
    }
    // Re-chunk oversize batches; consumption and summary stay on the last piece.
    const { results: _all, queryResourceConsumption, summaryRow, ...rest } = batch;
    for (let i = 0; i < rows.length; i += PAGE_ROWS) {
      const lastPiece = i + PAGE_ROWS >= rows.length;
      yield {
        ...rest,
        results: rows.slice(i, i + PAGE_ROWS),
        ...(lastPiece && queryResourceConsumption !== undefined ? { queryResourceConsumption } : {}),
        ...(lastPiece && summaryRow ? { summaryRow } : {}),
      };
    }
  }
}

async function* pagedBatches(source: AdsDataSource, customerId: string, query: string): AsyncGenerator<StreamBatch> {
  let page = source.query(customerId, query, { pageSize: PAGE_ROWS }) as PageWithExtras;
  const seenTokens = new Set<string>();
  for (;;) {
    const last = !page.nextPageToken;
    yield {
      ...(page.results.length > 0 ? { results: page.results } : {}),
      fieldMask: page.fieldMask,
      ...(last && page.queryResourceConsumption !== undefined ? { queryResourceConsumption: page.queryResourceConsumption } : {}),
      ...(last && page.summaryRow ? { summaryRow: page.summaryRow } : {}),
    };
    if (last) return;
    // A data source that hands back a token it already gave would loop forever.
    if (seenTokens.has(page.nextPageToken!)) throw new Error(`data source repeated page token ${page.nextPageToken}`);
    seenTokens.add(page.nextPageToken!);
    page = source.query(customerId, query, { pageSize: PAGE_ROWS, pageToken: page.nextPageToken }) as PageWithExtras;
  }
}

/** Resolves true once `res` wants more, false if the client went away (nothing more to send). */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * A JSON array of ≤10,000-row batches, written as they are produced. An error
 * before the first byte gets its own HTTP status (still array-wrapped); one
 * after that ends the array with an error element, as a broken stream does at Google.
 */
async function searchStream(
  ctx: EmulatorContext,
  res: ServerResponse,
  version: string,
  customerId: string,
  raw: Record<string, unknown>,
  requestId: string,
): Promise<void> {
  const body = checkMessage(raw, searchStreamRequest(version)) as { query?: string; summaryRowSetting?: string };
  const summary = body.summaryRowSetting ?? "NO_SUMMARY_ROW";
  const query = body.query ?? "";
  const rendered = ctx.streamCache?.get(customerId, query, summary);
  const batches = rendered ? undefined : streamBatches(ctx, customerId, query);
  // The query is validated here, before the first byte: its errors get their own HTTP status.
  const first = await batches?.next();

  res.writeHead(200, {
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate",
    Vary: "Origin, X-Origin, Referer",
  });
  if (rendered) return replayStream(res, rendered, requestId);

  let opened = false;
  const write = (value: unknown) => {
    const ok = res.write(`${opened ? ",\n" : "["}${JSON.stringify(value)}`);
    opened = true;
    return ok;
  };
  try {
    for await (const element of streamElements(batches!, first!, summary, requestId)) {
      // Node corks a response's writes until the event loop turns, and this loop only awaits
      // microtasks: without a real wait the whole answer (100+ MB for a large account) would
      // pile up in memory and reach the client at the end. Waiting for the client to take a
      // batch streams it, and the next batch is built while the client reads this one.
      if (!write(element) && !(await drained(res))) return;
    }
  } catch (error) {
    write(errorBody(toGoogleError(ctx, error, requestId), version, requestId));
  }
  res.end("]");
}

/** The elements of a searchStream answer, in order: result batches, then the summary row's batch if asked for. */
async function* streamElements(
  batches: AsyncGenerator<StreamBatch>,
  first: IteratorResult<StreamBatch>,
  summary: string,
  requestId: string,
): AsyncGenerator<Record<string, unknown>> {
  let next = first;
  let fieldMask = "";
  let summaryRow: Record<string, unknown> | undefined;
  let any = false;
  while (!next.done) {
    const { results, fieldMask: mask, queryResourceConsumption, summaryRow: row, ...rest } = next.value;
    fieldMask = mask;
    summaryRow = row ?? summaryRow;
    if (summary !== "SUMMARY_ROW_ONLY") {
      any = true;
      yield {
        ...(results && results.length > 0 ? { results } : {}),
        fieldMask: mask,
        requestId,
        ...rest,
        ...(queryResourceConsumption !== undefined ? { queryResourceConsumption } : {}),
      };
    }
    next = await batches.next();
  }
  // The summary row comes in a batch of its own, after all results.
  if (summary !== "NO_SUMMARY_ROW" && summaryRow) {
    any = true;
    yield { summaryRow, fieldMask, requestId };
  }
  if (!any) yield { fieldMask, requestId };
}

/**
 * Renders a searchStream answer into `ctx.streamCache` (EmulatorOptions.streamCache): the bytes the
 * live path would send, less the request id, which each reply stamps in. Throws the query's error.
 */
export async function prerenderStream(ctx: EmulatorContext, customerId: string, query: string, summary = "NO_SUMMARY_ROW"): Promise<number> {
  if (!ctx.streamCache) throw new Error("the emulator was created without streamCache");
  const batches = streamBatches(ctx, customerId, query);
  const first = await batches.next();
  const texts: string[] = [];
  for await (const element of streamElements(batches, first, summary, REQUEST_ID_MARK)) texts.push(JSON.stringify(element));
  return ctx.streamCache.set(customerId, query, summary, `[${texts.join(",\n")}]`);
}

async function replayStream(res: ServerResponse, rendered: RenderedStream, requestId: string): Promise<void> {
  const id = Buffer.from(JSON.stringify(requestId));
  for (let i = 0; i < rendered.length; i++) {
    if (i > 0 && !res.write(id) && !(await drained(res))) return;
    // As the live path: one element's bytes at a time, waiting while the client is behind.
    if (!res.write(rendered[i]) && !(await drained(res))) return;
  }
  res.end();
}
