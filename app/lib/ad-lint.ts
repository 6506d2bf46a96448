import { unsupportedClaims } from "./ad-claims";
import { GENERIC_LINES_ALLOWED, isGenericLine } from "./ad-filler";
import { adTextWidth, DKI_TAG, withDkiDefaults } from "./ad-text";
import { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX, RSA_DESCRIPTIONS_MAX, RSA_DESCRIPTIONS_MIN, RSA_HEADLINES_MAX, RSA_HEADLINES_MIN } from "./ad-limits";

// The code gate for responsive search ad text (../shared/research/rsa.md §1–§2, §5.5–§5.6).
// Pure and browser-safe: the ad generator screen, the JSON API, the change pipeline and the
// tests all call these same functions, so "valid" means one thing everywhere.

export type LineKind = "headline" | "description" | "path";
export type LintSeverity = "error" | "warning";
export type LintCode =
  | "EMPTY"
  | "TOO_LONG"
  | "INVALID_DKI"
  | "EXCLAMATION_IN_HEADLINE"
  | "EXCLAMATION_BUDGET"
  | "PUNCT_REPEATED"
  | "CAPITALIZATION"
  | "EMOJI"
  | "UNSUPPORTED_CHARACTER"
  | "PHONE_NUMBER"
  | "URL_OR_EMAIL"
  | "CLICK_HERE"
  | "SPACING"
  | "REPEATED_WORD"
  | "PATH_CHARACTERS"
  | "PATH2_WITHOUT_PATH1"
  | "DUPLICATE"
  | "NEAR_DUPLICATE"
  | "SYMBOL_MISUSE"
  | "UNSUPPORTED_CLAIM"
  | "PIN_INVALID"
  | "PIN_INFEASIBLE"
  | "TOO_FEW"
  | "TOO_MANY";

export interface LintIssue {
  code: LintCode;
  severity: LintSeverity;
  message: string;
}

export const LINE_MAX: Record<LineKind, number> = {
  headline: HEADLINE_MAX,
  description: DESCRIPTION_MAX,
  path: PATH_MAX,
};

export { adTextWidth, withDkiDefaults };

/** Fixes only what cannot change the meaning: stray or doubled spaces, doubled punctuation. */
export function autofixLine(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u200B-\u200D\uFEFF]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:!?])/g, "$1")
    .replace(/([!?,;:])\1+/g, "$1")
    .trim();
}

/**
 * The editorial fixes that keep the meaning, for generated lines: a headline's "!" dropped,
 * a shouted word or line put in title case (acronyms kept), then autofixLine.
 */
export function editorialFix(text: string, kind: LineKind): string {
  let t = autofixLine(text);
  if (kind === "headline") t = t.replace(/\s*!+$/, "");
  const cased = t.replace(/[^\p{Lu}\p{Ll}]/gu, "");
  const wholeLine = cased.length >= 4 && cased === cased.toUpperCase();
  t = t.replace(/[\p{L}\p{N}]+/gu, (w) => {
    if (ACRONYMS.has(w) || !/^\p{Lu}+$/u.test(w)) return w;
    return wholeLine || w.length >= 3 ? w[0] + w.slice(1).toLowerCase() : w;
  });
  return autofixLine(t);
}

// Acronyms and forms that are capitals by nature, not shouting.
const ACRONYMS = new Set([
  "ASAP",
  "USA",
  "UK",
  "EU",
  "US",
  "FAQ",
  "PDF",
  "SEO",
  "SEM",
  "PPC",
  "CRM",
  "ERP",
  "API",
  "AI",
  "HR",
  "IT",
  "TV",
  "DIY",
  "CEO",
  "SaaS",
  "B2B",
  "B2C",
  "VIP",
  "NYC",
  "LA",
  "GPS",
  "HVAC",
  "LED",
  "ID",
  "OK",
  "PC",
  "SUV",
  "BBQ",
  "CPA",
  "IRS",
  "ISO",
  "NHS",
  "AM",
  "PM",
  "VAT",
  "GST",
  "HD",
  "UV",
  "XL",
  "XXL",
  "DJ",
  "RV",
  "EV",
  "3D",
  "4K",
]);
const ALLOWED_CHAR = /[\p{L}\p{M}\p{N} .,'’"“”\-–—&/():;?!%$€£¥+®™{}#@*]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Emoji_Presentation}|\uFE0F/u;
const HALF_WIDTH_KATAKANA = /[\uFF61-\uFF9F]/;
const CLICK_HERE = /\b(click (here|now|this)|visit this (site|page)|tap here)\b/i;
const URL_OR_EMAIL = /(https?:\/\/|\bwww\.|[\w.+-]+@[\w-]+\.[a-z]{2,})/i;
// 7+ digits with separators (a price or a year has fewer digits in a row) or a vanity number.
const PHONE = /(\+?\d[\d\s().-]{6,}\d)|\b1[-\s]?8\d\d[-\s]?[A-Z]{3,}/;
const REPEATED_PUNCT = /([!?.,;:*~#@$%&-])\1+|…/;

function digitsIn(s: string) {
  return (s.match(/\d/g) ?? []).length;
}

export interface LintOptions {
  /**
   * What the advertiser gave (facts, product, audience, keywords) and the ad group's existing
   * ads: with it, a number, price, offer or superlative found in none of them is flagged.
   */
  claimSources?: readonly string[];
}

/** Lints one line on its own. Errors block; warnings are shown to the reviewer. */
export function lintLine(raw: string, kind: LineKind, options: LintOptions = {}): LintIssue[] {
  const issues: LintIssue[] = [];
  const err = (code: LintCode, message: string) => issues.push({ code, severity: "error", message });
  const text = raw ?? "";
  if (text.trim() === "") {
    if (kind !== "path") err("EMPTY", "Write some text.");
    return issues;
  }
  const max = LINE_MAX[kind];
  const width = adTextWidth(text);
  if (width > max) err("TOO_LONG", `${width}/${max} — shorten by ${width - max}.`);

  // Keyword insertion: only the five case forms, a non-empty default, no nesting, not adjacent.
  const braces = text.replace(DKI_TAG, "·");
  if (/[{}]/.test(braces)) {
    err("INVALID_DKI", "Keyword insertion must look like {KeyWord:Default text}.");
  } else {
    for (const m of text.matchAll(DKI_TAG)) {
      if (m[2].trim() === "") err("INVALID_DKI", "Keyword insertion needs default text.");
    }
    if (/\}\{/.test(text)) err("INVALID_DKI", "Two keyword insertions need text between them.");
  }

  // The rest of the rules judge what is served when the keyword does not fit: the default text.
  const plain = withDkiDefaults(text);

  if (kind === "path") {
    if (/[\s/]/.test(plain) || !/^[\p{L}\p{M}\p{N}\-_.]+$/u.test(plain)) {
      err("PATH_CHARACTERS", "Use letters, digits and hyphens only (no spaces or slashes).");
    }
    return issues;
  }

  if (kind === "headline" && plain.includes("!")) err("EXCLAMATION_IN_HEADLINE", 'Headlines can\'t contain "!".');
  if (kind === "description" && (plain.match(/!/g) ?? []).length > 1) {
    err("EXCLAMATION_BUDGET", 'Use at most one "!" in an ad.');
  }
  if (REPEATED_PUNCT.test(plain)) err("PUNCT_REPEATED", 'Don\'t repeat punctuation or symbols ("!!", "...").');
  if (HALF_WIDTH_KATAKANA.test(plain)) err("UNSUPPORTED_CHARACTER", "Half-width katakana isn't allowed.");
  let emoji = false;
  let unsupported = "";
  for (const ch of plain) {
    if (ch === "®" || ch === "™") continue;
    if (PICTOGRAPHIC.test(ch)) emoji = true;
    else if (!ALLOWED_CHAR.test(ch) && !HALF_WIDTH_KATAKANA.test(ch)) unsupported ||= ch;
  }
  if (emoji) err("EMOJI", "Emoji aren't allowed.");
  // A symbol standing in for a letter or a word ("fl@wers", "*free*", "#boots"); "5* hotel" and "#1" are fine.
  if (/\p{L}[@$*#~^|\\]\p{L}/u.test(plain) || /(^|[^\d])\*/u.test(plain) || /#(?!\d)/u.test(plain) || (/@/.test(plain) && !URL_OR_EMAIL.test(plain))) {
    err("SYMBOL_MISUSE", "Don't use symbols in place of letters or words.");
  }
  if (unsupported) err("UNSUPPORTED_CHARACTER", `"${unsupported}" isn't allowed in ad text.`);
  if (CLICK_HERE.test(plain)) err("CLICK_HERE", 'Say what happens instead of "click here".');
  if (URL_OR_EMAIL.test(plain)) err("URL_OR_EMAIL", "Web addresses and emails belong in the final URL, not the text.");
  for (const m of plain.matchAll(new RegExp(PHONE, "g"))) {
    if (m[1] && digitsIn(m[1]) < 7) continue;
    err("PHONE_NUMBER", "Phone numbers belong in a call asset, not the ad text.");
    break;
  }

  // Capitals: an all-caps line, a 3+ letter all-caps word off the allow-list, or inter-caps ("FrEe").
  const words = plain.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  const letters = plain.replace(/[^\p{L}]/gu, "");
  const cased = letters.replace(/[^\p{Lu}\p{Ll}]/gu, "");
  const shouting = words.filter((w) => /^\p{Lu}{3,}$/u.test(w) && !ACRONYMS.has(w));
  // Brand-style inter-caps (YouTube, iPhone, McKay) switch case once; "FlOwErS" or "FrEe" is gimmicky.
  const interCaps = words.filter((w) => {
    if (ACRONYMS.has(w) || /^(Mc|Mac|O['’])/.test(w)) return false;
    const switches = (w.match(/\p{Ll}\p{Lu}/gu) ?? []).length;
    return switches >= 2 || (switches === 1 && w.length <= 5 && /^\p{Lu}/u.test(w));
  });
  if (cased.length >= 4 && cased === cased.toUpperCase() && words.length > 1) {
    err("CAPITALIZATION", "Don't write the whole line in capitals.");
  } else if (shouting.length > 0) {
    err("CAPITALIZATION", `Don't write "${shouting[0]}" in capitals.`);
  } else if (interCaps.length > 0) {
    err("CAPITALIZATION", `"${interCaps[0]}" has gimmicky capitals.`);
  }

  // Spacing: doubled or edge spaces, no space after punctuation before a letter, "f l o w e r s".
  if (/\s{2,}/.test(plain) || plain !== plain.trim()) err("SPACING", "Remove the extra spaces.");
  else if (/[,;!?][\p{L}]/u.test(plain) || /\p{Ll}\.\p{Lu}\p{Ll}/u.test(plain)) err("SPACING", "Add a space after the punctuation.");
  else if (/\s[,.;:!?](\s|$)/.test(plain)) err("SPACING", "No space before punctuation.");
  else if (/(^|\s)(\p{L}\s){2,}\p{L}(\s|$)/u.test(plain)) err("SPACING", "Don't space out letters.");

  const lower = words.map((w) => w.toLowerCase());
  for (let i = 1; i < lower.length; i++) {
    if (lower[i] === lower[i - 1] && !/^\d+$/.test(lower[i])) {
      err("REPEATED_WORD", `"${words[i]}" is repeated.`);
      break;
    }
  }

  if (options.claimSources) {
    const unsupported = unsupportedClaims(text, options.claimSources);
    if (unsupported.length > 0) {
      issues.push({
        code: "UNSUPPORTED_CLAIM",
        severity: "warning",
        message: `“${unsupported[0].text}” isn't in your facts or existing ads; add it as a fact if it's true.`,
      });
    }
  }
  return issues;
}

/** True when an issue keeps a generated line out: every error, and a claim nobody gave us. */
export function blocksGeneratedLine(issue: LintIssue): boolean {
  return issue.severity === "error" || issue.code === "UNSUPPORTED_CLAIM";
}

/** Lower case, NFKC, punctuation and spaces stripped: equal keys are duplicates to Google too. */
export function duplicateKey(text: string): string {
  return withDkiDefaults(text)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

const STOPWORDS = new Set("a an and are as at be by for from get in is it of on or our the to we with you your this that".split(" "));
function contentTokens(text: string): Set<string> {
  const words =
    withDkiDefaults(text)
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => !STOPWORDS.has(w)).map((w) => (w.length > 4 ? w.replace(/(es|s)$/, "") : w)));
}
function trigrams(text: string): Map<string, number> {
  const s = ` ${duplicateKey(text)} `;
  const grams = new Map<string, number>();
  for (let i = 0; i < s.length - 2; i++) grams.set(s.slice(i, i + 3), (grams.get(s.slice(i, i + 3)) ?? 0) + 1);
  return grams;
}

/** Lexical similarity in [0, 1]: the larger of token Jaccard and trigram Dice. */
export function similarity(a: string, b: string): number {
  const ta = contentTokens(a);
  const tb = contentTokens(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  const union = ta.size + tb.size - shared;
  const jaccard = union === 0 ? 1 : shared / union;
  const ga = trigrams(a);
  const gb = trigrams(b);
  let common = 0;
  let total = 0;
  for (const [g, n] of ga) {
    common += Math.min(n, gb.get(g) ?? 0);
    total += n;
  }
  for (const n of gb.values()) total += n;
  const dice = total === 0 ? 1 : (2 * common) / total;
  return Math.max(jaccard, dice);
}

/**
 * Near-duplicates: token Jaccard ≥ 0.6, trigram Dice ≥ 0.8, or one line's content words inside
 * the other's with at most one extra ("Free Shipping" / "Free Shipping Today").
 */
export function isNearDuplicate(a: string, b: string): boolean {
  if (duplicateKey(a) === duplicateKey(b)) return true;
  const ta = contentTokens(a);
  const tb = contentTokens(b);
  const [small, large] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  if (small.size >= 1 && [...small].every((t) => large.has(t)) && large.size - small.size <= 1) return true;
  return similarity(a, b) >= 0.8 || jaccardOf(ta, tb) >= 0.6;
}
function jaccardOf(a: Set<string>, b: Set<string>) {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

export interface RsaAssetInput {
  text: string;
  pinnedField?: string | null;
}
export interface RsaInput {
  headlines: RsaAssetInput[];
  descriptions: RsaAssetInput[];
  path1?: string;
  path2?: string;
}
export interface RsaLint {
  headlines: LintIssue[][];
  descriptions: LintIssue[][];
  path1: LintIssue[];
  path2: LintIssue[];
  ad: LintIssue[];
  /** True when no line and no ad-level rule has an error. */
  ok: boolean;
}

/** Lints a whole RSA: every line, the counts, the "!" budget, paths, pins, duplicates and near-duplicates. */
export function lintRsa(ad: RsaInput, options: LintOptions = {}): RsaLint {
  const headlines = ad.headlines.map((h) => lintLine(h.text, "headline", options));
  const descriptions = ad.descriptions.map((d) => lintLine(d.text, "description", options));
  const path1 = ad.path1 ? lintLine(ad.path1, "path") : [];
  const path2 = ad.path2 ? lintLine(ad.path2, "path") : [];
  const adIssues: LintIssue[] = [];
  const err = (list: LintIssue[], code: LintCode, message: string) => list.push({ code, severity: "error", message });
  if (ad.path2 && !ad.path1) err(path2, "PATH2_WITHOUT_PATH1", "Path 2 needs path 1.");
  if (ad.headlines.length < RSA_HEADLINES_MIN) err(adIssues, "TOO_FEW", `Write at least ${RSA_HEADLINES_MIN} headlines.`);
  if (ad.headlines.length > RSA_HEADLINES_MAX) err(adIssues, "TOO_MANY", `Use at most ${RSA_HEADLINES_MAX} headlines.`);
  if (ad.descriptions.length < RSA_DESCRIPTIONS_MIN) err(adIssues, "TOO_FEW", `Write at least ${RSA_DESCRIPTIONS_MIN} descriptions.`);
  if (ad.descriptions.length > RSA_DESCRIPTIONS_MAX) err(adIssues, "TOO_MANY", `Use at most ${RSA_DESCRIPTIONS_MAX} descriptions.`);
  const bangs = ad.descriptions.filter((d) => withDkiDefaults(d.text).includes("!")).length;
  if (bangs > 1) err(adIssues, "EXCLAMATION_BUDGET", 'Use "!" in at most one description.');
  pinIssues(ad, headlines, descriptions, adIssues);

  // Duplicates are judged within each list, in order: the later line carries the issue.
  for (const [texts, lints] of [
    [ad.headlines.map((h) => h.text), headlines],
    [ad.descriptions.map((d) => d.text), descriptions],
  ] as const) {
    texts.forEach((text, i) => {
      if (text.trim() === "") return;
      for (let j = 0; j < i; j++) {
        if (texts[j].trim() === "") continue;
        if (duplicateKey(text) === duplicateKey(texts[j])) {
          err(lints[i], "DUPLICATE", `Same as line ${j + 1}.`);
          return;
        }
        if (isNearDuplicate(text, texts[j])) {
          err(lints[i], "NEAR_DUPLICATE", `Too close to line ${j + 1}; say something different.`);
          return;
        }
      }
    });
  }
  const hasError = (list: LintIssue[]) => list.some((i) => i.severity === "error");
  const ok = ![...headlines, ...descriptions, path1, path2, adIssues].some(hasError);
  return { headlines, descriptions, path1, path2, ad: adIssues, ok };
}

const HEADLINE_SLOTS = ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"];
const DESCRIPTION_SLOTS = ["DESCRIPTION_1", "DESCRIPTION_2"];

/**
 * Pins: only a headline position on a headline, a description position on a description; and
 * the positions that always show (H1, H2, D1) must each be fillable by a different asset.
 * A position with pinned assets takes only those; the others draw on the unpinned ones.
 */
function pinIssues(ad: RsaInput, headlines: LintIssue[][], descriptions: LintIssue[][], adIssues: LintIssue[]) {
  const check = (assets: RsaAssetInput[], lints: LintIssue[][], slots: string[], required: string[], what: string) => {
    assets.forEach((a, i) => {
      if (a.pinnedField && !slots.includes(a.pinnedField)) {
        lints[i].push({ code: "PIN_INVALID", severity: "error", message: `A ${what} can only be pinned to ${what} positions.` });
      }
    });
    const unpinned = assets.filter((a) => !a.pinnedField && a.text.trim() !== "").length;
    const missing = required.filter((slot) => !assets.some((a) => a.pinnedField === slot));
    if (assets.some((a) => a.pinnedField) && unpinned < missing.length) {
      adIssues.push({
        code: "PIN_INFEASIBLE",
        severity: "error",
        message: `The pins leave ${missing.map((slot) => `position ${slot.slice(-1)}`).join(" and ")} without a ${what} of its own; unpin a ${what} or pin one there.`,
      });
    }
  };
  check(ad.headlines, headlines, HEADLINE_SLOTS, ["HEADLINE_1", "HEADLINE_2"], "headline");
  check(ad.descriptions, descriptions, DESCRIPTION_SLOTS, ["DESCRIPTION_1"], "description");
}

export interface StrengthEstimate {
  /** 0–100, our estimate from Google's structural factors; not Google's ad strength. */
  score: number;
  band: "Poor" | "Average" | "Good" | "Excellent";
  reasons: string[];
}

/** Estimated strength (rsa.md §5.6), from counts, uniqueness, keyword coverage, pins and length mix; generic filler lowers it. */
export function estimateStrength(ad: RsaInput, keywords: string[] = []): StrengthEstimate {
  const reasons: string[] = [];
  const h = ad.headlines.map((x) => x.text).filter((t) => t.trim());
  const d = ad.descriptions.map((x) => x.text).filter((t) => t.trim());
  let score = 0;

  // Generic filler (ad-filler.ts) is no asset: beyond the one call to action allowed, such a
  // line isn't counted and costs points, so padding an ad with it can only lower the estimate.
  let allowance = GENERIC_LINES_ALLOWED;
  const counted = (list: string[]) =>
    list.filter((t) => {
      if (!isGenericLine(t)) return true;
      if (allowance <= 0) return false;
      allowance--;
      return true;
    }).length;
  const hCount = counted(h);
  const dCount = counted(d);
  const filler = [...h, ...d].filter(isGenericLine).slice(GENERIC_LINES_ALLOWED);
  if (filler.length > 0) {
    score -= Math.min(30, filler.length * 4);
    const examples = filler.slice(0, 3).map((t) => `“${t}”`);
    reasons.push(
      `${filler.length} more generic line${filler.length === 1 ? "" : "s"} than one call to action (${examples.join(", ")}${filler.length > 3 ? "…" : ""}) could be in anyone's ad; replace ${filler.length === 1 ? "it" : "them"} with lines about the product, its keywords or facts.`,
    );
  }

  // Quantity (30): specific headlines saturate at 11, descriptions at 4.
  score += (Math.min(hCount, 11) / 11) * 20 + (Math.min(dCount, 4) / 4) * 10;
  if (hCount < 11) reasons.push("Add more unique headlines.");
  if (dCount < 4) reasons.push("Add more descriptions.");

  // Uniqueness (25): 1 − mean nearest-neighbour similarity.
  const nearest = (list: string[]) => list.map((t, i) => Math.max(0, ...list.filter((_, j) => j !== i).map((o) => similarity(t, o))));
  const sims = [...nearest(h), ...nearest(d)];
  const meanSim = sims.length ? sims.reduce((a, b) => a + b, 0) / sims.length : 1;
  score += Math.max(0, 1 - meanSim) * 25;
  if (meanSim > 0.4) reasons.push("Make headlines and descriptions more unique.");

  // Popular keywords (20): 2+ headlines hold a top keyword.
  const top = keywords
    .map((k) => k.toLowerCase().trim())
    .filter(Boolean)
    .slice(0, 5);
  if (top.length === 0) {
    score += 10;
    reasons.push("Add keywords so headlines can include popular ones.");
  } else {
    const covering = h.filter((t) => top.some((k) => withDkiDefaults(t).toLowerCase().includes(k))).length;
    score += (Math.min(covering, 2) / 2) * 20;
    if (covering < 2) reasons.push("Include popular keywords in your headlines.");
  }

  // Pins (15): −5 per pinned slot.
  const pinned = new Set([...ad.headlines, ...ad.descriptions].map((a) => a.pinnedField).filter(Boolean));
  score += Math.max(0, 15 - pinned.size * 5);
  if (pinned.size > 0) reasons.push("Unpin some assets to give Google more combinations.");

  // Length mix (10): some short headlines and full descriptions.
  const shortHeadlines = h.filter((t) => adTextWidth(t) < 20).length;
  const fullDescriptions = d.filter((t) => adTextWidth(t) >= 60).length;
  score += (Math.min(shortHeadlines, 3) / 3) * 5 + (d.length ? fullDescriptions / d.length : 0) * 5;
  if (shortHeadlines < 3) reasons.push("Mix in a few short headlines (under 20 characters).");
  if (d.length && fullDescriptions < d.length) reasons.push("Use most of each description's 90 characters.");

  const rounded = Math.round(Math.max(0, Math.min(100, score)));
  const band = rounded >= 80 ? "Excellent" : rounded >= 60 ? "Good" : rounded >= 40 ? "Average" : "Poor";
  return { score: rounded, band, reasons };
}
