import { withDkiDefaults } from "./ad-text";

// Generic filler: a line that could sit in anyone's ad ("Request a Quote Today", "Talk to Our
// Team", "Learn More Today"). Google's "uniqueness" factor and its editorial rule against vague
// text both count against such lines, so the estimate must too: a line is filler when every
// word it has is a call-to-action verb, a stock phrase word or a time word, and nothing in it
// names the product, a keyword, the audience, a place or a fact. Pure and browser-safe: the
// screen scores as the person types.

const FILLER_WORDS = new Set(
  `a an and are as at be by for from in is it of on or the to with this that all any here there
   we we're were our ours us you you're your yours yourself it's let's lets what's
   today now tonight soon next new now's anytime always
   learn more get got getting started start starting explore discover see look take try find finding
   choose pick compare browse view check visit come go shop order book reserve buy request ask talk
   call contact chat say hello speak meet plan planning help helping helpful support contact
   quote quotes estimate team experts expert people person advice answers answer questions question details detail info information
   option options choice choices range full collection selection everything one place simple simply easy easily fast quick quickly
   right fit suits suit perfect ideal great good better quality care made with love trusted friendly flexible available
   online ordering step steps way ways needs need goals goal solution solutions service services offer
   favourite favorite favourites favorites yours what's whats why how who where when our's
   more info site page today's consultation consult visit visits appointment appointments arrange booking call calls
   tell pop love we'd we'll enjoy happy ready time suits whenever touch side by have has browsing thinking while`.split(/\s+/),
);

const wordsOf = (text: string) =>
  withDkiDefaults(text)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’]/g, "'")
    .match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];

/** True when the line says nothing specific: every word is a stock call-to-action or filler word. */
export function isGenericLine(text: string): boolean {
  const words = wordsOf(text);
  if (words.length === 0) return false;
  // A number is specific (a price, a count, a size); so is any word outside the stock vocabulary.
  return words.every((w) => FILLER_WORDS.has(w.replace(/'s$/, "")) || FILLER_WORDS.has(w));
}

/** How many generic lines an ad may hold before each one lowers the estimate: one call to action is good practice. */
export const GENERIC_LINES_ALLOWED = 1;
