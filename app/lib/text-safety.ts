/**
 * Unicode direction controls (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, and
 * the marks LRM, RLM, ALM) are invisible yet reorder what a reviewer sees
 * ("Trojan Source"): a title or keyword could read differently on the review
 * page than what Google receives. Text the product sends or shows is refused
 * when it contains one.
 */
export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export const BIDI_MESSAGE = "cannot contain invisible text-direction characters";

export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL.test(text);
}
