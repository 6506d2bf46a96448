import type { SubmissionResult } from "@conform-to/react";

// The shape of a refused form's answer, without zod or Conform at run time:
// /login reads it with no validator in its bundle (docs/decisions/008, amendment).

/** What an action answers for a refused form: Conform's reply (messages by field name, "" for the form's own; what was typed). */
export type FormResult = SubmissionResult<string[]>;

/** The first message per field ("" is the form's own), for screens that show one line per field. */
export function firstErrors(result: FormResult | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.[0]) out[name] = messages[0];
  return out;
}
