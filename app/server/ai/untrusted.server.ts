/**
 * Text written by third parties (campaign and keyword names, search terms, ad
 * text, URLs, emails) on its way to the model: control and format characters
 * (Unicode categories Cc and Cf: C0/C1 controls, zero-width characters, every
 * bidi mark and override including U+061C, Unicode tag characters, the
 * invisible-instruction channel), private-use characters and the invisible
 * "filler" letters are removed, whitespace runs collapse, and the length is
 * capped. The result is placed in a JSON field, never spliced into prompt
 * text, so it cannot close a fence or add a key.
 */
// By category rather than by list, so a format character nobody listed cannot slip through.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Variation_Selector}\u115f\u1160\u3164\uffa0]|\u034f|\u17b4|\u17b5/gu;

export const UNTRUSTED_MAX = 200;

export function untrusted(value: string | null | undefined, max = UNTRUSTED_MAX): string {
  if (value === null || value === undefined) return "";
  const clean = value.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
