// @vitest-environment node
import { describe, expect, it } from "vitest";
import { GoogleAdsApiError, errorFromStatus, isRetryableFailure, parseDurationMs, parseErrorResponse, writeWasNotApplied } from "./errors.server";

const FAILURE = "type.googleapis.com/google.ads.googleads.v22.errors.GoogleAdsFailure";
const headers = (id?: string) => new Headers(id ? { "request-id": id } : {});

function adsError(status: number, grpc: string, errors: unknown[], extra: unknown[] = []) {
  return JSON.stringify({ error: { code: status, message: "msg", status: grpc, details: [{ "@type": FAILURE, errors, requestId: "body-id" }, ...extra] } });
}

describe("parseErrorResponse", () => {
  it("reads every GoogleAdsFailure field", () => {
    const error = parseErrorResponse({
      status: 400,
      headers: headers("header-id"),
      text: adsError(400, "INVALID_ARGUMENT", [
        {
          errorCode: { fieldError: "REQUIRED" },
          message: "Required field was not specified.",
          trigger: { int64Value: "42" },
          location: {
            fieldPathElements: [
              { fieldName: "mutate_operations", index: 3 },
              { fieldName: "campaign_operation" },
              { fieldName: "create" },
              { fieldName: "final_urls", index: 0 },
            ],
          },
          details: { unpublishedErrorCode: "X" },
        },
      ]),
    });
    expect(error.requestId).toBe("body-id");
    expect(error.errors).toEqual([
      {
        code: "fieldError.REQUIRED",
        category: "fieldError",
        value: "REQUIRED",
        message: "Required field was not specified.",
        fieldPath: "mutate_operations[3].campaign_operation.create.final_urls[0]",
        trigger: "42",
        details: { unpublishedErrorCode: "X" },
      },
    ]);
  });

  it("finds the error element of an array-wrapped body, even after result batches", () => {
    const text = JSON.stringify([{ results: [] }, { error: { code: 403, status: "PERMISSION_DENIED", message: "The caller does not have permission" } }]);
    const error = parseErrorResponse({ status: 403, headers: headers("h"), text });
    expect(error).toMatchObject({ httpStatus: 403, grpcStatus: "PERMISSION_DENIED", requestId: "h", errors: [] });
    expect(error.userMessage).toBe("Google Ads rejected the request: The caller does not have permission. [request ID h]");
  });

  it("describes non-JSON and empty bodies by status", () => {
    const html = parseErrorResponse({ status: 502, text: "<html><title>502 Server Error</title></html>" });
    expect(html).toMatchObject({ httpStatus: 502, retryable: true, kind: "transient" });
    expect(html.userMessage).toBe("Google Ads API answered HTTP 502 (502 Server Error) without a Google error description.");
    const empty = parseErrorResponse({ status: 404, statusText: "Not Found", text: "", what: "GET /v99/customers:listAccessibleCustomers" });
    expect(empty.userMessage).toContain("HTTP 404 (Not Found)");
    expect(empty.userMessage).toContain("GET /v99/customers:listAccessibleCustomers; the API URL or version is probably wrong");
  });

  it("reads an OAuth-style error body", () => {
    const error = parseErrorResponse({
      status: 400,
      text: JSON.stringify({ error: "invalid_grant", error_description: "Token has been expired or revoked." }),
    });
    expect(error.userMessage).toContain("invalid_grant: Token has been expired or revoked.");
  });

  it("takes the longest of quotaErrorDetails and RetryInfo delays, or the prose fallback", () => {
    const both = parseErrorResponse({
      status: 429,
      text: adsError(
        429,
        "RESOURCE_EXHAUSTED",
        [{ errorCode: { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" }, message: "m", details: { quotaErrorDetails: { retryDelay: "3s" } } }],
        [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }],
      ),
    });
    expect(both.retryDelayMs).toBe(3000);
    const prose = errorFromStatus({ code: 429, status: "RESOURCE_EXHAUSTED", message: "Too many requests. Retry in 17 seconds." }, 429);
    expect(prose.retryDelayMs).toBe(17_000);
  });
});

describe("classification", () => {
  const entry = (category: string, value: string) => ({ code: `${category}.${value}`, category, value, message: "" });

  it("retries only transient codes", () => {
    expect(isRetryableFailure(500, "INTERNAL", [entry("internalError", "TRANSIENT_ERROR")], undefined)).toBe(true);
    expect(isRetryableFailure(500, "INTERNAL", [entry("internalError", "INTERNAL_ERROR")], undefined)).toBe(true);
    expect(isRetryableFailure(409, "ABORTED", [entry("databaseError", "CONCURRENT_MODIFICATION")], undefined)).toBe(true);
    expect(isRetryableFailure(429, "RESOURCE_EXHAUSTED", [entry("quotaError", "RESOURCE_TEMPORARILY_EXHAUSTED")], undefined)).toBe(true);
    expect(isRetryableFailure(429, "RESOURCE_EXHAUSTED", [entry("quotaError", "RESOURCE_EXHAUSTED")], undefined)).toBe(false);
    expect(isRetryableFailure(429, "RESOURCE_EXHAUSTED", [entry("quotaError", "RESOURCE_EXHAUSTED")], 5000)).toBe(true);
    expect(isRetryableFailure(400, "INVALID_ARGUMENT", [entry("databaseError", "DATA_CONSTRAINT_VIOLATION")], undefined)).toBe(false);
    // One permanent error among transient ones makes the whole request permanent.
    expect(isRetryableFailure(500, "INTERNAL", [entry("internalError", "TRANSIENT_ERROR"), entry("fieldError", "REQUIRED")], undefined)).toBe(false);
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableFailure(status, undefined, [], undefined)).toBe(true);
    for (const status of [400, 401, 403, 404, 409]) expect(isRetryableFailure(status, undefined, [], undefined)).toBe(false);
  });

  it("says a write was not applied only when Google's answer proves it", () => {
    const make = (httpStatus: number, grpcStatus?: string, errors: ReturnType<typeof entry>[] = []) =>
      new GoogleAdsApiError({ httpStatus, grpcStatus, errors });
    expect(writeWasNotApplied(make(400, "INVALID_ARGUMENT", [entry("fieldError", "REQUIRED")]))).toBe(true);
    expect(writeWasNotApplied(make(500, "INTERNAL", [entry("internalError", "TRANSIENT_ERROR")]))).toBe(true);
    expect(writeWasNotApplied(make(429, "RESOURCE_EXHAUSTED"))).toBe(true);
    expect(writeWasNotApplied(make(503, "UNAVAILABLE"))).toBe(true);
    expect(writeWasNotApplied(make(504, "DEADLINE_EXCEEDED"))).toBe(false);
    expect(writeWasNotApplied(make(500))).toBe(false);
    expect(writeWasNotApplied(make(502))).toBe(false);
    expect(writeWasNotApplied(make(500, "INTERNAL", [entry("internalError", "DEADLINE_EXCEEDED")]))).toBe(false);
  });

  it("parses protobuf durations", () => {
    expect(parseDurationMs("60s")).toBe(60_000);
    expect(parseDurationMs("0.250s")).toBe(250);
    expect(parseDurationMs("soon")).toBeUndefined();
    expect(parseDurationMs(5)).toBeUndefined();
  });
});
