import { adTextWidth, autofixLine, duplicateKey, estimateStrength, isNearDuplicate, lintLine, lintRsa, type LineKind, type StrengthEstimate } from "./ad-lint";
import { unsupportedClaims } from "./ad-claims";
import { GENERIC_LINES_ALLOWED, isGenericLine } from "./ad-filler";
import { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX, RSA_DESCRIPTIONS_MAX, RSA_DESCRIPTIONS_MIN, RSA_HEADLINES_MAX, RSA_HEADLINES_MIN } from "./ad-limits";
import type { BusinessType } from "./business-type";

// The offline RSA writer (rsa.md §5.8): no model, so every line comes from a template whose
// inputs are the user's own words (product, audience, keywords, facts) or the ad group's
// own BEST/GOOD assets, phrased for the kind of business (a shop, a lead-generation business,
// a local service). Templates never state a number, price or superlative of their own, and an
// old ad's offer is reused only when the facts confirm it, so the fallback cannot invent or
// revive a claim; it writes no more generic filler than one call to action, and every
// candidate still goes through the code gate.

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
  /** Chooses the calls to action and phrasings; retail when not given. */
  businessType?: BusinessType;
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

type Tone = "professional" | "casual" | "urgent" | "friendly";
interface ToneCard {
  /** Calls to action: generic by nature, so an ad takes one (GENERIC_LINES_ALLOWED). */
  ctas: string[];
  closers: string[];
}
interface BusinessCopy {
  tones: Record<Tone, ToneCard>;
  /** Headlines that name what is sold: a keyword or the product, in the business's own words. */
  headlines: Array<(subject: string) => string>;
  /** Descriptions without the closer: (keyword or product, product, audience). */
  descriptions: Array<(kw: string, product: string, audience: string) => string>;
}

// Per kind of business (business-type.ts) and tone: a shop's ad asks people to shop and order,
// a lead-generation ad to ask for a quote, a local service's to book a visit. None states a
// claim (price, offer, superlative) that needs a fact behind it.
const COPY: Record<BusinessType, BusinessCopy> = {
  retail: {
    tones: {
      professional: {
        ctas: ["Order Online Today", "Shop Online Today", "Browse the Range"],
        closers: ["Order online today.", "Browse the range and order online.", "Shop online today."],
      },
      casual: {
        ctas: ["Take a Look Today", "Find Your Favourite"],
        closers: ["Take a look today.", "See what's new and find your favourite.", "Have a browse today."],
      },
      urgent: { ctas: ["Order Yours Today", "Shop Now"], closers: ["Order yours today.", "Shop now while you're thinking of it.", "Order today."] },
      friendly: {
        ctas: ["Find Your Favourite", "Come Take a Look"],
        closers: ["Come and take a look.", "Find your favourite today.", "Enjoy browsing the range."],
      },
    },
    headlines: [(k) => `Shop ${k}`, (k) => `Order ${k} Online`, (k) => `${k} Online`, (k) => `Browse ${k}`, (k) => `Find Your ${k}`],
    descriptions: [
      (kw) => `Looking for ${kw}? Browse the range and find the right one for you.`,
      (_kw, product, audience) => `${sentence(product)} for ${audience}, ready to order online.`,
      (_kw, product, audience) => `Discover ${product} designed for ${audience}. Compare them side by side.`,
    ],
  },
  lead_generation: {
    tones: {
      professional: {
        ctas: ["Request a Quote Today", "Talk to Our Team", "Book a Consultation"],
        closers: ["Request a quote today.", "Talk to our team and plan your next step.", "Book a consultation today."],
      },
      casual: {
        ctas: ["Ask Us for a Quote", "Tell Us What You Need"],
        closers: ["Ask us for a quote.", "Tell us what you need and we'll get back to you.", "Let's talk."],
      },
      urgent: {
        ctas: ["Request Your Quote Now", "Book a Call Today"],
        closers: ["Request your quote now.", "Book a call today and get started.", "Get your quote today."],
      },
      friendly: {
        ctas: ["Let's Get You Started", "We're Here to Help"],
        closers: ["Let's get you started.", "We're here to help every step of the way.", "Say hello and tell us what you need."],
      },
    },
    headlines: [(k) => `${k} Quotes`, (k) => `Get a ${k} Quote`, (k) => `${k} Consultation`, (k) => `Compare ${k} Options`, (k) => `${k} Made Simple`],
    descriptions: [
      (kw) => `Need ${kw}? Tell us what you need and get a clear quote.`,
      (_kw, product, audience) => `${sentence(product)} for ${audience}. Tell us your plans and get a clear proposal.`,
      (_kw, product, audience) => `Discover ${product} designed for ${audience}. Talk to our team about your needs.`,
    ],
  },
  local_service: {
    tones: {
      professional: {
        ctas: ["Book an Appointment", "Book a Visit Today", "Arrange a Visit"],
        closers: ["Book an appointment today.", "Book a visit at a time that suits you.", "Get in touch to arrange a visit."],
      },
      casual: { ctas: ["Book a Visit Today", "Pop In and See Us"], closers: ["Pop in and see us.", "Book a visit today.", "Come and see us."] },
      urgent: { ctas: ["Book Today", "Book Your Visit Now"], closers: ["Book today.", "Book your visit now.", "Book a time today."] },
      friendly: {
        ctas: ["We'd Love to Help", "Book a Visit Today"],
        closers: ["We'd love to help.", "Book a visit whenever suits you.", "Come and say hello."],
      },
    },
    headlines: [(k) => `Local ${k}`, (k) => `Book ${k}`, (k) => `${k} Appointments`, (k) => `${k} in Your Area`, (k) => `Book Your ${k}`],
    descriptions: [
      (kw) => `Need ${kw}? Book a visit at a time that suits you.`,
      (_kw, product, audience) => `${sentence(product)} for ${audience}, close to home. Tell us what you need.`,
      (_kw, product, audience) => `Local ${product} for ${audience}. Tell us what you need and book a time.`,
    ],
  },
};

const copyFor = (brief: RsaBrief) => COPY[brief.businessType ?? "retail"];
const toneOf = (copy: BusinessCopy, tone: string) => copy.tones[tone as Tone] ?? copy.tones.professional;

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

/**
 * Pickers that keep a line only if it passes the gate and is not close to a kept or a LOW line.
 * Generic lines (ad-filler.ts) wait until every specific line is in, then fill the one call to
 * action an ad may have, and more only to reach Google's minimum count; the allowance is shared
 * between headlines and descriptions.
 */
function pickers(avoid: string[]) {
  let generic = 0;
  const make = (kind: LineKind, limit: number, minimum: number) => {
    const kept: string[] = [];
    const waiting: string[] = [];
    let exclamations = 0;
    const keep = (fitted: string) => {
      if (kept.length >= limit) return false;
      if (kind === "description" && fitted.includes("!") && exclamations > 0) return false;
      if ([...kept, ...avoid].some((k) => isNearDuplicate(fitted, k))) return false;
      if (fitted.includes("!")) exclamations++;
      kept.push(fitted);
      return true;
    };
    const add = (raw: string | null | undefined) => {
      if (!raw) return;
      // A rendered template that is too long is skipped, never cut: a cut sentence reads as broken.
      const fitted = autofixLine(raw);
      if (adTextWidth(fitted) > (kind === "headline" ? HEADLINE_MAX : DESCRIPTION_MAX)) return;
      if (lintLine(fitted, kind).some((i) => i.severity === "error")) return;
      // Keyword insertion is the advertiser's to write (typed into a field, it stays out of generated lines).
      if (/[{}]/.test(fitted)) return;
      if (isGenericLine(fitted)) waiting.push(fitted);
      else keep(fitted);
    };
    const finish = () => {
      for (const line of waiting) {
        if (generic >= GENERIC_LINES_ALLOWED && kept.length >= minimum) break;
        if (keep(line)) generic++;
      }
      return kept;
    };
    return { add, finish };
  };
  return {
    headlines: make("headline", RSA_HEADLINES_MAX, RSA_HEADLINES_MIN),
    descriptions: make("description", RSA_DESCRIPTIONS_MAX, RSA_DESCRIPTIONS_MIN),
  };
}

/**
 * The ad group's low performers, not to be written again nor paraphrased; except a line the
 * person confirmed as a fact (a ticked old offer): their word outranks the label.
 */
export function lowLines(existing: ExistingAsset[], facts: string[]): string[] {
  const confirmed = new Set(facts.map(duplicateKey));
  return existing.filter((a) => a.label === "LOW" && !confirmed.has(duplicateKey(a.text))).map((a) => a.text);
}

/** Whether a line from elsewhere may be reused: it claims nothing, or only what the sources (facts, confirmed offers included) say. */
const reusable = (text: string, sources: string[]) => unsupportedClaims(text, sources).length === 0;

/**
 * A complete RSA from the brief alone, up to 15 headlines and 4 descriptions, as many as there
 * is something specific to say. Order of preference: the ad group's BEST/GOOD assets (those
 * stating an offer or a price only when the facts confirm it), keyword lines, the user's
 * facts, product and audience lines in the business type's words, one call to action.
 */
export function generateTemplateRsa(brief: RsaBrief): GeneratedRsa {
  const product = brief.product.trim();
  const audience = brief.audience.trim();
  const facts = (brief.facts ?? []).map((f) => f.trim().replace(/[.]+$/, "")).filter(Boolean);
  // A keyword is what people search: "kids sleeping bag sale" is no sale until a fact says so.
  const keywords = [...new Set((brief.keywords ?? []).map((k) => k.trim()).filter(Boolean))].filter((k) => reusable(k, [product, audience, ...facts]));
  const existing = [...(brief.existing ?? [])].sort((a, b) => RANK[a.label] - RANK[b.label]);
  const low = lowLines(existing, facts);
  const good = existing.filter((a) => (a.label === "BEST" || a.label === "GOOD") && reusable(a.text, facts));
  const copy = copyFor(brief);
  const card = toneOf(copy, brief.tone);
  const P = titleCase(product);
  const A = titleCase(audience);
  const subjects = [...keywords.map(titleCase), P];

  const { headlines: h, descriptions: d } = pickers(low);
  for (const a of good) if (a.fieldType === "HEADLINE") h.add(a.text);
  for (const k of keywords.slice(0, 3)) h.add(titleCase(k));
  for (const f of facts) if (adTextWidth(f) <= HEADLINE_MAX) h.add(titleCase(f));
  h.add(fitWidth(P, HEADLINE_MAX)); // a noun may be shortened at a word boundary
  h.add(`${P} for ${A}`);
  h.add(card.ctas[0]);
  for (const k of keywords.slice(3, 6)) h.add(titleCase(k));
  h.add(`Made for ${A}`);
  for (const pattern of copy.headlines) for (const K of subjects.slice(0, 3)) h.add(pattern(K));
  for (const K of subjects.slice(0, 3)) h.add(`${K} for ${A}`);
  for (const pattern of copy.headlines) for (const K of subjects.slice(3)) h.add(pattern(K));
  for (const line of card.ctas.slice(1)) h.add(line);
  // Every tone's calls to action: only to reach Google's minimum of three headlines.
  for (const other of Object.values(copy.tones)) for (const line of other.ctas) h.add(line);

  for (const a of good) if (a.fieldType === "DESCRIPTION") d.add(a.text);
  // A description takes its closer when both fit in 90; otherwise it stands alone.
  const withCloser = (text: string, closer: string) => (adTextWidth(`${text} ${closer}`) <= DESCRIPTION_MAX ? `${text} ${closer}` : text);
  const [describeKeyword, describeProduct, describeAudience] = copy.descriptions;
  const kw = keywords[0] ?? product.toLowerCase();
  if (facts.length)
    d.add(
      withCloser(
        facts
          .slice(0, 2)
          .map((f) => withStop(sentence(f)))
          .join(" "),
        card.closers[1],
      ),
    );
  d.add(withCloser(describeKeyword(kw, product, audience), card.closers[0]));
  d.add(withCloser(describeProduct(kw, product, audience), card.closers[2]));
  d.add(withCloser(describeAudience(kw, product.toLowerCase(), audience), card.closers[0]));
  for (const f of facts.slice(2)) d.add(withCloser(withStop(sentence(f)), card.closers[0]));
  for (const k of keywords.slice(1)) d.add(withCloser(describeKeyword(k, product, audience), card.closers[1]));
  // Calls to action alone are generic: only to reach Google's minimum of two descriptions.
  for (const [a, b] of [
    [0, 1],
    [1, 2],
    [2, 0],
  ])
    d.add(`${card.closers[a]} ${card.closers[b]}`);

  const path1 = toPath(keywords[0] ?? product);
  const path2Source = keywords[1] ?? (keywords[0] ? product : "");
  const path2 = path1 ? toPath(path2Source) : "";
  const ad: GeneratedRsa = {
    headlines: h.finish().map((text) => ({ text })),
    descriptions: d.finish().map((text) => ({ text })),
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
 * product in the business type's phrasings, then the type's calls to action in every tone.
 * Like the rest of the templates, none states a claim of its own; specific lines come first.
 */
function alternatives(brief: RsaBrief, kind: "headline" | "description"): string[] {
  const product = brief.product.trim();
  const audience = brief.audience.trim();
  const P = titleCase(product);
  const A = titleCase(audience);
  const keywords = [...new Set((brief.keywords ?? []).map((k) => k.trim()).filter(Boolean))].filter((k) =>
    reusable(k, [product, audience, ...(brief.facts ?? [])]),
  );
  const copy = copyFor(brief);
  const cards = [toneOf(copy, brief.tone), ...Object.values(copy.tones)];
  if (kind === "headline") {
    const out: string[] = [];
    for (const K of [...keywords.map(titleCase), P]) {
      out.push(K, ...copy.headlines.map((pattern) => pattern(K)), `${K} for ${A}`, `Your ${K}`, `Choose Your ${K}`);
    }
    out.push(`Made for ${A}`, `Picked for ${A}`);
    for (const card of cards) out.push(...card.ctas);
    return out;
  }
  const out: string[] = [];
  for (const kw of [...keywords, product]) {
    for (const card of cards) {
      for (const describe of copy.descriptions) out.push(`${describe(kw, product.toLowerCase(), audience)} ${card.closers[0]}`);
      out.push(`${sentence(kw)} for ${audience}. ${card.closers[2]}`);
    }
  }
  for (const card of cards) for (const closer of card.closers) out.push(`${sentence(`${product} for ${audience}`)}. ${closer}`);
  return out;
}

/** A replacement for one line: the first template line that passes the gate and repeats none of the others. */
export function regenerateTemplateLine(brief: RsaBrief, ad: GeneratedRsa, kind: "headline" | "description", index: number): string | null {
  const list = kind === "headline" ? ad.headlines : ad.descriptions;
  const others = list.filter((_, i) => i !== index).map((l) => l.text);
  const current = list[index]?.text ?? "";
  const low = lowLines(brief.existing ?? [], brief.facts ?? []);
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
