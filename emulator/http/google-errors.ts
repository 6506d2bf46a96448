import type { GoogleAdsErrorEntry } from "../ads/contract";
import { escapeHtml } from "./util";

/**
 * Google's REST error envelope ({"error":{code,message,status,details}}) and the
 * texts its front end uses. Messages are Google's own wording where a real
 * capture exists (see shared/google-ads-api/README.md §6).
 */

export const MSG = {
  INVALID_ARGUMENT: "Request contains an invalid argument.",
  PERMISSION_DENIED: "The caller does not have permission",
  CREDENTIALS_MISSING:
    "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
  CREDENTIALS_INVALID:
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
  SCOPE_INSUFFICIENT: "Request had insufficient authentication scopes.",
  INTERNAL: "Internal error encountered.",
  UNAVAILABLE: "The service is currently unavailable.",
  UNIMPLEMENTED: "Operation is not implemented, or supported, or enabled.",
  RESOURCE_EXHAUSTED: "Resource has been exhausted (e.g. check quota).",
} as const;

export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

/** An error that becomes one Google error envelope; thrown anywhere inside an Ads route. */
export class GoogleApiError extends Error {
  constructor(
    public readonly httpStatus: number,
    public readonly status: string,
    message: string,
    /** GoogleAdsFailure entries; when non-empty a GoogleAdsFailure detail is emitted with the request id. */
    public readonly adsErrors: GoogleAdsErrorEntry[] = [],
    /** Other details (google.rpc.ErrorInfo, BadRequest, RetryInfo), emitted after the GoogleAdsFailure. */
    public readonly otherDetails: unknown[] = [],
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "GoogleApiError";
  }
}

export function googleAdsFailureType(version: string): string {
  return `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`;
}

export function errorBody(err: GoogleApiError, version: string, requestId: string): GoogleErrorBody {
  const details: unknown[] = [];
  if (err.adsErrors.length > 0) {
    details.push({ "@type": googleAdsFailureType(version), errors: err.adsErrors, requestId });
  }
  details.push(...err.otherDetails);
  return {
    error: {
      code: err.httpStatus,
      message: err.message,
      status: err.status,
      ...(details.length > 0 ? { details } : {}),
    },
  };
}

/** google.rpc.ErrorInfo as Google's front end attaches it to auth failures. */
export function errorInfo(reason: string, method: string | undefined): Record<string, unknown> {
  return {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason,
    domain: "googleapis.com",
    metadata: { service: "googleads.googleapis.com", ...(method ? { method } : {}) },
  };
}

/** Malformed or mistyped JSON, reported by the front end before the Ads backend sees it. */
export function invalidJson(description: string, field?: string): GoogleApiError {
  return new GoogleApiError(
    400,
    "INVALID_ARGUMENT",
    description,
    [],
    [
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [{ ...(field !== undefined ? { field } : {}), description }],
      },
    ],
  );
}

export function notFoundHtml(path: string): string {
  // Google front end's 404 page, minus the remote logo image.
  return `<!DOCTYPE html>
<html lang=en>
  <meta charset=utf-8>
  <meta name=viewport content="initial-scale=1, minimum-scale=1, width=device-width">
  <title>Error 404 (Not Found)!!1</title>
  <style>
    *{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}html{background:#fff;color:#222;padding:15px}body{margin:7% auto 0;max-width:390px;min-height:180px;padding:30px 0 15px}p{margin:11px 0 22px;overflow:hidden}ins{color:#777;text-decoration:none}#logo{font:bold 28px arial,sans-serif;color:#4285f4}
  </style>
  <span id=logo aria-label=Google>Google</span>
  <p><b>404.</b> <ins>That’s an error.</ins>
  <p>The requested URL <code>${escapeHtml(path)}</code> was not found on this server.  <ins>That’s all we know.</ins>
`;
}
