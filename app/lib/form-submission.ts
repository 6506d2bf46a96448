import { parseWithZod, type Submission } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { FormResult } from "./form-result";

// How a form is read against its zod schema, the same in the browser (Conform's
// onValidate, before submitting) and in the route action (the authority, and
// the only check without JavaScript). See docs/decisions/008 (amendment).

/**
 * The raw strings, as typed: no coercion, so "" reaches the schema as "" and
 * the schema's own messages ("Daily budget must be a number") are the ones shown,
 * as for the JSON API and the services.
 */
export function parseSubmission<S extends z.ZodType>(formData: FormData | URLSearchParams, schema: S) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true });
}

/**
 * A refusal the schema could not see (the service's, e.g. "Ad group not found
 * in this account"): the message above the form plus one message per field.
 */
export function refusal(
  submission: Submission<unknown, string[], unknown>,
  failure: { formError: string; errors?: Record<string, string> },
  options: { hideFields?: string[] } = {},
): FormResult {
  const fieldErrors = Object.fromEntries(Object.entries(failure.errors ?? {}).map(([name, message]) => [name, [message]]));
  return submission.reply({ formErrors: [failure.formError], fieldErrors, hideFields: options.hideFields });
}
