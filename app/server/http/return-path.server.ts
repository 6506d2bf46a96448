import { getConfig } from "../env.server";

/**
 * The one check for every "go back to this page afterwards" value (the Google
 * sign-in's returnTo, the Sync form's returnTo, anything added later).
 *
 * The value is parsed exactly as the browser will parse the Location header
 * (WHATWG URL against APP_URL), so tricks that a prefix check misses
 * (`/\evil`, `/%09/evil` decoded to a tab, `//evil`) resolve to their real
 * origin and are refused. Control characters are refused outright: browsers
 * silently drop tab/CR/LF inside URLs, and they would break the header.
 * Anything refused becomes `fallback`, never an error.
 */
// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function safeReturnPath(value: unknown, fallback: string, appUrl: string = getConfig().APP_URL): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (CONTROL.test(value)) return fallback;
  // Only paths: "https://app/x" or "x" are not what any form of ours sends.
  if (!value.startsWith("/")) return fallback;
  let target: URL;
  let base: URL;
  try {
    base = new URL(appUrl);
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  // API endpoints are not pages (and the OAuth ones would loop).
  if (target.pathname.toLowerCase().startsWith("/api/")) return fallback;
  // The serialised form is percent-encoded ASCII: always a valid header value.
  return `${target.pathname}${target.search}${target.hash}`;
}
