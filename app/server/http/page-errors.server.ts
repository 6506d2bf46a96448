import { AdsClientError } from "../ads/errors.server";
import type { FieldErrors } from "../domain-errors.server";
import { toHttpError } from "./errors.server";

// The pages' one mapping of an expected failure (domain errors, Google
// unreachable, a connection to renew) to what a form shows: a message above
// the form, messages next to the fields, and the status to answer with.
// Anything else is a bug and is rethrown by the caller (the error page).

export interface FormFailure {
  status: number;
  formError: string;
  errors: FieldErrors;
}

export function formFailure(error: unknown): FormFailure | undefined {
  if (error instanceof AdsClientError) return { status: 502, formError: `Google Ads could not be reached: ${error.userMessage}`, errors: {} };
  const http = toHttpError(error);
  if (!http) return undefined;
  return { status: http.status, formError: http.detail, errors: http.fieldErrors ?? {} };
}
