// The grounding rule for ad text (rsa.md §5.2–§5.3): every number, price, offer or superlative
// in a line must come from what the advertiser told us (facts, product, audience, keywords) or
// from the ad group's existing ads. Pure and browser-safe: the generator drops lines that break
// it, and the screen flags a typed line that states something nobody gave.

import { withDkiDefaults } from "./ad-text";

/** Words that claim a superiority someone must be able to prove (Google's "advertiser claims"). */
const SUPERLATIVES = [
  "best",
  "#1",
  "no. 1",
  "no.1",
  "number one",
  "top-rated",
  "top rated",
  "highest-rated",
  "highest rated",
  "leading",
  "cheapest",
  "lowest",
  "unbeatable",
  "world's",
  "worlds",
  "fastest",
  "largest",
  "biggest",
  "greatest",
  "finest",
  "award-winning",
  "award winning",
  "most popular",
  "guaranteed",
  "unmatched",
  "unrivalled",
  "unrivaled",
];
/** Words that promise an offer: free, a sale, a discount, a guarantee. */
const OFFERS = [
  "free",
  "discount",
  "discounts",
  "discounted",
  "sale",
  "sales",
  "save",
  "saving",
  "savings",
  "deal",
  "deals",
  "offer",
  "offers",
  "coupon",
  "coupons",
  "promo",
  "promotion",
  "clearance",
  "guarantee",
  "warranty",
  "refund",
  "refunds",
  "money-back",
  "money back",
  "bogo",
  "bonus",
  "cashback",
  "cash back",
  "rebate",
  "half price",
  "half-price",
];

export interface Claim {
  kind: "number" | "offer" | "superlative";
  /** As written in the line. */
  text: string;
}

const norm = (s: string) => withDkiDefaults(s).normalize("NFKC").toLowerCase().replace(/[’]/g, "'");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const phrase = (words: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(${words.map(escape).join("|")})(?![\\p{L}\\p{N}])`, "giu");
const SUPERLATIVE_RE = phrase(SUPERLATIVES);
const OFFER_RE = phrase(OFFERS);
// A number with what makes it a price, a share or a count: "$1,299", "20%", "10,000+", "2.5".
const NUMBER_RE = /([$€£¥]\s?)?(\d+(?:[.,]\d+)*)(\s?%|\+)?/gu;

interface NumberToken {
  value: number;
  unit: "money" | "percent" | "plain";
}

function numbersIn(text: string): Array<NumberToken & { text: string }> {
  const out: Array<NumberToken & { text: string }> = [];
  for (const m of norm(text).matchAll(NUMBER_RE)) {
    const digits = m[2];
    // "1,299" and "1.299" as thousands; "2.5" and "2,5" as decimals.
    const thousands = /^\d{1,3}([.,]\d{3})+$/.test(digits);
    const value = Number(thousands ? digits.replace(/[.,]/g, "") : digits.replace(",", "."));
    if (!Number.isFinite(value)) continue;
    const unit = m[1] ? "money" : m[3]?.includes("%") ? "percent" : "plain";
    out.push({ value, unit, text: m[0].trim() });
  }
  return out;
}

const STOP = new Set("a an and are as at by for from in is it of on or our the to we with you your all any".split(" "));
const stem = (w: string) => w.replace(/(ies|es|s|ed|ing)$/, "").slice(0, 6);
const contentWords = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);

/** The claims a line makes, in order. */
export function claimsIn(text: string): Claim[] {
  const t = norm(text);
  const claims: Claim[] = [];
  for (const n of numbersIn(text)) claims.push({ kind: "number", text: n.text });
  for (const m of t.matchAll(SUPERLATIVE_RE)) claims.push({ kind: "superlative", text: m[1] });
  for (const m of t.matchAll(OFFER_RE)) claims.push({ kind: "offer", text: m[1] });
  return claims;
}

/**
 * The claims in `text` that no source supports. A number needs the same value in a source
 * (a price needs a price or a bare number, a percentage a percentage or a bare number); a word
 * needs the same word; "free X" needs a source saying "free" about X.
 */
export function unsupportedClaims(text: string, sources: readonly string[]): Claim[] {
  const claims = claimsIn(text);
  if (claims.length === 0) return [];
  const normSources = sources.map(norm);
  const sourceNumbers = sources.flatMap(numbersIn);
  const t = norm(text);
  return claims.filter((claim) => {
    if (claim.kind === "number") {
      const [n] = numbersIn(claim.text);
      return !sourceNumbers.some((s) => s.value === n.value && (s.unit === n.unit || s.unit === "plain" || n.unit === "plain"));
    }
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escape(claim.text)}(?![\\p{L}\\p{N}])`, "u");
    const withWord = normSources.filter((s) => word.test(s));
    if (withWord.length === 0) return true;
    if (claim.text !== "free") return false;
    // "Free returns" is not supported by "free shipping": the word after "free" must be there too.
    const after = new RegExp(`(?<![\\p{L}\\p{N}])free\\s+([\\p{L}\\p{N}-]+)`, "u").exec(t)?.[1];
    if (!after || STOP.has(after)) return false;
    const target = stem(after);
    return !withWord.some((s) => contentWords(s).includes(target));
  });
}
