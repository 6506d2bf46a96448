import { eastAsianWidth } from "get-east-asian-width";

// How Google measures ad text, shared by the gate (ad-lint) and the grounding rule (ad-claims).

/** The five case forms of keyword insertion Google accepts: {keyword:…}, {Keyword:…}, {KeyWord:…}, {KEYWord:…}, {KeyWORD:…}. */
export const DKI_TAG = /\{(keyword|Keyword|KeyWord|KEYWord|KeyWORD):([^{}]*)\}/g;

/** The text as Google measures it: each keyword-insertion tag replaced by its default text. */
export function withDkiDefaults(text: string): string {
  return text.replace(DKI_TAG, (_m, _form, fallback: string) => fallback);
}

/**
 * Google's width: NFC code points, a wide or full-width (CJK) character counts 2, everything
 * else 1; `{KeyWord:Default}` counts only its default text.
 */
export function adTextWidth(text: string): number {
  let width = 0;
  for (const ch of withDkiDefaults(text).normalize("NFC")) {
    width += eastAsianWidth(ch.codePointAt(0)!) === 2 ? 2 : 1;
  }
  return width;
}
