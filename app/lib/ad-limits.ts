import { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX } from "./ad-templates";

// Google Ads limits for responsive search ads and keywords, shared by the
// forms (to warn while typing) and the server (to refuse before storing).
// Text lengths come from ad-templates so the generator and the editor agree.

export { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX };

export const RSA_HEADLINES_MIN = 3;
export const RSA_HEADLINES_MAX = 15;
export const RSA_DESCRIPTIONS_MIN = 2;
export const RSA_DESCRIPTIONS_MAX = 4;
export const HEADLINE_PINS = ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"] as const;
export const DESCRIPTION_PINS = ["DESCRIPTION_1", "DESCRIPTION_2"] as const;

export const KEYWORD_MAX_CHARS = 80;
export const KEYWORD_MAX_WORDS = 10;
export const KEYWORD_MATCH_TYPES = ["EXACT", "PHRASE", "BROAD"] as const;
/** Characters Google refuses in keyword text (KEYWORD_HAS_INVALID_CHARS). */
export const KEYWORD_INVALID_CHARS = /[!@%^()={};~`<>?\\|,*]/;

export function keywordWordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}
