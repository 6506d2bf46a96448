import { data } from "react-router";
import type { z } from "zod";
import { AdsClientError } from "../ads/errors.server";
import { ReconnectNeededError } from "../auth/google-connection.server";
import { DomainError, fieldErrorsOf, invalidInput, LimitReachedError, PausedError, UnavailableError, type FieldErrors } from "../domain-errors.server";

export { fieldErrorsOf };

/** An HTTP-only failure (401, 405, 415, 429 with its headers); services throw domain errors instead. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly detail: string,
    public readonly fieldErrors?: Record<string, string>,
    public readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = "HttpError";
  }
}

const STATUS_OF: Record<DomainError["kind"], number> = { not_found: 404, conflict: 409, invalid: 400, limited: 429, unavailable: 502, paused: 503 };

/** An HttpError, or a domain error as one; undefined for anything else (Google's failures included). */
export function userFacingError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof UnavailableError && error.chatId) return new HttpError(502, error.message, undefined, { "X-Chat-Id": error.chatId });
  if (error instanceof LimitReachedError && error.retryAfterSeconds !== undefined) {
    return new HttpError(429, error.message, error.fieldErrors, { "Retry-After": String(error.retryAfterSeconds) });
  }
  if (error instanceof PausedError) {
    const seconds = Math.max(1, Math.ceil((Date.parse(error.resumesAt) - Date.now()) / 1000));
    return new HttpError(503, error.message, undefined, { "Retry-After": String(seconds) });
  }
  if (error instanceof DomainError) return new HttpError(STATUS_OF[error.kind], error.message, error.fieldErrors);
  return undefined;
}

/**
 * The one mapping from what went wrong to an HTTP status and a safe message,
 * or undefined for a bug (which stays a 500). Google unreachable is a 502 with
 * its reason; a Google connection that needs reconnecting a 409.
 */
export function toHttpError(error: unknown): HttpError | undefined {
  const known = userFacingError(error);
  if (known) return known;
  if (error instanceof AdsClientError) return new HttpError(502, error.userMessage);
  if (error instanceof ReconnectNeededError) return new HttpError(409, error.message);
  return undefined;
}

/** A failed body parse: 400 with one message per field. */
export function validationError(error: z.ZodError) {
  return invalidInput(error);
}

/** Parses a JSON request body with a schema; anything malformed is a 400 with a detail, never a 500. */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new HttpError(415, "Content-Type must be application/json");
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new HttpError(400, "Request body is not valid JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** JSON error body in the API's one error shape: { detail, errors? }; anything unexpected is rethrown (a 500). */
export function apiError(error: unknown, headers?: Record<string, string>) {
  const http = toHttpError(error);
  if (!http) throw error;
  return data(
    { detail: http.detail, ...(http.fieldErrors ? { errors: http.fieldErrors } : {}) },
    { status: http.status, headers: { ...http.headers, ...headers } },
  );
}

export type { FieldErrors };
