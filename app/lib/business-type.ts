// What kind of business an ad is for, read from what the account itself shows, so the ad
// generator's templates ask for the right action: a shop's ad says "Shop" and "Order online",
// a lead-generation ad "Request a quote", a local service's "Book a visit". Pure and
// browser-safe: the server reads the signals (ai/business-signals.server.ts), the screen shows
// the verdict and its basis, and the person can choose another type.

export const BUSINESS_TYPES = ["retail", "lead_generation", "local_service"] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

export const BUSINESS_TYPE_LABEL: Record<BusinessType, string> = {
  retail: "Retail (selling products)",
  lead_generation: "Lead generation (enquiries, quotes, sign-ups)",
  local_service: "Local service (visits, appointments, call-outs)",
};

/** The type in a sentence: "Written for a shop". */
export const BUSINESS_TYPE_NOUN: Record<BusinessType, string> = {
  retail: "a shop",
  lead_generation: "a business that wins enquiries",
  local_service: "a local service",
};

/** What the account's own data says, as counted by the server. */
export interface BusinessSignals {
  /** Campaigns of channel SHOPPING: product listings, only retailers run them. */
  shoppingCampaigns: number;
  /** Campaigns bidding for conversion value (Target ROAS, Maximize conversion value): sales with a price. */
  valueBiddingCampaigns: number;
  conversions: number;
  conversionsValue: number;
  /** The account's keywords with their impressions (most first is not required). */
  keywords: Array<{ text: string; impressions: number }>;
  /** Headlines and descriptions of its ads. */
  adLines: string[];
  finalUrls: string[];
}

export interface BusinessTypeGuess {
  type: BusinessType;
  /** false: nothing pointed anywhere, `type` is the default and the person should choose. */
  detected: boolean;
  /** In plain words, what the verdict rests on. */
  basis: string[];
}

// Words people search and advertisers write for each kind of business (English, plus the
// commonest German ones, since accounts may be German: see the demo's bakery).
const WORDS: Record<BusinessType, string[]> = {
  retail: [
    "buy",
    "shop",
    "shops",
    "store",
    "sale",
    "order",
    "orders",
    "price",
    "prices",
    "cheap",
    "discount",
    "deals",
    "in stock",
    "shipping",
    "ships",
    "delivery",
    "returns",
    "sizes",
    "outlet",
    "kaufen",
    "bestellen",
    "versand",
    "lieferung",
    "lieferservice",
    "günstig",
  ],
  lead_generation: [
    "quote",
    "quotes",
    "consultation",
    "estimate",
    "demo",
    "free trial",
    "software",
    "agency",
    "insurance",
    "lawyer",
    "attorney",
    "solicitor",
    "loan",
    "mortgage",
    "course",
    "enrol",
    "enroll",
    "apply",
    "sign up",
    "b2b",
    "enquiry",
    "inquiry",
    "proposal",
    "saas",
    "angebot anfordern",
    "beratung",
  ],
  local_service: [
    "near me",
    "nearby",
    "local",
    "repair",
    "repairs",
    "plumber",
    "plumbing",
    "electrician",
    "locksmith",
    "cleaning",
    "cleaners",
    "emergency",
    "installation",
    "same day",
    "call out",
    "appointment",
    "appointments",
    "dentist",
    "salon",
    "barber",
    "clinic",
    "mechanic",
    "roofing",
    "hvac",
    "removals",
    "movers",
    "in der nähe",
    "notdienst",
    "termin",
  ],
};
const URL_PATHS: Record<BusinessType, RegExp> = {
  retail: /\/(products?|shop|store|collections?|cart|catalog|p)(\/|$)/i,
  lead_generation: /\/(contact|quote|get-a-quote|demo|consultation|request|pricing)(\/|$)/i,
  local_service: /\/(book|booking|appointments?|locations?|service-areas?|areas-we-cover)(\/|$)/i,
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const matcher = (words: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(${words.map(escape).join("|")})(?![\\p{L}\\p{N}])`, "giu");
const MATCHERS = Object.fromEntries(BUSINESS_TYPES.map((t) => [t, matcher(WORDS[t])])) as Record<BusinessType, RegExp>;

/** The type's words found in the text, lower-cased. */
function hits(type: BusinessType, text: string): string[] {
  return [...text.toLowerCase().matchAll(MATCHERS[type])].map((m) => m[1]);
}

const URL_WORDS: Record<BusinessType, string> = { retail: "shop", lead_generation: "contact or quote", local_service: "booking or location" };
const pct = (x: number) => `${Math.round(x * 100)} %`;
const quoted = (words: Map<string, number>) =>
  [...words]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([w]) => `“${w}”`)
    .join(", ");

interface Evidence {
  score: number;
  basis: string[];
  /** The type's words found in the keywords, with how often. */
  keywordWords: Map<string, number>;
}

/** Below this, nothing pointed clearly enough: the default is said to be a default. */
const MIN_SCORE = 0.3;

function weigh(signals: BusinessSignals): Record<BusinessType, Evidence> {
  const totalImpressions = signals.keywords.reduce((s, k) => s + Math.max(0, k.impressions), 0);
  const weightOf = (k: { impressions: number }) => (totalImpressions > 0 ? Math.max(0, k.impressions) / totalImpressions : 1 / signals.keywords.length);
  const evidence = {} as Record<BusinessType, Evidence>;
  for (const type of BUSINESS_TYPES) {
    const basis: string[] = [];
    let kwShare = 0;
    const keywordWords = new Map<string, number>();
    for (const k of signals.keywords) {
      const found = hits(type, k.text);
      if (found.length === 0) continue;
      kwShare += weightOf(k);
      for (const w of found) keywordWords.set(w, (keywordWords.get(w) ?? 0) + 1);
    }
    const adWords = new Map<string, number>();
    let adHits = 0;
    for (const line of signals.adLines) {
      const found = hits(type, line);
      if (found.length === 0) continue;
      adHits++;
      for (const w of found) adWords.set(w, (adWords.get(w) ?? 0) + 1);
    }
    const adShare = signals.adLines.length ? adHits / signals.adLines.length : 0;
    const urlHits = signals.finalUrls.filter((u) => URL_PATHS[type].test(safePath(u))).length;
    const urlShare = signals.finalUrls.length ? urlHits / signals.finalUrls.length : 0;
    let score = 3 * kwShare + 3 * adShare + urlShare;
    if (kwShare >= 0.02) basis.push(`${pct(kwShare)} of keyword impressions are searches with ${quoted(keywordWords)}.`);
    if (adShare >= 0.05) basis.push(`${adHits} of its ${signals.adLines.length} ad lines say ${quoted(adWords)}.`);
    if (urlShare >= 0.2) basis.push(`${urlHits} of its ${signals.finalUrls.length} landing pages have ${URL_WORDS[type]} addresses.`);
    if (type === "retail") {
      if (signals.shoppingCampaigns > 0) {
        score += 2;
        basis.unshift(`It runs ${signals.shoppingCampaigns} Shopping campaign${signals.shoppingCampaigns === 1 ? "" : "s"}.`);
      }
      if (signals.valueBiddingCampaigns > 0) {
        score += 1;
        basis.push(
          `${signals.valueBiddingCampaigns} campaign${signals.valueBiddingCampaigns === 1 ? " bids" : "s bid"} for conversion value (sales with a price).`,
        );
      }
    }
    if (type === "lead_generation" && signals.conversions >= 10 && signals.conversionsValue === 0) {
      score += 0.5;
      basis.push("Its conversions carry no value, as enquiries usually don't.");
    }
    evidence[type] = { score, basis, keywordWords };
  }
  return evidence;
}

const best = (evidence: Record<BusinessType, Evidence>) => [...BUSINESS_TYPES].sort((a, b) => evidence[b].score - evidence[a].score)[0];

/**
 * The business type the signals point to, with the basis in words. Weights: what searchers
 * type (keyword impressions) and what the ads ask for count most; the final URLs a little;
 * Shopping campaigns and value-based bidding are strong retail signs, conversions that never
 * carry a value a lead-generation sign.
 */
export function classifyBusiness(signals: BusinessSignals): BusinessTypeGuess {
  const evidence = weigh(signals);
  const type = best(evidence);
  if (evidence[type].score < MIN_SCORE || evidence[type].basis.length === 0) {
    return {
      type: "retail",
      detected: false,
      basis: ["Nothing in the account's keywords, ads or bidding points to a kind of business; choose the one that fits."],
    };
  }
  return { type, detected: true, basis: evidence[type].basis.slice(0, 3) };
}

/** The same vocabulary on a brief alone (no account): the product, audience and keywords the person typed. */
export function classifyBrief(texts: string[]): BusinessTypeGuess {
  const typed = texts.filter((t) => t.trim());
  const evidence = weigh({
    shoppingCampaigns: 0,
    valueBiddingCampaigns: 0,
    conversions: 0,
    conversionsValue: 0,
    keywords: typed.map((text) => ({ text, impressions: 1 })),
    adLines: [],
    finalUrls: [],
  });
  const type = best(evidence);
  if (evidence[type].keywordWords.size === 0) {
    return { type: "retail", detected: false, basis: ["Nothing you typed points to a kind of business; choose the one that fits."] };
  }
  return { type, detected: true, basis: [`What you typed says ${quoted(evidence[type].keywordWords)}.`] };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

export const isBusinessType = (v: unknown): v is BusinessType => typeof v === "string" && (BUSINESS_TYPES as readonly string[]).includes(v);
