import { data } from "react-router";
import type { z } from "zod";

/** An error whose message is safe and useful to show the user or API client. */
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

/** First message per field, keyed by the field's path ("email", "password"). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    out[key] ??= issue.message;
  }
  return out;
}

export function validationError(error: z.ZodError) {
  const fieldErrors = fieldErrorsOf(error);
  return new HttpError(400, Object.values(fieldErrors)[0] ?? "Invalid request", fieldErrors);
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

/** JSON error body in the API's one error shape: { detail, errors? }. */
export function apiError(error: unknown) {
  if (error instanceof HttpError) {
    return data(
      { detail: error.detail, ...(error.fieldErrors ? { errors: error.fieldErrors } : {}) },
      { status: error.status, headers: error.headers },
    );
  }
  throw error;
}
