import { adTextWidth, autofixLine, estimateStrength, isNearDuplicate, lintLine, lintRsa, type LineKind, type StrengthEstimate } from "./ad-lint";
import { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX, RSA_DESCRIPTIONS_MAX, RSA_HEADLINES_MAX } from "./ad-limits";

// The offline RSA writer (rsa.md §5.8): no model, so every line comes from a template whose
// inputs are the user's own words (product, audience, keywords, facts) or the ad group's
// own BEST/GOOD assets. Templates never state a number, price or superlative of their own, so
// the fallback cannot invent a claim; every candidate still goes through the code gate.

export type PerformanceLabel = "BEST" | "GOOD" | "LEARNING" | "PENDING" | "LOW" | "UNRATED";
export interface ExistingAsset {
  text: string;
  fieldType: "HEADLINE" | "DESCRIPTION";
  label: PerformanceLabel;
}
export interface RsaBrief {
  product: string;
  audience: string;
  tone: string;
  keywords?: string[];
  facts?: string[];
  existing?: ExistingAsset[];
}
export interface RsaLine {
  text: string;
  pinnedField?: string;
}
export interface GeneratedRsa {
  headlines: RsaLine[];
  descriptions: RsaLine[];
  path1: string;
  path2: string;
}

interface ToneCard {
  headlines: string[];
  closers: string[];
}
// Calls to action and closers per tone; none makes a claim that needs a fact behind it.
const TONE_CARDS: Record<string, ToneCard> = {
  professional: {
    headlines: ["Request a Quote Today", "Talk to Our Team", "Plan Your Next Step", "Get Started Today"],
    closers: ["Request a quote today.", "Talk to our team and plan your next step.", "Get started today."],
  },
  casual: {
    headlines: ["Take a Look Today", "See What's New", "Try It Out Today", "Find Your Favourite"],
    closers: ["Take a look today.", "See what's new and find your favourite.", "Try it out today."],
  },
  urgent: {
    headlines: ["Order Yours Today", "Book Today", "Shop Now", "Reserve Yours Now"],
    closers: ["Order yours today.", "Book today and get started.", "Shop now while you're thinking of it."],
  },
  friendly: {
    headlines: ["Let's Get You Started", "Say Hello Today", "We're Here to Help", "Come Take a Look"],
    closers: ["Let's get you started.", "We're here to help every step of the way.", "Come and take a look."],
  },
};
// Neutral lines that fit any product; enough of them that a full ad is always possible.
const GENERIC_HEADLINES = [
  "Explore the Options",
  "Compare Options Online",
  "Find the Right Fit",
  "Order Online Today",
  "See the Full Range",
  "Browse the Collection",
  "Learn More Today",
  "Simple Online Ordering",
  "Helpful Advice Available",
  "Made With Care",
  "Choose What Suits You",
  "Questions? Ask Us",
  "Answers to Your Questions",
  "Flexible Options",
  "Details Online",
  "Start Your Search Here",
  "Everything in One Place",
  "Get the Details",
];
const GENERIC_DESCRIPTIONS = [
  "Compare the options, read the details and choose what suits you. Order online in a few steps.",
  "Tell us what you need and our team will help you choose the right option for your goals.",
  "Browse the full range online, see every detail up front and pick what fits your plans.",
  "Clear information, helpful people and a simple way to get started when you're ready.",
  "Have a question before you decide? Ask us and get a clear answer from a real person.",
];

/** Capitalises the first letter of each lower-case word; acronyms and brand spellings stay. */
function titleCase(text: string): string {
  return text.replace(/(^|\s)(\p{Ll})/gu, (_m, space: string, c: string) => space + c.toUpperCase());
}
function sentence(text: string): string {
  const t = text.trim();
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}
function withStop(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** Shortens to Google's width at a word boundary, never mid-word; null when no whole word fits. */
export function fitWidth(text: string, max: number): string | null {
  const clean = text.replace(/\s+/g, " ").trim();
  if (adTextWidth(clean) <= max) return clean;
  const words = clean.split(" ");
  while (words.length > 1) {
    words.pop();
    const cut = words.join(" ").replace(/[\s,;:–—-]+$/, "");
    if (adTextWidth(cut) <= max && cut.length > 0) return cut;
  }
  return null;
}

/** A path segment: letters and digits joined by hyphens, within 15 width units. */
export function toPath(text: string): string {
  const words = (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, 4);
  while (words.length) {
    const path = words.join("-");
    if (adTextWidth(path) <= PATH_MAX) return path;
    words.pop();
  }
  return "";
}

const RANK: Record<PerformanceLabel, number> = { BEST: 0, GOOD: 1, LEARNING: 2, PENDING: 2, UNRATED: 2, LOW: 3 };

/** A picker that keeps a line only if it passes the gate and is not close to a kept or a LOW line. */
function picker(kind: LineKind, limit: number, avoid: string[]) {
  const kept: string[] = [];
  let exclamations = 0;
  const add = (raw: string | null | undefined) => {
    if (!raw || kept.length >= limit) return;
    // A rendered template that is too long is skipped, never cut: a cut sentence reads as broken.
    const fitted = autofixLine(raw);
    if (adTextWidth(fitted) > (kind === "headline" ? HEADLINE_MAX : DESCRIPTION_MAX)) return;
    if (lintLine(fitted, kind).some((i) => i.severity === "error")) return;
    if (kind === "description" && fitted.includes("!") && exclamations > 0) return;
    if ([...kept, ...avoid].some((k) => isNearDuplicate(fitted, k))) return;
    if (fitted.includes("!")) exclamations++;
    kept.push(fitted);
  };
  return { kept, add };
}

/**
 * A complete RSA (15 headlines, 4 descriptions, paths) from the brief alone. Order of
 * preference: the ad group's BEST/GOOD assets, keyword lines, the user's facts, product and
 * audience lines, the tone's calls to action, then neutral lines.
 */
export function generateTemplateRsa(brief: RsaBrief): GeneratedRsa {
  const product = brief.product.trim();
  const audience = brief.audience.trim();
  const keywords = [...new Set((brief.keywords ?? []).map((k) => k.trim()).filter(Boolean))];
  const facts = (brief.facts ?? []).map((f) => f.trim().replace(/[.]+$/, "")).filter(Boolean);
  const existing = [...(brief.existing ?? [])].sort((a, b) => RANK[a.label] - RANK[b.label]);
  const low = existing.filter((a) => a.label === "LOW").map((a) => a.text);
  const good = existing.filter((a) => a.label === "BEST" || a.label === "GOOD");
  const card = TONE_CARDS[brief.tone] ?? TONE_CARDS.professional;
  const P = titleCase(product);
  const A = titleCase(audience);

  const h = picker("headline", RSA_HEADLINES_MAX, low);
  for (const a of good) if (a.fieldType === "HEADLINE") h.add(a.text);
  for (const k of keywords.slice(0, 3)) h.add(titleCase(k));
  for (const f of facts) if (adTextWidth(f) <= HEADLINE_MAX) h.add(titleCase(f));
  h.add(fitWidth(P, HEADLINE_MAX)); // a noun may be shortened at a word boundary
  h.add(`${P} for ${A}`);
  for (const k of keywords.slice(0, 2)) h.add(`Shop ${titleCase(k)}`);
  h.add(`Made for ${A}`);
  h.add(`Discover ${P}`);
  for (const k of keywords.slice(3, 6)) h.add(titleCase(k));
  h.add(`${P} Made Simple`);
  h.add(card.headlines[0]);
  h.add(`${P} Online`);
  for (const line of card.headlines.slice(1)) h.add(line);
  for (const line of GENERIC_HEADLINES) h.add(line);

  const d = picker("description", RSA_DESCRIPTIONS_MAX, low);
  for (const a of good) if (a.fieldType === "DESCRIPTION") d.add(a.text);
  const kw = keywords[0] ?? product;
  d.add(`${sentence(`${product} for ${audience}`)}. ${card.closers[0]}`);
  if (facts.length)
    d.add(
      `${facts
        .slice(0, 2)
        .map((f) => withStop(sentence(f)))
        .join(" ")} ${card.closers[1]}`,
    );
  d.add(`Looking for ${kw}? See our ${product.toLowerCase()} and find the right fit. ${card.closers[2]}`);
  d.add(`Discover ${product} designed for ${audience}. Compare the options and order online.`);
  for (const f of facts.slice(2)) d.add(`${withStop(sentence(f))} ${card.closers[0]}`);
  for (const line of GENERIC_DESCRIPTIONS) d.add(line);

  const path1 = toPath(keywords[0] ?? product);
  const path2Source = keywords[1] ?? (keywords[0] ? product : "");
  const path2 = path1 ? toPath(path2Source) : "";
  const ad: GeneratedRsa = {
    headlines: h.kept.map((text) => ({ text })),
    descriptions: d.kept.map((text) => ({ text })),
    path1,
    path2: path2 && path2 !== path1 ? path2 : "",
  };
  return ensureValid(ad);
}

/** The last gate: drop any line the whole-ad lint still refuses (nothing invalid leaves here). */
function ensureValid(ad: GeneratedRsa): GeneratedRsa {
  const lint = lintRsa(ad);
  if (lint.ok) return ad;
  const bad = (issues: { severity: string }[]) => issues.some((i) => i.severity === "error");
  return {
    headlines: ad.headlines.filter((_, i) => !bad(lint.headlines[i])),
    descriptions: ad.descriptions.filter((_, i) => !bad(lint.descriptions[i])),
    path1: bad(lint.path1) ? "" : ad.path1,
    path2: bad(lint.path1) || bad(lint.path2) ? "" : ad.path2,
  };
}

/**
 * Alternative lines for one slot, beyond the ones a full ad already uses: every keyword and the
 * product in more phrasings, every tone's calls to action, then the neutral lines. Like the
 * rest of the templates, none states a claim of its own.
 */
function alternatives(brief: RsaBrief, kind: "headline" | "description"): string[] {
  const product = brief.product.trim();
  const audience = brief.audience.trim();
  const P = titleCase(product);
  const A = titleCase(audience);
  const keywords = [...new Set((brief.keywords ?? []).map((k) => k.trim()).filter(Boolean))];
  const cards = [TONE_CARDS[brief.tone] ?? TONE_CARDS.professional, ...Object.values(TONE_CARDS)];
  if (kind === "headline") {
    const out: string[] = [];
    for (const K of [...keywords.map(titleCase), P]) {
      out.push(K, `Shop ${K}`, `${K} Online`, `Find ${K}`, `Compare ${K}`, `Browse ${K}`, `${K} for ${A}`, `Discover ${K}`, `Your ${K}`, `Choose Your ${K}`);
    }
    out.push(`Made for ${A}`, `Picked for ${A}`, `${P} Made Simple`);
    for (const card of cards) out.push(...card.headlines);
    return [...out, ...GENERIC_HEADLINES];
  }
  const out: string[] = [];
  for (const kw of [...keywords, product]) {
    for (const card of cards) {
      out.push(`Looking for ${kw}? Compare the options and find the right fit. ${card.closers[0]}`);
      out.push(`${sentence(kw)} for ${audience}, explained clearly and easy to order. ${card.closers[2]}`);
    }
  }
  for (const card of cards) out.push(`${sentence(`${product} for ${audience}`)}. ${card.closers[1]}`);
  return [...out, ...GENERIC_DESCRIPTIONS];
}

/** A replacement for one line: the first template line that passes the gate and repeats none of the others. */
export function regenerateTemplateLine(brief: RsaBrief, ad: GeneratedRsa, kind: "headline" | "description", index: number): string | null {
  const list = kind === "headline" ? ad.headlines : ad.descriptions;
  const others = list.filter((_, i) => i !== index).map((l) => l.text);
  const current = list[index]?.text ?? "";
  const low = (brief.existing ?? []).filter((a) => a.label === "LOW").map((a) => a.text);
  // Over-generate with the same brief, then take the first fresh line.
  const pool = generateTemplateRsa({ ...brief, existing: (brief.existing ?? []).filter((a) => a.label !== "LOW") });
  const candidates = [...(kind === "headline" ? pool.headlines : pool.descriptions).map((l) => l.text), ...alternatives(brief, kind)];
  const max = kind === "headline" ? HEADLINE_MAX : DESCRIPTION_MAX;
  for (const raw of candidates) {
    const c = autofixLine(raw);
    if (adTextWidth(c) > max) continue;
    if ([current, ...others, ...low].some((o) => isNearDuplicate(c, o))) continue;
    if (lintLine(c, kind).some((i) => i.severity === "error")) continue;
    if (kind === "description" && c.includes("!") && others.some((o) => o.includes("!"))) continue;
    return c;
  }
  return null;
}

export function strengthOf(ad: GeneratedRsa, keywords: string[]): StrengthEstimate {
  return estimateStrength(ad, keywords);
}
