import type { z } from "zod";

// The failures a service reports, without HTTP: the assistant's tools and the
// background jobs need the same "not found / conflict / invalid" as the routes.
// HTTP is mapped at the edge, once for /api/v1 (http/api-route.server.ts) and
// once for pages (http/page-errors.server.ts). Messages are safe and useful to
// show a person or an API client; field errors are keyed by the field's path.

export type FieldErrors = Record<string, string>;

export abstract class DomainError extends Error {
  abstract readonly kind: "not_found" | "conflict" | "invalid" | "limited" | "unavailable" | "paused";
  constructor(
    message: string,
    public readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
  }

  /** The same failure with its field errors renamed (a form names its fields its own way). */
  withFieldErrors(fieldErrors: FieldErrors): this {
    const Kind = this.constructor as new (message: string, fieldErrors?: FieldErrors) => this;
    return new Kind(this.message, fieldErrors);
  }
}

/** The thing does not exist, or is someone else's (indistinguishable on purpose). */
export class NotFoundError extends DomainError {
  readonly kind = "not_found";
  name = "NotFoundError";
}

/** The thing exists but its state forbids this (already applied, not connected, …). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
  name = "ConflictError";
}

/** The input breaks a rule; fieldErrors says which field, when one does. */
export class InvalidError extends DomainError {
  readonly kind = "invalid";
  name = "InvalidError";
}

/** A quota of this user's is used up (the assistant's daily messages); it resets by itself. */
export class LimitReachedError extends DomainError {
  readonly kind = "limited";
  name = "LimitReachedError";
  /** When to try again, when known (the HTTP edge sends it as Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * A service this one depends on failed (the language model); the input was
 * kept. `chatId` names the chat the question is stored in, so a client can
 * retry there.
 */
export class UnavailableError extends DomainError {
  readonly kind = "unavailable";
  name = "UnavailableError";
  constructor(
    message: string,
    public readonly chatId?: string,
  ) {
    super(message);
  }
}

/**
 * Calls to a service are held back until `resumesAt` (the install's Google Ads budget is spent, or
 * Google asked for a pause): nothing was sent, and trying again before then is pointless. A 503
 * with Retry-After at the edge.
 */
export class PausedError extends DomainError {
  readonly kind = "paused";
  name = "PausedError";
  constructor(
    message: string,
    public readonly resumesAt: string,
  ) {
    super(message);
  }
}

/** First message per field, keyed by the field's path ("email", "actions.0.amount"). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    out[key] ??= issue.message;
  }
  return out;
}

/** A failed zod parse as an InvalidError whose message is the first field's. */
export function invalidInput(error: z.ZodError): InvalidError {
  const fieldErrors = fieldErrorsOf(error);
  return new InvalidError(Object.values(fieldErrors)[0] ?? "Invalid request", fieldErrors);
}

/** Parses or throws an InvalidError. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw invalidInput(r.error);
  return r.data;
}
