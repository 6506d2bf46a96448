/**
 * Text written by third parties (campaign and keyword names, search terms, ad
 * text, URLs, emails) on its way to the model: C0/C1 control characters,
 * zero-width and bidi-override characters and Unicode tag characters (the
 * invisible-instruction channel) are removed, whitespace runs collapse, and
 * the length is capped. The result is placed in a JSON field, never spliced
 * into prompt text, so it cannot close a fence or add a key.
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;

export const UNTRUSTED_MAX = 200;

export function untrusted(value: string | null | undefined, max = UNTRUSTED_MAX): string {
  if (value === null || value === undefined) return "";
  const clean = value.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
