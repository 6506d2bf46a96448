/**
 * Errors of the Google Ads REST client, and the parser that turns Google's
 * error bodies (plain, array-wrapped searchStream, front-end HTML) into them.
 * Every error carries a `userMessage` that says what Google said, because the
 * top-level message ("The caller does not have permission") alone is useless.
 */

/** One GoogleAdsFailure entry, flattened. */
export interface AdsErrorEntry {
  /** `${category}.${value}`, e.g. "authorizationError.USER_PERMISSION_DENIED". */
  code: string;
  /** The errorCode oneof key, e.g. "authorizationError". */
  category: string;
  /** The enum value, e.g. "USER_PERMISSION_DENIED". */
  value: string;
  message: string;
  /** Where in the request, e.g. "operations[0].create.name". */
  fieldPath?: string;
  /** The offending value, as text. */
  trigger?: string;
  /** ErrorDetails as Google sent them (quotaErrorDetails, policyViolationDetails, ...). */
  details?: Record<string, unknown>;
}

/**
 * Coarse classes callers branch on: "authentication" means the connection
 * needs a new sign-in; "permission" means this user/account pair can't do it.
 */
export type AdsErrorKind = "authentication" | "permission" | "quota" | "invalidRequest" | "notFound" | "transient" | "unknown";

export class AdsClientError extends Error {
  /** Safe to show to the person using the app: no tokens, says why. */
  readonly userMessage: string;
  /** Whether sending the same request again later may succeed. */
  readonly retryable: boolean;

  constructor(message: string, opts: { userMessage?: string; retryable: boolean; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AdsClientError";
    this.userMessage = opts.userMessage ?? message;
    this.retryable = opts.retryable;
  }
}

export class InvalidCustomerIdError extends AdsClientError {
  constructor(readonly input: unknown) {
    const shown = typeof input === "string" ? `"${input.slice(0, 40)}"` : String(typeof input);
    super(`${shown} is not a Google Ads customer ID: expected 10 digits, e.g. 123-456-7890 or 1234567890`, {
      retryable: false,
    });
    this.name = "InvalidCustomerIdError";
  }
}

export interface GoogleAdsApiErrorInit {
  httpStatus: number;
  grpcStatus?: string;
  /** The top-level error.message. */
  apiMessage?: string;
  errors?: AdsErrorEntry[];
  requestId?: string;
  retryDelayMs?: number;
  /** google.rpc.ErrorInfo reason, e.g. "ACCESS_TOKEN_SCOPE_INSUFFICIENT". */
  reason?: string;
  /** Describes a body that was not Google's JSON error (HTML 404 pages, proxies). */
  nonJsonSummary?: string;
}

/** Google answered with an error (HTTP status ≥ 400, or an error element inside a searchStream body). */
export class GoogleAdsApiError extends AdsClientError {
  readonly httpStatus: number;
  readonly grpcStatus: string | undefined;
  readonly apiMessage: string | undefined;
  readonly errors: AdsErrorEntry[];
  readonly requestId: string | undefined;
  readonly retryDelayMs: number | undefined;
  readonly reason: string | undefined;
  readonly kind: AdsErrorKind;

  constructor(init: GoogleAdsApiErrorInit) {
    const errors = init.errors ?? [];
    const retryable = isRetryableFailure(init.httpStatus, init.grpcStatus, errors, init.retryDelayMs);
    const kind = classify(init.httpStatus, init.grpcStatus, errors, init.reason, retryable);
    const userMessage = describeFailure(init, errors, kind);
    const codes = errors.map((e) => e.code).join(", ");
    super(
      `Google Ads API error ${init.httpStatus}${init.grpcStatus ? ` ${init.grpcStatus}` : ""}` +
        `${codes ? ` [${codes}]` : init.reason ? ` [${init.reason}]` : ""}: ${userMessage}`,
      { userMessage, retryable },
    );
    this.name = "GoogleAdsApiError";
    this.httpStatus = init.httpStatus;
    this.grpcStatus = init.grpcStatus;
    this.apiMessage = init.apiMessage;
    this.errors = errors;
    this.requestId = init.requestId;
    this.retryDelayMs = init.retryDelayMs;
    this.reason = init.reason;
    this.kind = kind;
  }

  /** True when any entry has this code ("quotaError.RESOURCE_EXHAUSTED") or the ErrorInfo reason matches. */
  hasCode(code: string): boolean {
    return this.errors.some((e) => e.code === code) || this.reason === code;
  }
}

/** The request never got an answer: connection refused/reset, DNS, TLS, or our own timeout. */
export class AdsNetworkError extends AdsClientError {
  constructor(
    readonly timedOut: boolean,
    detail: string,
    cause?: unknown,
  ) {
    super(timedOut ? `Google Ads API did not answer in time (${detail})` : `Could not reach the Google Ads API (${detail})`, {
      userMessage: timedOut
        ? "Google Ads did not answer in time. Please try again."
        : "Could not reach Google Ads. Check the network connection and try again.",
      retryable: true,
      cause,
    });
    this.name = "AdsNetworkError";
  }
}

/**
 * A write may or may not have been applied: the request may have reached
 * Google, but no definite answer came back. Retrying could apply it twice, so
 * the caller must re-read the account state before doing anything else.
 */
export class AdsOutcomeUnknownError extends AdsClientError {
  constructor(
    readonly timedOut: boolean,
    detail: string,
    cause?: unknown,
  ) {
    super(`Outcome of the Google Ads change is unknown: ${detail}`, {
      userMessage: "We could not confirm whether Google Ads applied this change (" + detail + "). Check the account's current state before trying again.",
      retryable: false,
      cause,
    });
    this.name = "AdsOutcomeUnknownError";
  }
}

/** Google answered 2xx but the body is not what the protocol promises, or rows fail the caller's schema. */
export class AdsResponseError extends AdsClientError {
  constructor(
    detail: string,
    readonly requestId?: string,
  ) {
    super(`Unexpected Google Ads API response: ${detail}${requestId ? ` (request ID ${requestId})` : ""}`, {
      userMessage: "Google Ads returned data in an unexpected format. Please try again later.",
      retryable: false,
    });
    this.name = "AdsResponseError";
  }
}

// ---------------------------------------------------------------------------
// Parsing

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** google.protobuf.Duration as JSON ("60s", "1.5s") → milliseconds. */
export function parseDurationMs(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function fieldPathOf(location: unknown): string | undefined {
  if (!isObject(location) || !Array.isArray(location.fieldPathElements)) return undefined;
  let path = "";
  for (const el of location.fieldPathElements) {
    if (!isObject(el) || typeof el.fieldName !== "string") continue;
    path += (path ? "." : "") + el.fieldName;
    if (typeof el.index === "number") path += `[${el.index}]`;
  }
  return path || undefined;
}

function triggerOf(trigger: unknown): string | undefined {
  if (!isObject(trigger)) return undefined;
  // google.ads...common.Value is a oneof: exactly one of these keys.
  for (const v of Object.values(trigger)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
  }
  return undefined;
}

function entryOf(raw: unknown): AdsErrorEntry | undefined {
  if (!isObject(raw)) return undefined;
  const code = isObject(raw.errorCode) ? Object.entries(raw.errorCode).find(([, v]) => typeof v === "string") : undefined;
  const category = code?.[0] ?? "unknown";
  const value = (code?.[1] as string | undefined) ?? "UNKNOWN";
  const entry: AdsErrorEntry = {
    code: `${category}.${value}`,
    category,
    value,
    message: typeof raw.message === "string" ? raw.message : "",
  };
  const fieldPath = fieldPathOf(raw.location);
  if (fieldPath) entry.fieldPath = fieldPath;
  const trigger = triggerOf(raw.trigger);
  if (trigger !== undefined) entry.trigger = trigger;
  if (isObject(raw.details)) entry.details = raw.details;
  return entry;
}

const GOOGLE_ADS_FAILURE = /\.errors\.GoogleAdsFailure$/;

interface ParsedStatus {
  errors: AdsErrorEntry[];
  requestId?: string;
  retryDelayMs?: number;
  reason?: string;
}

/** Reads google.rpc.Status.details: GoogleAdsFailure, ErrorInfo, RetryInfo. */
function parseDetails(details: unknown): ParsedStatus {
  const out: ParsedStatus = { errors: [] };
  const delays: number[] = [];
  if (!Array.isArray(details)) return out;
  for (const d of details) {
    if (!isObject(d)) continue;
    const type = typeof d["@type"] === "string" ? d["@type"] : "";
    if (GOOGLE_ADS_FAILURE.test(type)) {
      for (const raw of Array.isArray(d.errors) ? d.errors : []) {
        const entry = entryOf(raw);
        if (!entry) continue;
        out.errors.push(entry);
        const quota = entry.details?.quotaErrorDetails;
        const delay = isObject(quota) ? parseDurationMs(quota.retryDelay) : undefined;
        if (delay !== undefined) delays.push(delay);
      }
      out.requestId ??= str(d.requestId);
    } else if (type.endsWith("google.rpc.ErrorInfo")) {
      out.reason ??= str(d.reason);
    } else if (type.endsWith("google.rpc.RetryInfo")) {
      const delay = parseDurationMs(d.retryDelay);
      if (delay !== undefined) delays.push(delay);
    }
  }
  if (delays.length > 0) out.retryDelayMs = Math.max(...delays);
  return out;
}

/**
 * Builds the error for one google.rpc.Status-shaped object ({code, message, status, details}),
 * as found under "error" in a response body or as a mutate's partialFailureError.
 */
export function errorFromStatus(status: unknown, fallbackHttpStatus: number, headerRequestId?: string): GoogleAdsApiError {
  const s = isObject(status) ? status : {};
  const parsed = parseDetails(s.details);
  const apiMessage = str(s.message);
  let retryDelayMs = parsed.retryDelayMs;
  if (retryDelayMs === undefined && apiMessage) {
    // Some quota errors only say it in prose.
    const m = /Retry in (\d+) seconds?/i.exec(apiMessage);
    if (m) retryDelayMs = Number(m[1]) * 1000;
  }
  // In a searchStream body the HTTP status may be 200 while the element says 403.
  const httpStatus = typeof s.code === "number" && s.code >= 400 && s.code < 600 ? s.code : fallbackHttpStatus;
  return new GoogleAdsApiError({
    httpStatus,
    grpcStatus: str(s.status),
    apiMessage,
    errors: parsed.errors,
    requestId: parsed.requestId ?? headerRequestId,
    retryDelayMs,
    reason: parsed.reason,
  });
}

/** The first `{"error": ...}` in a body that is an object or an array of stream elements. */
export function findErrorStatus(body: unknown): unknown {
  if (isObject(body)) return "error" in body ? body.error : undefined;
  if (Array.isArray(body)) {
    for (const el of body) if (isObject(el) && "error" in el) return el.error;
  }
  return undefined;
}

/** Turns a non-2xx answer into a GoogleAdsApiError, whatever the body looks like. */
export function parseErrorResponse(res: {
  status: number;
  statusText?: string;
  headers?: Headers;
  text: string;
  /** e.g. "POST /v26/customers/1234567890/googleAds:searchStream", for 404 hints. */
  what?: string;
}): GoogleAdsApiError {
  const headerRequestId = res.headers?.get("request-id") ?? undefined;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  const status = findErrorStatus(body);
  if (isObject(status)) return errorFromStatus(status, res.status, headerRequestId);
  if (typeof status === "string") {
    // RFC 6749 shape, e.g. from a misconfigured URL pointing at an OAuth server.
    const description = isObject(body) ? str(body.error_description) : undefined;
    return new GoogleAdsApiError({
      httpStatus: res.status,
      apiMessage: description ? `${status}: ${description}` : status,
      requestId: headerRequestId,
    });
  }
  return new GoogleAdsApiError({
    httpStatus: res.status,
    requestId: headerRequestId,
    nonJsonSummary: summariseNonJson(res),
  });
}

function summariseNonJson(res: { status: number; statusText?: string; text: string; what?: string }): string {
  const title = /<title>([^<]{1,200})<\/title>/i.exec(res.text)?.[1]?.trim();
  const label = res.statusText || title || "";
  let text = `Google Ads API answered HTTP ${res.status}${label ? ` (${label})` : ""} without a Google error description`;
  if (res.status === 404) {
    text += `${res.what ? ` for ${res.what}` : ""}; the API URL or version is probably wrong`;
  }
  return text + ".";
}

// ---------------------------------------------------------------------------
// Classification

const RETRYABLE_HTTP = new Set([408, 429, 500, 502, 503, 504]);
const RETRYABLE_GRPC = new Set(["UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED", "RESOURCE_EXHAUSTED"]);

function isRetryableEntry(entry: AdsErrorEntry, retryDelayMs: number | undefined): boolean {
  switch (entry.category) {
    case "internalError":
      return true;
    case "databaseError":
      return entry.value === "CONCURRENT_MODIFICATION";
    case "quotaError":
      if (entry.value === "RESOURCE_TEMPORARILY_EXHAUSTED") return true;
      if (entry.value === "EXCESSIVE_SHORT_TERM_QUERY_RESOURCE_CONSUMPTION") return true;
      // The daily operations cap frees up over a rolling 24 h window; only a stated delay makes a retry sensible.
      if (entry.value === "RESOURCE_EXHAUSTED") return retryDelayMs !== undefined;
      return false;
    default:
      return false;
  }
}

export function isRetryableFailure(httpStatus: number, grpcStatus: string | undefined, errors: AdsErrorEntry[], retryDelayMs: number | undefined): boolean {
  if (errors.length > 0) return errors.every((e) => isRetryableEntry(e, retryDelayMs));
  if (httpStatus === 429 || grpcStatus === "RESOURCE_EXHAUSTED") return true;
  return RETRYABLE_HTTP.has(httpStatus) || (grpcStatus !== undefined && RETRYABLE_GRPC.has(grpcStatus));
}

/**
 * Google answered with a code that means the write was not carried out, so a
 * mutate can be sent again. A 5xx without such a code (a front-end 500/502/504,
 * internalError.DEADLINE_EXCEEDED) may come after the write was applied.
 */
export function writeWasNotApplied(error: GoogleAdsApiError): boolean {
  if (!error.retryable) return true;
  if (error.errors.length > 0) return error.errors.every((e) => e.code !== "internalError.DEADLINE_EXCEEDED");
  return error.httpStatus === 429 || error.httpStatus === 503 || error.grpcStatus === "RESOURCE_EXHAUSTED" || error.grpcStatus === "UNAVAILABLE";
}

function classify(httpStatus: number, grpcStatus: string | undefined, errors: AdsErrorEntry[], reason: string | undefined, retryable: boolean): AdsErrorKind {
  const categories = new Set(errors.map((e) => e.category));
  if (httpStatus === 401 || grpcStatus === "UNAUTHENTICATED" || categories.has("authenticationError")) {
    return "authentication";
  }
  if (reason === "ACCESS_TOKEN_SCOPE_INSUFFICIENT") return "authentication";
  if (categories.has("quotaError") || httpStatus === 429) return "quota";
  if (httpStatus === 403 || grpcStatus === "PERMISSION_DENIED" || categories.has("authorizationError")) {
    return "permission";
  }
  if (retryable) return "transient";
  if (httpStatus === 404 || grpcStatus === "NOT_FOUND") return "notFound";
  if (httpStatus >= 400 && httpStatus < 500) return "invalidRequest";
  return "unknown";
}

/** Used when Google's entry has no message of its own. */
const CODE_HINTS: Record<string, string> = {
  "authorizationError.USER_PERMISSION_DENIED":
    "The signed-in Google user has no access to this Google Ads account. If access comes through a manager account, the manager must be used as the login account.",
  "authorizationError.DEVELOPER_TOKEN_NOT_APPROVED": "The developer token is only approved for use with test accounts.",
  "authorizationError.CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION": "The Google Cloud project is only approved for use with test accounts.",
  "authorizationError.CUSTOMER_NOT_ENABLED": "This Google Ads account is not enabled (cancelled or not fully set up).",
  "authenticationError.OAUTH_TOKEN_EXPIRED": "The Google sign-in has expired. Reconnect the Google Ads account.",
  "authenticationError.OAUTH_TOKEN_INVALID": "The Google sign-in is no longer valid. Reconnect the Google Ads account.",
  "authenticationError.OAUTH_TOKEN_REVOKED": "Access to Google Ads was revoked. Reconnect the Google Ads account.",
  "authenticationError.NOT_ADS_USER": "The signed-in Google account has no Google Ads account.",
  "authenticationError.CUSTOMER_NOT_FOUND": "Google Ads could not find this account (new accounts can take a few minutes to appear).",
  "headerError.INVALID_LOGIN_CUSTOMER_ID": "The manager account sent as login-customer-id is not valid.",
  "quotaError.RESOURCE_TEMPORARILY_EXHAUSTED": "Too many requests to Google Ads right now.",
  "quotaError.RESOURCE_EXHAUSTED": "The daily Google Ads API quota is used up; it frees up over the next 24 hours.",
  "databaseError.CONCURRENT_MODIFICATION": "Someone else changed the same item at the same time.",
  "internalError.TRANSIENT_ERROR": "Google Ads had a temporary problem.",
  "internalError.INTERNAL_ERROR": "Google Ads had an internal error.",
};

const ACCESS_LEVELS_URL = "https://developers.google.com/google-ads/api/docs/api-policy/access-levels";
const CLOUD_CONSOLE_ADS_API_URL = "https://console.cloud.google.com/google/ads-apis/overview";
const APPLY_FOR_ACCESS =
  `Apply for Explorer access (up to 2,880 operations a day on real accounts; usually approved automatically) on the Google Ads API overview page ` +
  `of that project in the Google Cloud Console, ${CLOUD_CONSOLE_ADS_API_URL}; Basic (15,000 a day) and Standard are applied for there too (${ACCESS_LEVELS_URL}).`;

/**
 * Said after Google's own message, which names the access to apply for but not where or for what:
 * since the developer-token sunset (2026-09-09) the access level belongs to the Google Cloud project
 * that owns the OAuth client, and older API versions still answer with the token's error.
 */
const ACCESS_HINTS: Record<string, string> = {
  "authorizationError.CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION": `The Google Cloud project that owns this app's OAuth client (GOOGLE_CLIENT_ID) has Test access, which reaches Google Ads test accounts only. ${APPLY_FOR_ACCESS}`,
  "authorizationError.DEVELOPER_TOKEN_NOT_APPROVED": `Since developer tokens were retired (2026-09-09) this means the Google Cloud project that owns this app's OAuth client (GOOGLE_CLIENT_ID) has Test access, which reaches Google Ads test accounts only; GOOGLE_ADS_DEVELOPER_TOKEN is not needed. ${APPLY_FOR_ACCESS}`,
};

const REASON_HINTS: Record<string, string> = {
  ACCESS_TOKEN_SCOPE_INSUFFICIENT:
    "The Google sign-in did not grant access to Google Ads (the Ads permission was not allowed on the consent screen). Reconnect and allow Google Ads access.",
};

function describeEntry(e: AdsErrorEntry): string {
  const text = e.message || CODE_HINTS[e.code] || e.value;
  return e.fieldPath ? `${text} (at ${e.fieldPath})` : text;
}

function describeFailure(init: GoogleAdsApiErrorInit, errors: AdsErrorEntry[], kind: AdsErrorKind): string {
  const prefix =
    kind === "transient" ? "Google Ads had a temporary problem" : kind === "quota" ? "Google Ads rate limit reached" : "Google Ads rejected the request";
  let reason: string;
  let tags: string[] = [];
  if (errors.length > 0) {
    const first = errors[0];
    reason = describeEntry(first);
    const hint = ACCESS_HINTS[first.code];
    if (hint) reason = `${/[.!?)]$/.test(reason) ? reason : `${reason}.`} ${hint}`;
    tags.push(first.code);
    if (errors.length > 1) reason += ` (and ${errors.length - 1} more error${errors.length > 2 ? "s" : ""})`;
  } else if (init.reason && REASON_HINTS[init.reason]) {
    reason = REASON_HINTS[init.reason];
    tags.push(init.reason);
  } else if (init.apiMessage) {
    reason = init.apiMessage;
    if (init.reason) tags.push(init.reason);
  } else if (init.nonJsonSummary) {
    return init.requestId ? `${init.nonJsonSummary} (request ID ${init.requestId})` : init.nonJsonSummary;
  } else {
    reason = `HTTP ${init.httpStatus}${init.grpcStatus ? ` ${init.grpcStatus}` : ""}`;
  }
  if (init.requestId) tags.push(`request ID ${init.requestId}`);
  tags = tags.filter(Boolean);
  const sentence = /[.!?)]$/.test(reason) ? reason : `${reason}.`;
  return `${prefix}: ${sentence}${tags.length ? ` [${tags.join("; ")}]` : ""}`;
}
