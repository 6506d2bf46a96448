/**
 * What the server's log never carries in clear (ADR 019): credentials
 * (Authorization headers, cookies, passwords, session ids, API and OAuth
 * tokens, keys), the secret part of links (a confirmation link's `?token=`, an
 * OAuth `code`), what a model was sent (prompts hold account data), and email
 * addresses, cut to their first letter and domain (`a…@example.com`), which is
 * enough to tell two people apart in an incident and no more.
 *
 * Fields are censored by pino's `redact` at these paths; free text (a line's
 * message, an error's message and stack) is scrubbed by `scrubText`. The one
 * exception is a mail written to the log because SMTP_URL is unset
 * (`OUTBOX_FIELD`): the log is then the mailbox, and its link must work.
 */

const SECRET_KEYS = [
  "authorization",
  "cookie",
  "password",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "idToken",
  "id_token",
  "sessionId",
  "session_id",
  "apiKey",
  "api_key",
  "secret",
  "clientSecret",
  "link",
];
const EMAIL_KEYS = ["email", "googleEmail", "google_email", "to"];

export const REDACT_PATHS = [
  ...[...SECRET_KEYS, ...EMAIL_KEYS].flatMap((key) => [key, `*.${key}`]),
  ...["headers", "*.headers", "req.headers", "res.headers"].flatMap((h) => [`${h}.authorization`, `${h}.cookie`, `${h}["set-cookie"]`]),
  // The AI SDK's errors carry the whole request (the prompt, account data included) and the provider's reply.
  ...["err", "err.cause", "err.lastError", "err.aggregateErrors[*]"].flatMap((e) => [`${e}.requestBodyValues`, `${e}.responseBody`, `${e}.responseHeaders`]),
  "err.errors",
];

export const REDACTED = "[redacted]";

/** Marks the one line a mail is written to when there is no SMTP server: kept whole. */
export const OUTBOX_FIELD = "outbox";

const EMAIL = /([A-Za-z0-9])[A-Za-z0-9._%+-]*@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})/g;

/** `alice@example.com` → `a…@example.com`. */
export function cutEmail(value: string): string {
  return value.replace(EMAIL, "$1…@$2");
}

export function censor(value: unknown, path: string[]): unknown {
  // An address is cut; anything else under an address's name ("to" of a date range) is not one.
  if (EMAIL_KEYS.includes(path.at(-1) ?? "")) return typeof value === "string" ? cutEmail(value) : value;
  return REDACTED;
}

const SECRET_PARAMS = "token|code|state|access_token|refresh_token|id_token|key|api_key|apikey|sig|signature|password|secret|session";

/** Secrets and addresses in free text: bearer and personal access tokens, cookies, secret query parameters, URL credentials, emails. */
export function scrubText(text: string): string {
  return cutEmail(
    text
      .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
      // A personal access token anywhere (pasted into a field, a URL): its prefix makes it recognisable.
      .replace(/\baam_pat_[A-Za-z0-9_-]+/g, `aam_pat_${REDACTED}`)
      .replace(/\b((?:set-)?cookie):[^\n]*/gi, `$1: ${REDACTED}`)
      .replace(new RegExp(`([?&#](?:${SECRET_PARAMS})=)[^&\\s#"'<>]+`, "gi"), `$1${REDACTED}`)
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, `$1${REDACTED}@`),
  );
}
