// How a negative keyword matches a search query (Google Ads Help 2453972):
// broad = every word of the negative appears in the query, in any order;
// phrase = the words appear contiguously in that order; exact = the query is
// the negative. Negatives do not expand to close variants. Only the first 16
// words of a query count.
//
// The engine judges a negative against a positive keyword by the query that
// is the keyword's own text: if the negative blocks that query, it blocks the
// keyword (fully for exact keywords, for most of its traffic otherwise). That
// is stricter than Google's conflict script (which ignores a phrase negative
// under a broad keyword) on purpose: the engine must never propose a negative
// that silences a keyword the advertiser chose.

export type MatchType = "EXACT" | "PHRASE" | "BROAD";

export interface NegativeKeyword {
  text: string;
  matchType: string;
}

export function normalizeKeyword(text: string): string {
  return text
    .toLowerCase()
    .replace(/[+"[\]]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// The engine matches the same texts against each other many times per run.
const tokenCache = new Map<string, string[]>();

export function tokens(text: string): string[] {
  let hit = tokenCache.get(text);
  if (hit) return hit;
  if (tokenCache.size > 500_000) tokenCache.clear();
  const t = normalizeKeyword(text);
  hit = t === "" ? [] : t.split(" ");
  tokenCache.set(text, hit);
  return hit;
}

/** Single words too common to mean anything on their own (Opteo ignores stop words for single words). */
export const STOP_WORDS = new Set(
  "a an and are as at be by for from how i in is it me my near of on or the to what when where which who with you your".split(" "),
);

/**
 * A light stem, so that a singular and its plural (toy/toys, box/boxes,
 * battery/batteries, knife/knives) and simple -ing/-ed forms meet. Google's
 * negatives do not match close variants, so "toy" never blocks the keyword
 * "kids toys" — which is exactly why the product-word test (below) compares stems.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, "");
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ches|shes|sses|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  // running → runn → run; knife/knives → kniv (f and v meet).
  if (/([bdgmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w.replace(/f$/, "v");
}

/**
 * Whether every meaningful word of the negative is a word (by stem) of these
 * keywords: the product the ad group or campaign sells. Such a negative blocks
 * every future query for that product, so the engine never proposes one
 * (issue 28 point 1); stop words do not count either way.
 */
export function isProductWordNegative(negativeText: string, keywordTexts: string[]): boolean {
  const words = tokens(negativeText).filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) return false;
  const own = new Set(keywordTexts.flatMap((k) => tokens(k).map(stem)));
  return words.every((w) => own.has(stem(w)));
}

/**
 * Whether a negative would exclude searches for the brand: it contains a whole brand keyword
 * ("northwind coffee jobs" holds "northwind coffee") or all its words are brand words. Stems compared.
 */
export function isBrandNegative(negativeText: string, brandKeywordTexts: string[]): boolean {
  if (brandKeywordTexts.length === 0) return false;
  const n = tokens(negativeText).map(stem);
  if (brandKeywordTexts.some((k) => containsContiguous(n, tokens(k).map(stem)))) return true;
  return isProductWordNegative(negativeText, brandKeywordTexts);
}

function containsContiguous(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Whether the negative keeps an ad from showing for this query. */
export function negativeBlocksQuery(negative: NegativeKeyword, query: string): boolean {
  const q = tokens(query).slice(0, 16);
  const n = tokens(negative.text);
  if (n.length === 0 || q.length === 0) return false;
  switch (negative.matchType) {
    case "EXACT":
      return n.length === q.length && n.every((w, i) => w === q[i]);
    case "PHRASE":
      return containsContiguous(q, n);
    default:
      return n.every((w) => q.includes(w));
  }
}

/** Whether the negative blocks the positive keyword's own query (see the module note). */
export function negativeBlocksKeyword(negative: NegativeKeyword, keywordText: string): boolean {
  return negativeBlocksQuery(negative, keywordText);
}

/**
 * Google's own conflict test for an existing negative against a positive
 * keyword (its Negative Keyword Conflicts script): a negative stricter than the
 * positive (phrase/exact under broad, exact under phrase) is not a conflict —
 * it blocks a sliver of the keyword's traffic, not the keyword.
 */
export function negativeConflictsWithKeyword(negative: NegativeKeyword, keyword: { text: string; matchType: string }): boolean {
  const stricter = keyword.matchType === "BROAD" ? negative.matchType !== "BROAD" : keyword.matchType === "PHRASE" ? negative.matchType === "EXACT" : false;
  if (stricter) return false;
  return negativeBlocksQuery(negative, keyword.text);
}
