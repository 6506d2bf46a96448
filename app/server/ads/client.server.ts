import { normalizeCustomerId, customerIdFromResourceName } from "./customer-id.server";
import {
  AdsClientError,
  AdsNetworkError,
  AdsOutcomeUnknownError,
  AdsResponseError,
  GoogleAdsApiError,
  errorFromStatus,
  parseErrorResponse,
  writeWasNotApplied,
} from "./errors.server";
import { DEFAULT_MAX_BACKOFF_MS, DEFAULT_MAX_RETRIES, realSleep, retryWaitMs } from "./retry.server";
import type { GoogleAdsRow } from "./rows.server";
import { forEachJsonArrayElementBytes, MalformedStreamError, parseJsonElement, StreamReadError } from "./stream-json.server";

/**
 * The Google Ads REST client: the only way product code reaches Google Ads (or
 * the emulator). One retry policy for everything: only failures Google marks
 * as transient are retried, and a write is never replayed unless Google's
 * answer proves it was not applied.
 */

/**
 * Reads searchStream batches straight from their bytes (the sync's large
 * streams). A batch it returns undefined for is parsed as JSON, checked, and
 * handed to onRows as usual; so is every batch of a client without one.
 */
export interface BatchDecoder {
  /** The batch's rows as the caller wants them, or undefined to leave the batch to the general way. */
  decode(bytes: Uint8Array): unknown[] | undefined;
  onDecoded(rows: unknown[]): void | Promise<void>;
}

/**
 * Sees every request before it is sent (retries included) and every call's final failure: the
 * install's operations ledger (quota.server.ts). `before` may refuse by throwing.
 */
export interface RequestMeter {
  before(request: { method: string; operations: number; customerId?: string }): Promise<void>;
  failed(error: AdsClientError): Promise<void>;
}

export interface AdsClientOptions {
  /** e.g. "https://googleads.googleapis.com" (config google.adsApiUrl). */
  baseUrl: string;
  /** e.g. "v26" (config google.adsApiVersion). */
  version: string;
  developerToken?: string;
  /** Returns a valid access token; with forceRefresh the cached one must not be reused. */
  getAccessToken: (opts: { forceRefresh: boolean }) => Promise<string>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries after the first attempt, for retryable failures only. Default 3. */
  maxRetries?: number;
  /** Upper bound of any single wait between attempts. Default 30 s. */
  maxBackoffMs?: number;
  /** Per attempt, including reading the body. Default 5 minutes (large searchStreams are slow). */
  timeoutMs?: number;
  /** Called before each backoff wait, e.g. to log the request id. */
  onRetry?: (event: AdsRetryEvent) => void;
  /** Counts (and may refuse) each request, as Google counts operations. */
  meter?: RequestMeter;
}

export interface AdsRetryEvent {
  operation: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  error: AdsClientError;
}

export interface AdsRequestOptions {
  /** The manager account the user reaches the target through (MCC); 10 digits or 123-456-7890. */
  loginCustomerId?: string;
}

export interface SearchOptions extends AdsRequestOptions {
  pageToken?: string;
  returnTotalResultsCount?: boolean;
}

export interface SearchPage {
  results: GoogleAdsRow[];
  /** Absent on the last page. */
  nextPageToken?: string;
  /** Only when returnTotalResultsCount was asked for. Ignores LIMIT. */
  totalResultsCount?: number;
  fieldMask?: string;
  requestId?: string;
}

export type SummaryRowSetting = "NO_SUMMARY_ROW" | "SUMMARY_ROW_WITH_RESULTS" | "SUMMARY_ROW_ONLY";

export interface SearchStreamOptions extends AdsRequestOptions {
  summaryRowSetting?: SummaryRowSetting;
}

export interface SearchStreamBatch {
  results: GoogleAdsRow[];
  fieldMask?: string;
  requestId?: string;
  summaryRow?: GoogleAdsRow;
  /** Only in the final batch. */
  queryResourceConsumption?: string;
}

export interface MutateOptions extends AdsRequestOptions {
  /** Validate without applying. Such a call writes nothing, so it is retried like a read. */
  validateOnly?: boolean;
}

export type MutateResponse = Record<string, unknown>;

export interface AdsClient {
  /** Customer ids (10 digits) the signed-in user can reach directly. */
  listAccessibleCustomers(): Promise<string[]>;
  /** Every row of a GAQL query in one call (one quota operation). */
  searchStream(customerId: string, query: string, opts?: SearchStreamOptions): Promise<GoogleAdsRow[]>;
  /** The same call, batch by batch. The whole response is read (and retried) before the first batch is yielded. */
  searchStreamBatches(customerId: string, query: string, opts?: SearchStreamOptions): AsyncGenerator<SearchStreamBatch>;
  /**
   * The same call, read as it arrives: `onRows` gets each batch's rows while the
   * rest of the body is still on the wire, so memory holds one batch, not the
   * response. If a retryable failure ends the response after some batches,
   * `onRestart` runs (to discard what was handed out) and the call starts over.
   */
  searchStreamEach(
    customerId: string,
    query: string,
    onRows: (rows: GoogleAdsRow[]) => void | Promise<void>,
    opts?: SearchStreamOptions & { onRestart?: () => void | Promise<void>; decoder?: BatchDecoder },
  ): Promise<void>;
  /** One page (10,000 rows) of a GAQL query. */
  search(customerId: string, query: string, opts?: SearchOptions): Promise<SearchPage>;
  /** Every page of a GAQL query, following nextPageToken. */
  searchAll(customerId: string, query: string, opts?: AdsRequestOptions): Promise<GoogleAdsRow[]>;
  /**
   * POST customers/{cid}/{path}, e.g. path "campaigns:mutate", "googleAds:mutate",
   * "recommendations:apply". Throws AdsOutcomeUnknownError when the write may have happened
   * but no definite answer came back.
   */
  mutate<T = MutateResponse>(customerId: string, path: string, body: Record<string, unknown>, opts?: MutateOptions): Promise<T>;
}

interface Call {
  operation: string;
  method: "GET" | "POST";
  /** After /{version}/, e.g. "customers/1234567890/googleAds:search". */
  path: string;
  body?: unknown;
  loginCustomerId?: string;
  /** Not safe to send twice. */
  write: boolean;
  /** Reads a 2xx body as a stream instead of as text (searchStreamEach). */
  consume?: (body: ReadableStream<Uint8Array>, requestId: string | undefined) => Promise<void>;
  /** Operations Google counts for the request: one, or a mutate's operations. */
  operations?: number;
}

interface Received {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  /** The body went to call.consume. */
  consumed?: boolean;
}

/** A failure below HTTP: no status, or a status without a readable body. */
class TransportFailure {
  constructor(
    readonly timedOut: boolean,
    /** Headers had arrived: the request certainly reached the server. */
    readonly answered: boolean,
    readonly cause: unknown,
  ) {}
}

// Errors raised before a single byte left: the server cannot have seen the request.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

function causeCodes(error: unknown, depth = 0): string[] {
  if (depth > 5 || typeof error !== "object" || error === null) return [];
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const codes = typeof e.code === "string" ? [e.code] : [];
  codes.push(...causeCodes(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) codes.push(...causeCodes(inner, depth + 1));
  return codes;
}

function describeCause(error: unknown): string {
  const codes = causeCodes(error);
  if (codes.length > 0) return codes[codes.length - 1];
  return error instanceof Error ? error.message : String(error);
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const MUTATE_PATH = /^[A-Za-z]+:[A-Za-z]+$/;

export function createAdsClient(options: AdsClientOptions): AdsClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const version = options.version;
  if (!/^v\d+$/.test(version)) throw new RangeError(`Google Ads API version must look like v24, got "${version}"`);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staticHeaders: Record<string, string> = {
    accept: "application/json",
    "x-goog-api-client": `gl-node/${process.versions.node} ads-ai-manager`,
  };
  if (options.developerToken) staticHeaders["developer-token"] = options.developerToken;

  async function sendOnce(call: Call, token: string): Promise<Received> {
    const headers: Record<string, string> = { ...staticHeaders, authorization: `Bearer ${token}` };
    if (call.loginCustomerId) headers["login-customer-id"] = call.loginCustomerId;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      let res: Response;
      try {
        res = await fetchImpl(`${baseUrl}/${version}/${call.path}`, {
          method: call.method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: controller.signal,
        });
      } catch (error) {
        throw new TransportFailure(timedOut, false, error);
      }
      if (call.consume && res.status >= 200 && res.status < 300 && res.body) {
        try {
          await call.consume(res.body, res.headers.get("request-id") ?? undefined);
        } catch (error) {
          // Reading the body failed (cut off, timed out); errors from the consumer itself pass through.
          if (error instanceof StreamReadError) throw new TransportFailure(timedOut, true, error.cause ?? error);
          if (error instanceof MalformedStreamError)
            throw new AdsResponseError(`HTTP ${res.status} body: ${error.message}`, res.headers.get("request-id") ?? undefined);
          throw error;
        } finally {
          // Stop the transfer when the consumer gave up early.
          await res.body.cancel().catch(() => undefined);
        }
        return { status: res.status, statusText: res.statusText, headers: res.headers, text: "", consumed: true };
      }
      try {
        return { status: res.status, statusText: res.statusText, headers: res.headers, text: await res.text() };
      } catch (error) {
        throw new TransportFailure(timedOut, true, error);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  function transportError(call: Call, failure: TransportFailure): AdsClientError {
    const detail = failure.timedOut ? `no answer within ${timeoutMs} ms` : describeCause(failure.cause);
    if (call.write) {
      const neverSent = !failure.timedOut && !failure.answered && causeCodes(failure.cause).some((c) => NOT_SENT_CODES.has(c));
      if (!neverSent) {
        return new AdsOutcomeUnknownError(failure.timedOut, failure.answered ? `the answer was cut off (${detail})` : detail, failure.cause);
      }
    }
    return new AdsNetworkError(failure.timedOut, detail, failure.cause);
  }

  async function execute<T>(call: Call, interpret: (body: unknown, requestId: string | undefined) => T, beforeRetry?: () => void | Promise<void>): Promise<T> {
    try {
      return await attempt(call, interpret, beforeRetry);
    } catch (error) {
      // What Google's final answer means for the install (its daily cap, rate limiting that outlasted the retries).
      if (error instanceof AdsClientError) await options.meter?.failed(error);
      throw error;
    }
  }

  async function attempt<T>(call: Call, interpret: (body: unknown, requestId: string | undefined) => T, beforeRetry?: () => void | Promise<void>): Promise<T> {
    let retries = 0;
    let refreshed = false;
    let forceRefresh = false;
    const customerId = /^customers\/(\d+)/.exec(call.path)?.[1];
    for (;;) {
      const token = await options.getAccessToken({ forceRefresh });
      forceRefresh = false;
      // Every attempt is a request Google counts; the ledger may hold it back (nothing is sent then).
      await options.meter?.before({ method: call.operation, operations: call.operations ?? 1, customerId });
      let error: AdsClientError;
      try {
        const res = await sendOnce(call, token);
        const requestId = res.headers.get("request-id") ?? undefined;
        if (res.status < 200 || res.status >= 300) {
          throw parseErrorResponse({ ...res, what: `${call.method} /${version}/${call.path}` });
        }
        if (res.consumed) return interpret(undefined, requestId);
        let body: unknown;
        try {
          body = res.text.trim() === "" ? undefined : JSON.parse(res.text);
        } catch {
          throw new AdsResponseError(`HTTP ${res.status} body is not JSON`, requestId);
        }
        return interpret(body, requestId);
      } catch (caught) {
        if (caught instanceof TransportFailure) error = transportError(call, caught);
        else if (caught instanceof AdsClientError) error = caught;
        else throw caught;
      }

      if (error instanceof GoogleAdsApiError && (error.httpStatus === 401 || error.grpcStatus === "UNAUTHENTICATED") && !refreshed) {
        // Tokens can expire between the cache check and Google's; one fresh token settles it.
        refreshed = true;
        forceRefresh = true;
        await beforeRetry?.();
        continue;
      }
      if (call.write) {
        if (error instanceof AdsResponseError) {
          throw new AdsOutcomeUnknownError(false, "Google answered but the answer could not be read", error);
        }
        if (error instanceof GoogleAdsApiError && !writeWasNotApplied(error)) {
          throw new AdsOutcomeUnknownError(false, `Google answered HTTP ${error.httpStatus}${error.grpcStatus ? ` ${error.grpcStatus}` : ""}`, error);
        }
      }
      if (!error.retryable || retries >= maxRetries) throw error;
      const delayMs = retryWaitMs({
        retryIndex: retries,
        random,
        maxBackoffMs,
        retryDelayMs: error instanceof GoogleAdsApiError ? error.retryDelayMs : undefined,
      });
      if (delayMs === undefined) throw error;
      retries += 1;
      options.onRetry?.({ operation: call.operation, retry: retries, delayMs, error });
      await sleep(delayMs);
      await beforeRetry?.();
    }
  }

  function checkQuery(query: string) {
    if (typeof query !== "string" || query.trim() === "") throw new RangeError("GAQL query must be a non-empty string");
  }

  function loginHeader(opts: AdsRequestOptions | undefined): string | undefined {
    return opts?.loginCustomerId === undefined ? undefined : normalizeCustomerId(opts.loginCustomerId);
  }

  async function streamBatches(customerId: string, query: string, opts?: SearchStreamOptions) {
    const cid = normalizeCustomerId(customerId);
    const loginCustomerId = loginHeader(opts);
    checkQuery(query);
    return execute(
      {
        operation: "searchStream",
        method: "POST",
        path: `customers/${cid}/googleAds:searchStream`,
        body: { query, ...(opts?.summaryRowSetting ? { summaryRowSetting: opts.summaryRowSetting } : {}) },
        loginCustomerId,
        write: false,
      },
      (body, requestId) => parseStreamBody(body, requestId),
    );
  }

  const client: AdsClient = {
    async listAccessibleCustomers() {
      return execute({ operation: "listAccessibleCustomers", method: "GET", path: "customers:listAccessibleCustomers", write: false }, (body, requestId) => {
        const names = isObject(body) ? body.resourceNames : undefined;
        if (names === undefined) return [];
        if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) {
          throw new AdsResponseError("resourceNames is not a list of strings", requestId);
        }
        return names.map(customerIdFromResourceName);
      });
    },

    async searchStream(customerId, query, opts) {
      const batches = await streamBatches(customerId, query, opts);
      return batches.flatMap((b) => b.results);
    },

    async *searchStreamBatches(customerId, query, opts) {
      yield* await streamBatches(customerId, query, opts);
    },

    async searchStreamEach(customerId, query, onRows, opts) {
      const cid = normalizeCustomerId(customerId);
      const loginCustomerId = loginHeader(opts);
      checkQuery(query);
      let handedOut = false;
      await execute(
        {
          operation: "searchStream",
          method: "POST",
          path: `customers/${cid}/googleAds:searchStream`,
          body: { query, ...(opts?.summaryRowSetting ? { summaryRowSetting: opts.summaryRowSetting } : {}) },
          loginCustomerId,
          write: false,
          consume: async (body, headerRequestId) => {
            const decoder = opts?.decoder;
            // The decoder's rows, if it reads the bytes as one plain batch.
            const decoded = async (bytes: Uint8Array): Promise<boolean> => {
              const rows = decoder?.decode(bytes);
              if (rows === undefined) return false;
              if (rows.length > 0) {
                handedOut = true;
                await decoder!.onDecoded(rows);
              }
              return true;
            };
            await forEachJsonArrayElementBytes(
              body,
              async (bytes) => {
                if (await decoded(bytes)) return;
                const [batch] = parseStreamBody(parseJsonElement(bytes), headerRequestId);
                if (batch && batch.results.length > 0) {
                  handedOut = true;
                  await onRows(batch.results);
                }
              },
              // With a decoder, elements are found the fast way: the decoder's reading proves each one.
              decoder && { tryElement: decoded },
            );
          },
        },
        () => undefined,
        async () => {
          if (handedOut) await opts?.onRestart?.();
          handedOut = false;
        },
      );
    },

    async search(customerId, query, opts) {
      const cid = normalizeCustomerId(customerId);
      const loginCustomerId = loginHeader(opts);
      checkQuery(query);
      const body: Record<string, unknown> = { query };
      if (opts?.pageToken) body.pageToken = opts.pageToken;
      if (opts?.returnTotalResultsCount) body.searchSettings = { returnTotalResultsCount: true };
      return execute(
        { operation: "search", method: "POST", path: `customers/${cid}/googleAds:search`, body, loginCustomerId, write: false },
        (raw, requestId) => parseSearchPage(raw, requestId),
      );
    },

    async searchAll(customerId, query, opts) {
      const rows: GoogleAdsRow[] = [];
      const seen = new Set<string>();
      let pageToken: string | undefined;
      do {
        const page = await client.search(customerId, query, { loginCustomerId: opts?.loginCustomerId, pageToken });
        rows.push(...page.results);
        pageToken = page.nextPageToken;
        if (pageToken !== undefined) {
          if (seen.has(pageToken)) throw new AdsResponseError("nextPageToken repeated; stopping to avoid a loop", page.requestId);
          seen.add(pageToken);
        }
      } while (pageToken);
      return rows;
    },

    async mutate<T = MutateResponse>(customerId: string, path: string, body: Record<string, unknown>, opts?: MutateOptions): Promise<T> {
      const cid = normalizeCustomerId(customerId);
      const loginCustomerId = loginHeader(opts);
      if (!MUTATE_PATH.test(path)) {
        throw new RangeError(`mutate path must look like "campaigns:mutate", got "${path}"`);
      }
      if (!isObject(body)) throw new RangeError("mutate body must be a JSON object");
      const validateOnly = opts?.validateOnly === true || body.validateOnly === true;
      const payload = opts?.validateOnly ? { ...body, validateOnly: true } : body;
      return execute(
        {
          operation: path,
          method: "POST",
          path: `customers/${cid}/${path}`,
          body: payload,
          loginCustomerId,
          write: !validateOnly,
          operations: operationCount(payload),
        },
        (raw, requestId) => {
          if (raw === undefined) return {} as T;
          if (!isObject(raw)) throw new AdsResponseError(`${path} answered with a non-object`, requestId);
          return raw as T;
        },
      );
    },
  };
  return client;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Google counts each operation of a mutate (validate-only too); any other body is one. */
function operationCount(body: Record<string, unknown>): number {
  const list = body.operations ?? body.mutateOperations;
  return Array.isArray(list) && list.length > 0 ? list.length : 1;
}

function rowsOf(value: unknown, requestId: string | undefined): GoogleAdsRow[] {
  // Google omits `results` when nothing matched.
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject)) {
    throw new AdsResponseError("results is not a list of row objects", requestId);
  }
  return value;
}

function parseStreamBody(body: unknown, headerRequestId: string | undefined): SearchStreamBatch[] {
  if (body === undefined) return [];
  // The protocol promises an array; an object is accepted only as an error or a lone batch.
  const elements = Array.isArray(body) ? body : [body];
  const batches: SearchStreamBatch[] = [];
  for (const el of elements) {
    if (!isObject(el)) throw new AdsResponseError("searchStream element is not an object", headerRequestId);
    if ("error" in el) {
      // Errors can arrive mid-stream after a 200; nothing has been handed out yet, so the call can be retried whole.
      throw errorFromStatus(el.error, 200, str(el.requestId) ?? headerRequestId);
    }
    const requestId = str(el.requestId) ?? headerRequestId;
    const batch: SearchStreamBatch = { results: rowsOf(el.results, requestId) };
    if (str(el.fieldMask)) batch.fieldMask = str(el.fieldMask);
    if (requestId) batch.requestId = requestId;
    if (isObject(el.summaryRow)) batch.summaryRow = el.summaryRow;
    if (str(el.queryResourceConsumption)) batch.queryResourceConsumption = str(el.queryResourceConsumption);
    batches.push(batch);
  }
  return batches;
}

function parseSearchPage(body: unknown, requestId: string | undefined): SearchPage {
  if (body !== undefined && !isObject(body)) throw new AdsResponseError("search answered with a non-object", requestId);
  const raw = body ?? {};
  const page: SearchPage = { results: rowsOf(raw.results, requestId) };
  if (str(raw.nextPageToken)) page.nextPageToken = str(raw.nextPageToken);
  if (raw.totalResultsCount !== undefined) {
    const total = Number(raw.totalResultsCount);
    if (!Number.isSafeInteger(total)) throw new AdsResponseError("totalResultsCount is not an int64", requestId);
    page.totalResultsCount = total;
  }
  if (str(raw.fieldMask)) page.fieldMask = str(raw.fieldMask);
  if (requestId) page.requestId = requestId;
  return page;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

// One import for callers: the client, its errors and the row helpers.
export * from "./errors.server";
export * from "./rows.server";
export * from "./customer-id.server";
export * from "./gaql.server";
export { DEFAULT_MAX_BACKOFF_MS, DEFAULT_MAX_RETRIES } from "./retry.server";
