// Account blueprints: the rich outdoor-gear account (with planted optimizer
// findings, see PLANTED.md), the small bakery account, and the procedural
// large account used for scale benchmarks.

import type { Rng } from "../util/prng";
import type { AdTextAsset, EntityStatus, MatchType, QualityBucket } from "../store/types";
import type { AccountPlan, AdGroupPlan, AdPlan, AssetGroupPlan, BiddingPlan, CampaignPlan, KeywordPlan, TermPlan, Traffic } from "./plan";
import {
  BAKERY_BRAND_THEMES,
  BAKERY_DESCRIPTIONS,
  BAKERY_HEADLINES,
  BAKERY_LINES,
  BRAND_THEMES,
  CAMPAIGN_NEGATIVES,
  COMPETITOR_THEMES,
  DESCRIPTION_TEMPLATES,
  DISPLAY_AD_GROUPS,
  HEADLINE_TEMPLATES,
  OUTDOOR_LINES,
  PREFIX_MODIFIERS,
  SUFFIX_MODIFIERS,
  type AdGroupTheme,
  type ProductLine,
} from "./content";

export const RICH_CUSTOMER_ID = "1112223334";
export const SMALL_CUSTOMER_ID = "5556667778";
export const MANAGER_CUSTOMER_ID = "1234567890";

const BUCKETS: QualityBucket[] = ["BELOW_AVERAGE", "AVERAGE", "ABOVE_AVERAGE"];
const US = "geoTargetConstants/2840";
const ENGLISH = "languageConstants/1000";
const GERMANY = "geoTargetConstants/2276";
const GERMAN = "languageConstants/1001";

const micros = (units: number) => Math.round(units * 100) * 10_000;

interface Quality {
  qualityScore?: number;
  creative?: QualityBucket;
  postClick?: QualityBucket;
  predictedCtr?: QualityBucket;
  /** 0..2 points per component, used to shape traffic. */
  pts: [number, number, number];
}

/** Components first, then a score consistent with them (roughly Google's 1 + weighted points). */
function drawPoints(rng: Rng, bias: "brand" | "normal" | "low"): number {
  const r = rng.next();
  if (bias === "brand") return r < 0.8 ? 2 : 1;
  if (bias === "low") return r < 0.7 ? 0 : 1;
  return r < 0.2 ? 0 : r < 0.68 ? 1 : 2;
}

function drawQuality(rng: Rng, bias: "brand" | "normal" | "low"): Quality {
  const pts: [number, number, number] = [drawPoints(rng, bias), drawPoints(rng, bias), drawPoints(rng, bias)];
  const raw = 1 + 1.5 * (pts[0] + pts[1] + pts[2]) + rng.range(-0.6, 0.6);
  const qualityScore = Math.max(1, Math.min(10, Math.round(raw)));
  return { qualityScore, predictedCtr: BUCKETS[pts[0]], creative: BUCKETS[pts[1]], postClick: BUCKETS[pts[2]], pts };
}

interface KeywordContext {
  rng: Rng;
  line: Pick<ProductLine, "cpc" | "cvr" | "aov">;
  brand: boolean;
  competitor?: boolean;
  volume: number;
  cvrMult: number;
  /** Ad group max CPC (manual CPC campaigns cap actual CPCs below it). */
  manualBid?: number;
  activeUntil: number;
  D: number;
}

const CTR = { brand: { EXACT: 0.34, PHRASE: 0.27, BROAD: 0.2 }, generic: { EXACT: 0.072, PHRASE: 0.052, BROAD: 0.033 } };
const CVR = { EXACT: 0.036, PHRASE: 0.027, BROAD: 0.018 };
const VOLUME = { EXACT: 6, PHRASE: 11, BROAD: 18 };

function keywordPlan(ctx: KeywordContext, text: string, matchType: MatchType, core: boolean): KeywordPlan {
  const { rng, line, brand } = ctx;
  const q = drawQuality(rng, brand ? "brand" : ctx.competitor ? "low" : "normal");
  let lambda = VOLUME[matchType] * ctx.volume * (core ? 2.2 : 1) * rng.logNormal(0.9);
  const rarely = !brand && rng.chance(0.04);
  if (rarely) lambda = 0.01;
  const qs = q.qualityScore ?? 5;
  const ctr = (brand ? CTR.brand[matchType] : CTR.generic[matchType]) * (0.7 + 0.2 * q.pts[0]) * rng.logNormal(0.25) * (ctx.competitor ? 0.45 : 1);
  let cpc = (brand ? 0.45 : line.cpc * { EXACT: 1.12, PHRASE: 1, BROAD: 0.88 }[matchType] * (1.5 - 0.07 * qs)) * rng.logNormal(0.2);
  if (ctx.competitor) cpc *= 1.6;
  const cvr = (brand ? 0.11 : CVR[matchType] * line.cvr * ctx.cvrMult) * (0.85 + 0.1 * q.pts[2]) * rng.logNormal(0.3) * (ctx.competitor ? 0.3 : 1);
  const kp: KeywordPlan = {
    text,
    matchType,
    negative: false,
    status: "ENABLED",
    lambda,
    ctr: Math.min(0.6, ctr),
    cpc,
    cvr: Math.min(0.5, cvr),
    aov: line.aov * rng.logNormal(0.15),
    activeFrom: 0,
    activeUntil: ctx.activeUntil,
    rarelyServed: rarely,
  };
  // Quality score needs traffic; thin keywords show none (proto3: field absent).
  if (!rarely && !(lambda < 0.6 && rng.chance(0.5))) {
    kp.qualityScore = q.qualityScore;
    kp.creative = q.creative;
    kp.postClick = q.postClick;
    kp.predictedCtr = q.predictedCtr;
  }
  if (ctx.manualBid !== undefined) {
    if (rng.chance(0.3)) kp.cpcBidMicros = micros((ctx.manualBid / 1e6) * rng.range(0.7, 1.4));
    const bid = (kp.cpcBidMicros ?? ctx.manualBid) / 1e6;
    kp.cpc = Math.min(kp.cpc, bid * 0.92);
  }
  if (!brand && rng.chance(0.04)) {
    kp.status = "PAUSED";
    kp.activeUntil = Math.min(kp.activeUntil, rng.int(Math.floor(ctx.D * 0.2), Math.floor(ctx.D * 0.9)));
  }
  return kp;
}

/** Candidate keyword texts for a theme: core nouns first, then modifier combinations. */
function candidateTexts(rng: Rng, theme: AdGroupTheme, modifiers: boolean): Array<{ text: string; core: boolean }> {
  const core = theme.nouns.map((text) => ({ text, core: true }));
  if (!modifiers) return core;
  const combos: string[] = [];
  for (const noun of theme.nouns) {
    for (const p of PREFIX_MODIFIERS) if (!noun.includes(p)) combos.push(`${p} ${noun}`);
    for (const s of SUFFIX_MODIFIERS) if (!noun.includes(s)) combos.push(`${noun} ${s}`);
  }
  return [...core, ...rng.shuffle(combos).map((text) => ({ text, core: false }))];
}

function pickMatch(rng: Rng): MatchType {
  const r = rng.next();
  return r < 0.3 ? "EXACT" : r < 0.7 ? "PHRASE" : "BROAD";
}

function buildKeywords(ctx: KeywordContext, theme: AdGroupTheme, count: number, seen: Set<string>, modifiers = true): KeywordPlan[] {
  const out: KeywordPlan[] = [];
  const add = (text: string, mt: MatchType, core: boolean) => {
    const key = `${text}|${mt}`;
    if (seen.has(key) || out.length >= count) return;
    seen.add(key);
    out.push(keywordPlan(ctx, text, mt, core));
  };
  const cands = candidateTexts(ctx.rng, theme, modifiers);
  // Core nouns are usually layered across match types.
  for (const c of cands.filter((x) => x.core)) {
    add(c.text, "EXACT", true);
    add(c.text, "PHRASE", true);
    if (ctx.rng.chance(0.5)) add(c.text, "BROAD", true);
  }
  for (const c of cands) {
    if (out.length >= count) break;
    if (!c.core) add(c.text, pickMatch(ctx.rng), false);
  }
  return out;
}

function negative(text: string, matchType: MatchType): KeywordPlan {
  return {
    text,
    matchType,
    negative: true,
    status: "ENABLED",
    lambda: 0,
    ctr: 0,
    cpc: 0,
    cvr: 0,
    aov: 0,
    activeFrom: 0,
    activeUntil: 0,
  };
}

// ---------------------------------------------------------------- ads

interface CopyContext {
  label: string;
  line: string;
  price: number;
}

function fill(template: string, c: CopyContext): string {
  return template
    .replaceAll("{labelLower}", c.label.toLowerCase())
    .replaceAll("{label}", c.label)
    .replaceAll("{line}", c.line)
    .replaceAll("{price}", String(c.price));
}

/** Google's RSA limits: 3–15 headlines ≤ 30 chars, 2–4 descriptions ≤ 90 chars, paths ≤ 15. */
export const RSA_LIMITS = { headlineMax: 30, descriptionMax: 90, pathMax: 15, minHeadlines: 3, maxHeadlines: 15, minDescriptions: 2, maxDescriptions: 4 };

const GENERIC_DESCRIPTIONS = [
  "Every Northwind product is backed by our lifetime repair program. Shop online today.",
  "Members save 10% on their first order. Expert advice from real hikers and climbers.",
];

function strengthFor(h: number, d: number, rng: Rng): AdPlan["adStrength"] {
  if (h >= 13 && d >= 4) return rng.chance(0.6) ? "EXCELLENT" : "GOOD";
  if (h >= 10 && d >= 3) return rng.chance(0.75) ? "GOOD" : "AVERAGE";
  if (h >= 7) return "AVERAGE";
  return "POOR";
}

function buildRsa(
  rng: Rng,
  copy: CopyContext,
  headlineTemplates: string[],
  descriptionTemplates: string[],
  path1: string,
  path2: string,
  finalUrl: string,
  opts: { weak?: boolean; pinBrand?: string; weight?: number; status?: EntityStatus } = {},
): AdPlan {
  const uniq = (xs: string[]) => [...new Set(xs)];
  const heads = uniq(headlineTemplates.map((t) => fill(t, copy)).filter((h) => h.length <= RSA_LIMITS.headlineMax));
  let descs = uniq(descriptionTemplates.map((t) => fill(t, copy)).filter((d) => d.length <= RSA_LIMITS.descriptionMax));
  // Long product names can push templated lines past 90 chars; never go below Google's minimum.
  if (descs.length < RSA_LIMITS.minDescriptions) descs = uniq([...descs, ...GENERIC_DESCRIPTIONS]).slice(0, Math.max(RSA_LIMITS.minDescriptions, descs.length));
  const [first, ...rest] = heads;
  const hCount = opts.weak ? 3 : Math.min(heads.length, rng.int(8, 15));
  const dCount = opts.weak ? 2 : Math.min(descs.length, rng.int(3, 4));
  const headlines: AdTextAsset[] = [first, ...rng.shuffle(rest)].slice(0, hCount).map((text) => ({ text }));
  const descriptions: AdTextAsset[] = rng
    .shuffle(descs)
    .slice(0, dCount)
    .map((text) => ({ text }));
  if (opts.pinBrand) {
    const pinned = headlines.find((h) => h.text === opts.pinBrand);
    if (pinned) pinned.pinnedField = "HEADLINE_1";
  }
  return {
    type: "RESPONSIVE_SEARCH_AD",
    status: opts.status ?? "ENABLED",
    headlines,
    descriptions,
    path1: path1.slice(0, RSA_LIMITS.pathMax),
    path2: path2.slice(0, RSA_LIMITS.pathMax),
    finalUrl,
    weight: opts.weight ?? rng.range(0.6, 1.4),
    adStrength: opts.weak ? "POOR" : strengthFor(hCount, dCount, rng),
    quality: opts.weak ? "weak" : "normal",
  };
}

function adCount(rng: Rng): number {
  const r = rng.next();
  return r < 0.2 ? 1 : r < 0.75 ? 2 : 3;
}

// ---------------------------------------------------------------- helpers for plants

function findKeyword(ag: AdGroupPlan, text: string, matchType: MatchType): KeywordPlan | undefined {
  return ag.keywords.find((k) => !k.negative && k.text === text && k.matchType === matchType);
}

/** Returns the keyword (creating it if the random draw did not) so a plant can tune it. */
function ensureKeyword(ctx: KeywordContext, ag: AdGroupPlan, text: string, matchType: MatchType, seen: Set<string>): KeywordPlan {
  const hit = findKeyword(ag, text, matchType);
  if (hit) return hit;
  seen.add(`${text}|${matchType}`);
  const kp = keywordPlan(ctx, text, matchType, true);
  kp.status = "ENABLED";
  kp.activeUntil = ctx.activeUntil;
  kp.rarelyServed = false;
  ag.keywords.push(kp);
  return kp;
}

function withQuality(kp: KeywordPlan, qs: number, c: QualityBucket, p: QualityBucket, e: QualityBucket): void {
  kp.qualityScore = qs;
  kp.creative = c;
  kp.postClick = p;
  kp.predictedCtr = e;
}

function wasteTerm(text: string, share: number): TermPlan {
  return { text, matchType: "BROAD", share, convWeight: 0, status: "NONE" };
}

// ---------------------------------------------------------------- rich account

interface SearchCampaignSpec {
  name: string;
  line: ProductLine;
  themes: AdGroupTheme[];
  status: EntityStatus;
  bidding: BiddingPlan;
  brand?: boolean;
  competitor?: boolean;
  activeUntil: number;
  volume: number;
  cvrMult?: number;
  is: number;
  blis: number;
  headroom: number;
  startDate: string;
  keywordsPerAdGroup: [number, number];
}

export function richOutdoorPlan(rng: Rng, D: number): AccountPlan {
  const line = (key: string) => OUTDOOR_LINES.find((l) => l.key === key) as ProductLine;
  const brandLine: ProductLine = { key: "brand", name: "Northwind", path: "gear", aov: 140, cpc: 0.45, cvr: 1, themes: BRAND_THEMES };
  const competitorLine: ProductLine = { key: "compare", name: "Outdoor Gear", path: "compare", aov: 150, cpc: 1.4, cvr: 1, themes: COMPETITOR_THEMES };
  const summerLine: ProductLine = {
    key: "summer",
    name: "Summer Deals",
    path: "sale",
    aov: 120,
    cpc: 1.1,
    cvr: 1,
    themes: [
      { name: "Summer Camping Deals", slug: "camping", nouns: ["camping gear sale", "summer camping deals", "camping clearance", "outdoor gear sale"] },
      { name: "Clearance Tents", slug: "tents", nouns: ["tent clearance", "tent sale", "discount tents", "cheap tents"] },
    ],
  };
  const base = "https://www.northwind-outdoor.example";
  const seen = new Set<string>();

  const specs: SearchCampaignSpec[] = [
    {
      name: "Brand | Northwind",
      line: brandLine,
      themes: BRAND_THEMES,
      status: "ENABLED",
      bidding: { type: "MANUAL_CPC" },
      brand: true,
      activeUntil: D,
      volume: 1,
      is: 0.9,
      blis: 0.01,
      headroom: 1.8,
      startDate: "2021-04-12",
      keywordsPerAdGroup: [10, 14],
    },
    {
      name: "Search | Tents",
      line: line("tents"),
      themes: line("tents").themes,
      status: "ENABLED",
      bidding: { type: "MAXIMIZE_CONVERSION_VALUE", targetRoas: 4 },
      activeUntil: D,
      volume: 1,
      is: 0.42,
      blis: 0.02,
      headroom: 1.6,
      startDate: "2022-02-01",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Sleeping Bags",
      line: line("sleeping"),
      themes: line("sleeping").themes,
      status: "ENABLED",
      bidding: { type: "TARGET_ROAS", targetRoas: 3.5 },
      activeUntil: D,
      volume: 0.9,
      is: 0.38,
      blis: 0.02,
      headroom: 1.7,
      startDate: "2022-02-01",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Hiking Boots",
      line: line("boots"),
      themes: line("boots").themes,
      status: "ENABLED",
      bidding: { type: "MANUAL_CPC" },
      activeUntil: D,
      volume: 1,
      is: 0.36,
      blis: 0.03,
      headroom: 1.5,
      startDate: "2022-03-15",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Backpacks",
      line: line("packs"),
      themes: line("packs").themes,
      status: "ENABLED",
      bidding: { type: "MAXIMIZE_CONVERSIONS", targetCpaMicros: 38_000_000 },
      activeUntil: D,
      volume: 0.95,
      is: 0.4,
      blis: 0.02,
      headroom: 1.6,
      startDate: "2022-03-15",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Climbing Gear",
      line: line("climbing"),
      themes: line("climbing").themes,
      status: "ENABLED",
      bidding: { type: "MAXIMIZE_CONVERSION_VALUE", targetRoas: 3 },
      activeUntil: D,
      volume: 0.8,
      cvrMult: 1.45,
      is: 0.34,
      blis: 0.48,
      headroom: 1.0,
      startDate: "2023-05-02",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Rain Jackets",
      line: line("jackets"),
      themes: line("jackets").themes,
      status: "ENABLED",
      bidding: { type: "TARGET_ROAS", targetRoas: 3 },
      activeUntil: D,
      volume: 0.9,
      is: 0.37,
      blis: 0.02,
      headroom: 1.7,
      startDate: "2022-09-01",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Camp Kitchen",
      line: line("kitchen"),
      themes: line("kitchen").themes,
      status: "ENABLED",
      bidding: { type: "TARGET_CPA", targetCpaMicros: 24_000_000 },
      activeUntil: D,
      volume: 0.85,
      is: 0.41,
      blis: 0.02,
      headroom: 1.8,
      startDate: "2023-01-09",
      keywordsPerAdGroup: [28, 33],
    },
    {
      name: "Search | Competitors",
      line: competitorLine,
      themes: COMPETITOR_THEMES,
      status: "ENABLED",
      bidding: { type: "MANUAL_CPC" },
      competitor: true,
      activeUntil: D,
      volume: 0.7,
      is: 0.18,
      blis: 0.02,
      headroom: 1.5,
      startDate: "2024-06-03",
      keywordsPerAdGroup: [9, 12],
    },
    {
      name: "Search | Trail Running",
      line: line("running"),
      themes: line("running").themes,
      status: "PAUSED",
      bidding: { type: "MAXIMIZE_CONVERSIONS" },
      activeUntil: D - 21,
      volume: 0.8,
      is: 0.35,
      blis: 0.02,
      headroom: 1.6,
      startDate: "2023-03-20",
      keywordsPerAdGroup: [24, 28],
    },
    {
      name: "Search | Ski & Snow",
      line: line("snow"),
      themes: line("snow").themes,
      status: "PAUSED",
      bidding: { type: "TARGET_CPA", targetCpaMicros: 45_000_000 },
      activeUntil: Math.max(1, D - 62),
      volume: 0.8,
      is: 0.33,
      blis: 0.02,
      headroom: 1.6,
      startDate: "2022-11-01",
      keywordsPerAdGroup: [24, 28],
    },
    {
      name: "Search | Summer Sale 2025",
      line: summerLine,
      themes: summerLine.themes,
      status: "REMOVED",
      bidding: { type: "MANUAL_CPC" },
      activeUntil: Math.min(D, 12),
      volume: 0.9,
      is: 0.4,
      blis: 0.02,
      headroom: 1.5,
      startDate: "2025-06-01",
      keywordsPerAdGroup: [12, 16],
    },
  ];

  const campaigns: CampaignPlan[] = [];
  const adGroupsByCampaign = new Map<string, AdGroupPlan[]>();

  for (const spec of specs) {
    const manual = spec.bidding.type === "MANUAL_CPC";
    const agBid = micros(spec.line.cpc * 1.25);
    const ags: AdGroupPlan[] = [];
    for (const theme of spec.themes) {
      const ctx: KeywordContext = {
        rng,
        line: spec.line,
        brand: !!spec.brand,
        competitor: spec.competitor,
        volume: spec.volume,
        cvrMult: spec.cvrMult ?? 1,
        manualBid: manual ? agBid : undefined,
        activeUntil: spec.activeUntil,
        D,
      };
      const count = rng.int(spec.keywordsPerAdGroup[0], spec.keywordsPerAdGroup[1]);
      const keywords = buildKeywords(ctx, theme, count, seen, !spec.brand && !spec.competitor);
      if (spec.brand && theme.name === "Brand - Core") {
        const core = keywords.find((k) => k.text === "northwind" && k.matchType === "EXACT");
        if (core) core.lambda = 420;
      }
      const copy: CopyContext = { label: theme.name.length <= 22 ? theme.name : spec.line.name, line: spec.line.name, price: Math.round(spec.line.aov * 0.45) };
      const url = `${base}/${spec.line.path}/${theme.slug}`;
      const ads: AdPlan[] = [];
      const n = adCount(rng);
      for (let i = 0; i < n; i++) {
        ads.push(
          buildRsa(
            rng,
            copy,
            HEADLINE_TEMPLATES,
            DESCRIPTION_TEMPLATES,
            spec.line.path,
            theme.slug,
            url,
            spec.brand ? { pinBrand: "Northwind Outdoor Gear" } : {},
          ),
        );
      }
      // The keyword context rides along so plants can add keywords drawn the same way.
      const planned: PlannedGroup = {
        name: theme.name,
        status: "ENABLED",
        type: "SEARCH_STANDARD",
        cpcBidMicros: agBid,
        keywords,
        ads,
        activeUntil: spec.activeUntil,
        ctx,
      };
      ags.push(planned);
    }
    adGroupsByCampaign.set(spec.name, ags);
    campaigns.push({
      name: spec.name,
      channel: "SEARCH",
      status: spec.status,
      bidding: spec.bidding,
      brand: !!spec.brand,
      budgetHeadroom: spec.headroom,
      baseImpressionShare: spec.is,
      baseBudgetLost: spec.blis,
      activeUntil: spec.activeUntil,
      startDate: spec.startDate,
      mobileShare: rng.range(0.55, 0.66),
      tabletShare: rng.range(0.04, 0.07),
      geoTargetConstant: US,
      languageConstant: ENGLISH,
      negatives: spec.brand
        ? [
            ["jobs", "BROAD"],
            ["careers", "BROAD"],
          ]
        : CAMPAIGN_NEGATIVES.slice(),
      adGroups: () => ags,
    });
  }

  applyPlants(rng, D, adGroupsByCampaign, campaigns, seen, base);

  // Display remarketing.
  const displayAds = (slug: string): AdPlan[] => [
    {
      type: "RESPONSIVE_DISPLAY_AD",
      status: "ENABLED",
      headlines: [{ text: "Gear Up for Your Next Trip" }, { text: "Your Cart Is Waiting" }, { text: "Northwind Outdoor Gear" }],
      descriptions: [{ text: "Come back and save 10% on your first order." }, { text: "Tents, packs and boots built to last. Free returns." }],
      longHeadline: "Everything you need for the trail, tested by people who hike it",
      businessName: "Northwind Outdoor Gear",
      finalUrl: `${base}/?utm_campaign=${slug}`,
      weight: 1,
      adStrength: "GOOD",
      quality: "normal",
    },
  ];
  const displayGroups: AdGroupPlan[] = DISPLAY_AD_GROUPS.map((g, i) => ({
    name: g.name,
    status: "ENABLED",
    type: "DISPLAY_STANDARD",
    cpcBidMicros: 800_000,
    keywords: [],
    ads: displayAds(g.slug),
    display: { lambda: [6000, 3500, 9000][i] ?? 5000, ctr: 0.0045, cpc: 0.55, cvr: 0.012, aov: 130 } satisfies Traffic,
    activeUntil: D,
  }));
  campaigns.push({
    name: "Display | Remarketing",
    channel: "DISPLAY",
    status: "ENABLED",
    bidding: { type: "MAXIMIZE_CONVERSIONS", targetCpaMicros: 30_000_000 },
    brand: false,
    budgetHeadroom: 1.5,
    baseImpressionShare: 0,
    baseBudgetLost: 0,
    activeUntil: D,
    startDate: "2023-02-14",
    mobileShare: 0.68,
    tabletShare: 0.07,
    geoTargetConstant: US,
    languageConstant: ENGLISH,
    negatives: [],
    adGroups: () => displayGroups,
  });

  // Performance Max: campaign-level traffic and search-term categories only.
  const pmaxTerms = OUTDOOR_LINES.flatMap((l) => l.themes.map((t) => t.nouns[0])).slice(0, 40);
  campaigns.push({
    name: "PMax | All Products",
    channel: "PERFORMANCE_MAX",
    status: "ENABLED",
    bidding: { type: "MAXIMIZE_CONVERSION_VALUE", targetRoas: 4.5 },
    brand: false,
    budgetHeadroom: 1.4,
    baseImpressionShare: 0,
    baseBudgetLost: 0,
    activeUntil: D,
    startDate: "2024-01-08",
    mobileShare: 0.64,
    tabletShare: 0.06,
    geoTargetConstant: US,
    languageConstant: ENGLISH,
    negatives: [],
    adGroups: () => [],
    pmax: { lambda: 9000, ctr: 0.012, cpc: 0.85, cvr: 0.028, aov: 160, terms: pmaxTerms },
    assetGroups: PMAX_ASSET_GROUPS,
  });

  // Brand first, then search, display, PMax — the order an account manager would expect.
  return {
    customerId: RICH_CUSTOMER_ID,
    name: "Northwind Outdoor Gear",
    currencyCode: "USD",
    timeZone: "America/New_York",
    campaigns,
    termMode: "rich",
    sparseTermProbability: 0,
    assetViews: true,
    finalUrlBase: base,
  };
}

type PlannedGroup = AdGroupPlan & { ctx?: KeywordContext };

/** The findings an optimizer must surface; every one is listed in PLANTED.md. */
function applyPlants(rng: Rng, D: number, byCampaign: Map<string, AdGroupPlan[]>, campaigns: CampaignPlan[], seen: Set<string>, base: string): void {
  const group = (campaign: string, name: string): PlannedGroup => {
    const g = byCampaign.get(campaign)?.find((a) => a.name === name) as PlannedGroup | undefined;
    if (!g?.ctx) throw new Error(`plant target missing: ${campaign} / ${name}`);
    return g;
  };
  const kw = (g: PlannedGroup, text: string, mt: MatchType) => ensureKeyword(g.ctx as KeywordContext, g, text, mt, seen);
  const live = (k: KeywordPlan) => {
    k.status = "ENABLED";
    k.rarelyServed = false;
    k.activeFrom = 0;
    k.activeUntil = D;
  };

  // P1 — keywords that spend without converting.
  const wasted: Array<[string, string, string, MatchType, number, number]> = [
    ["Search | Tents", "Family Tents", "cheap camping tents", "BROAD", 95, 0.045],
    ["Search | Hiking Boots", "Trail Shoes", "running shoes", "BROAD", 120, 0.03],
    ["Search | Backpacks", "Travel Packs", "laptop backpack", "PHRASE", 80, 0.05],
    ["Search | Rain Jackets", "Insulated Jackets", "winter coat", "BROAD", 110, 0.035],
    ["Search | Camp Kitchen", "Coolers", "yeti cooler", "BROAD", 100, 0.04],
  ];
  for (const [c, g, text, mt, lambda, ctr] of wasted) {
    const k = kw(group(c, g), text, mt);
    live(k);
    k.lambda = lambda;
    k.ctr = ctr;
    k.cvr = 0;
    k.qualityScore ??= 5;
    k.creative ??= "AVERAGE";
    k.postClick ??= "AVERAGE";
    k.predictedCtr ??= "AVERAGE";
  }

  // P2 — search terms that spend without converting, on busy broad keywords.
  const hosts: Array<[string, string, string, TermPlan[]]> = [
    [
      "Search | Tents",
      "Family Tents",
      "family camping tent",
      [wasteTerm("free camping sites near me", 0.14), wasteTerm("how to set up a tent", 0.12), wasteTerm("free tent giveaway", 0.08)],
    ],
    ["Search | Hiking Boots", "Backpacking Boots", "boots", [wasteTerm("boot repair near me", 0.14), wasteTerm("cowboy boots", 0.12)]],
    ["Search | Climbing Gear", "Climbing Ropes", "climbing rope", [wasteTerm("used climbing rope", 0.14), wasteTerm("climbing rope swing", 0.1)]],
    ["Search | Sleeping Bags", "Synthetic Bags", "sleeping bag", [wasteTerm("dog sleeping bag", 0.13), wasteTerm("free sleeping bag", 0.08)]],
    ["Search | Camp Kitchen", "Camp Stoves", "camp stove", [wasteTerm("camp stove recall", 0.13)]],
    ["Search | Backpacks", "Hiking Daypacks", "hiking backpack", [wasteTerm("free backpack", 0.09)]],
  ];
  for (const [c, g, text, terms] of hosts) {
    const k = kw(group(c, g), text, "BROAD");
    live(k);
    k.lambda = Math.max(k.lambda, 150);
    k.ctr = Math.max(k.ctr, 0.04);
    k.terms = [...(k.terms ?? []), ...terms];
  }
  // P12 — a term already excluded by the campaign negative "rental" (traffic stops when it was added).
  {
    const k = kw(group("Search | Tents", "Instant Tents"), "instant tent", "BROAD");
    live(k);
    k.lambda = Math.max(k.lambda, 80);
    k.terms = [...(k.terms ?? []), { text: "tent rental near me", matchType: "BROAD", share: 0.12, convWeight: 0, status: "EXCLUDED", activeUntil: D - 30 }];
  }
  // P10 — a converting term that is not a keyword yet (harvest candidate).
  {
    const k = kw(group("Search | Tents", "Instant Tents"), "4 person instant tent", "PHRASE");
    live(k);
    k.lambda = Math.max(k.lambda, 70);
    k.cvr = Math.max(k.cvr, 0.05);
    k.terms = [{ text: "4 person instant tent with screen room", matchType: "PHRASE", share: 0.3, convWeight: 3, status: "NONE" }, ...(k.terms ?? [])];
  }

  // P4 — duplicate keywords across ad groups (same text + match type, same targeting).
  const dup = (c: string, g1: string, g2: string, text: string, mt: MatchType) => {
    const a = kw(group(c, g1), text, mt);
    live(a);
    a.lambda = Math.max(a.lambda, 25);
    const g = group(c, g2);
    const b = keywordPlan(g.ctx as KeywordContext, text, mt, true);
    live(b);
    b.lambda = Math.max(a.lambda * 0.6, 15);
    g.keywords.push(b);
  };
  dup("Search | Hiking Boots", "Men's Hiking Boots", "Waterproof Boots", "mens hiking boots", "EXACT");
  dup("Search | Tents", "Backpacking Tents", "Ultralight Tents", "lightweight backpacking tent", "PHRASE");
  dup("Search | Backpacks", "Hiking Daypacks", "Backpacking Packs", "hiking backpack", "BROAD");

  // P5 — weak ads: POOR strength, 3 headlines / 2 descriptions, mostly LOW assets.
  const weakAd = (c: string, g: string, replaceIndex: number | "add") => {
    // c scopes the lookup; weak copy is built from the ad group's own product line.
    const ag = group(c, g);
    const lineKey = OUTDOOR_LINES.find((l) => l.themes.some((t) => t.name === g)) as ProductLine;
    const theme = lineKey.themes.find((t) => t.name === g) as AdGroupTheme;
    const ad = buildRsa(
      rng,
      { label: g, line: lineKey.name, price: Math.round(lineKey.aov * 0.45) },
      ["{label}", "Shop {label}", "Northwind Outdoor Gear"],
      DESCRIPTION_TEMPLATES.slice(0, 2),
      lineKey.path,
      theme.slug,
      `${base}/${lineKey.path}/${theme.slug}`,
      { weak: true, weight: 1.2 },
    );
    if (replaceIndex === "add" || ag.ads.length === 0) ag.ads.push(ad);
    else ag.ads[Math.min(replaceIndex, ag.ads.length - 1)] = ad;
  };
  weakAd("Search | Camp Kitchen", "Coolers", "add");
  const kids = group("Search | Sleeping Bags", "Kids Sleeping Bags");
  kids.ads = [];
  weakAd("Search | Sleeping Bags", "Kids Sleeping Bags", "add");
  weakAd("Search | Rain Jackets", "Softshells", 0);

  // P6 — low quality score keywords with real spend (competitor terms are low by construction).
  const lowQs: Array<[string, string, string, MatchType, number]> = [
    ["Search | Hiking Boots", "Backpacking Boots", "boots", "BROAD", 2],
    ["Search | Sleeping Bags", "Synthetic Bags", "sleeping bag", "BROAD", 3],
    ["Search | Tents", "Tent Accessories", "tent poles", "PHRASE", 3],
  ];
  for (const [c, g, text, mt, qs] of lowQs) {
    const k = kw(group(c, g), text, mt);
    live(k);
    withQuality(k, qs, "BELOW_AVERAGE", qs === 2 ? "BELOW_AVERAGE" : "AVERAGE", "BELOW_AVERAGE");
    k.lambda = Math.max(k.lambda, 60);
    k.cpc *= 1.35;
  }

  // P7 — bids far off target: a manual-CPC ad group bidding ~4x the norm, and a tCPA override ~4x the campaign's.
  {
    const g = group("Search | Hiking Boots", "Trail Shoes");
    g.cpcBidMicros = 5_800_000;
    for (const k of g.keywords) {
      if (k.negative || k.rarelyServed) continue;
      k.cpcBidMicros = undefined;
      k.cpc = 5.8 * rng.range(0.75, 0.9);
      k.lambda = Math.max(k.lambda, 8);
    }
    const s = group("Search | Camp Kitchen", "Camp Stoves");
    s.targetCpaMicros = 95_000_000;
    for (const k of s.keywords) if (!k.negative) k.cpc *= 2.2;
  }

  // P8 — paused keyword that converted well before it was paused.
  {
    const k = kw(group("Search | Backpacks", "Backpacking Packs"), "65l backpack", "EXACT");
    k.status = "PAUSED";
    k.rarelyServed = false;
    k.activeFrom = 0;
    k.activeUntil = D - 25;
    k.lambda = 30;
    k.ctr = 0.09;
    k.cvr = 0.09;
    withQuality(k, 8, "ABOVE_AVERAGE", "ABOVE_AVERAGE", "AVERAGE");
  }

  // P9 — a campaign negative that blocks a positive keyword (which therefore never serves).
  {
    const jackets = campaigns.find((c) => c.name === "Search | Rain Jackets") as CampaignPlan;
    jackets.negatives.push(["down jacket", "EXACT"]);
    const k = kw(group("Search | Rain Jackets", "Insulated Jackets"), "down jacket", "EXACT");
    k.status = "ENABLED";
    k.lambda = 0;
    k.rarelyServed = false;
    k.qualityScore = undefined;
    k.creative = k.postClick = k.predictedCtr = undefined;
  }

  // Ad-group negatives that steer traffic between sibling ad groups.
  group("Search | Tents", "Backpacking Tents").keywords.push(negative("family", "BROAD"));
  group("Search | Tents", "Family Tents").keywords.push(negative("backpacking", "BROAD"));
  group("Search | Hiking Boots", "Men's Hiking Boots").keywords.push(negative("womens", "BROAD"));
  group("Search | Hiking Boots", "Women's Hiking Boots").keywords.push(negative("mens", "BROAD"));
}

// ---------------------------------------------------------------- bakery (small, EUR)

export function bakeryPlan(rng: Rng, D: number): AccountPlan {
  const base = "https://www.northwind-baeckerei.example";
  const seen = new Set<string>();
  const brandLine: ProductLine = { key: "marke", name: "Bäckerei Northwind", path: "marke", aov: 30, cpc: 0.3, cvr: 1, themes: BAKERY_BRAND_THEMES };
  const specs: Array<{ name: string; line: ProductLine; bidding: BiddingPlan; brand: boolean; status: EntityStatus }> = [
    { name: "Marke | Bäckerei Northwind", line: brandLine, bidding: { type: "MANUAL_CPC" }, brand: true, status: "ENABLED" },
    { name: "Suche | Torten & Kuchen", line: BAKERY_LINES[0], bidding: { type: "TARGET_CPA", targetCpaMicros: 12_000_000 }, brand: false, status: "ENABLED" },
    { name: "Suche | Brot & Brötchen", line: BAKERY_LINES[1], bidding: { type: "MAXIMIZE_CONVERSIONS" }, brand: false, status: "ENABLED" },
  ];
  const campaigns: CampaignPlan[] = specs.map((spec) => {
    const manual = spec.bidding.type === "MANUAL_CPC";
    const agBid = micros(spec.line.cpc * 1.3);
    const ags: AdGroupPlan[] = spec.line.themes.map((theme) => {
      const ctx: KeywordContext = {
        rng,
        line: spec.line,
        brand: spec.brand,
        volume: 0.22,
        cvrMult: 1,
        manualBid: manual ? agBid : undefined,
        activeUntil: D,
        D,
      };
      const keywords = buildKeywords(ctx, theme, rng.int(7, 10), seen, false);
      const copy: CopyContext = { label: theme.name, line: spec.line.name, price: 0 };
      const ad = buildRsa(
        rng,
        copy,
        BAKERY_HEADLINES,
        BAKERY_DESCRIPTIONS,
        spec.line.path,
        theme.slug,
        `${base}/${spec.line.path}/${theme.slug}`,
        spec.brand ? { pinBrand: "Bäckerei Northwind" } : {},
      );
      return { name: theme.name, status: "ENABLED", type: "SEARCH_STANDARD", cpcBidMicros: agBid, keywords, ads: [ad], activeUntil: D };
    });
    return {
      name: spec.name,
      channel: "SEARCH",
      status: spec.status,
      bidding: spec.bidding,
      brand: spec.brand,
      budgetHeadroom: 1.7,
      baseImpressionShare: spec.brand ? 0.85 : 0.45,
      baseBudgetLost: 0.02,
      activeUntil: D,
      startDate: "2023-09-01",
      mobileShare: 0.7,
      tabletShare: 0.05,
      geoTargetConstant: GERMANY,
      languageConstant: GERMAN,
      negatives: spec.brand
        ? []
        : [
            ["rezept", "BROAD"],
            ["selber backen", "PHRASE"],
          ],
      adGroups: () => ags,
    } satisfies CampaignPlan;
  });
  return {
    customerId: SMALL_CUSTOMER_ID,
    name: "Northwind Bakery Berlin",
    currencyCode: "EUR",
    timeZone: "Europe/Berlin",
    campaigns,
    termMode: "rich",
    sparseTermProbability: 0,
    assetViews: true,
    finalUrlBase: base,
  };
}

// ---------------------------------------------------------------- scale

export interface ScaleSpec {
  campaigns: number;
  adGroupsPerCampaign: number;
  keywordsPerAdGroup: number;
  /** Exact keyword total (the last ad groups are trimmed to hit it). */
  totalKeywords: number;
  /** Fraction of keywords that get any traffic; big accounts are mostly long tail. */
  activeKeywordShare: number;
  searchTermProbability: number;
}

/** Procedural account for benchmarks: same shapes as the demo, no plants, compact copy. */
export function scaledOutdoorPlan(rng: Rng, D: number, spec: ScaleSpec): AccountPlan {
  const base = "https://www.northwind-outdoor.example";
  const bidTypes: BiddingPlan[] = [
    { type: "MANUAL_CPC" },
    { type: "MAXIMIZE_CONVERSIONS", targetCpaMicros: 35_000_000 },
    { type: "TARGET_ROAS", targetRoas: 3.5 },
    { type: "TARGET_CPA", targetCpaMicros: 30_000_000 },
    { type: "MAXIMIZE_CONVERSION_VALUE", targetRoas: 4 },
  ];
  const channelOf = (i: number) => (i % 100 === 99 ? "PERFORMANCE_MAX" : i % 50 === 49 ? "DISPLAY" : "SEARCH");
  let searchCampaigns = 0;
  for (let i = 0; i < spec.campaigns; i++) if (channelOf(i) === "SEARCH") searchCampaigns++;
  const totalSearchGroups = searchCampaigns * spec.adGroupsPerCampaign;
  const baseKw = Math.floor(spec.totalKeywords / totalSearchGroups);
  let extraKw = spec.totalKeywords - baseKw * totalSearchGroups;
  // Shared, frozen copy per theme: 50k ads must not mean 50k headline arrays.
  const adCache = new Map<string, AdPlan>();
  const intern = new Map<string, string>();
  const internText = (s: string) => {
    const hit = intern.get(s);
    if (hit !== undefined) return hit;
    intern.set(s, s);
    return s;
  };

  function* campaigns(): Generator<CampaignPlan> {
    let search = 0;
    for (let i = 0; i < spec.campaigns; i++) {
      const lineDef = OUTDOOR_LINES[i % OUTDOOR_LINES.length];
      const channel = channelOf(i);
      const r = rng.next();
      const status: EntityStatus = r < 0.85 ? "ENABLED" : r < 0.97 ? "PAUSED" : "REMOVED";
      const activeUntil = status === "ENABLED" ? D : rng.int(1, D - 1);
      const bidding = bidTypes[i % bidTypes.length];
      const manual = bidding.type === "MANUAL_CPC";
      const agBid = micros(lineDef.cpc * 1.25);
      const common = {
        name: `${channel === "SEARCH" ? "Search" : channel === "DISPLAY" ? "Display" : "PMax"} | ${lineDef.name} #${i + 1}`,
        status,
        bidding,
        brand: false,
        budgetHeadroom: rng.chance(0.1) ? 1 : rng.range(1.3, 2),
        baseImpressionShare: rng.range(0.2, 0.6),
        baseBudgetLost: rng.chance(0.1) ? rng.range(0.2, 0.5) : 0.02,
        activeUntil,
        startDate: "2023-01-01",
        mobileShare: rng.range(0.55, 0.68),
        tabletShare: rng.range(0.04, 0.07),
        geoTargetConstant: US,
        languageConstant: ENGLISH,
        negatives: CAMPAIGN_NEGATIVES.slice(0, 3),
      } as const;
      if (channel === "PERFORMANCE_MAX") {
        yield {
          ...common,
          channel,
          negatives: [],
          adGroups: () => [],
          pmax: { lambda: 800, ctr: 0.012, cpc: 0.85, cvr: 0.028, aov: lineDef.aov, terms: lineDef.themes.map((t) => t.nouns[0]) },
        };
        continue;
      }
      if (channel === "DISPLAY") {
        yield {
          ...common,
          channel,
          negatives: [],
          adGroups: () => [
            {
              name: `Remarketing ${i + 1}`,
              status: "ENABLED",
              type: "DISPLAY_STANDARD",
              cpcBidMicros: 800_000,
              keywords: [],
              ads: [],
              display: { lambda: 800, ctr: 0.0045, cpc: 0.55, cvr: 0.012, aov: lineDef.aov },
              activeUntil: D,
            },
          ],
        };
        continue;
      }
      search++;
      const isLastSearch = search === searchCampaigns;
      yield {
        ...common,
        channel,
        adGroups: function* () {
          for (let j = 0; j < spec.adGroupsPerCampaign; j++) {
            const theme = lineDef.themes[j % lineDef.themes.length];
            let count = baseKw + (extraKw > 0 ? 1 : 0);
            if (extraKw > 0) extraKw--;
            if (isLastSearch && j === spec.adGroupsPerCampaign - 1) count += extraKw;
            const ctx: KeywordContext = { rng, line: lineDef, brand: false, volume: 1, cvrMult: 1, manualBid: manual ? agBid : undefined, activeUntil, D };
            const keywords: KeywordPlan[] = [];
            const texts = theme.nouns;
            for (let k = 0; k < count; k++) {
              const noun = texts[k % texts.length];
              const round = Math.floor(k / texts.length);
              const mod =
                round === 0
                  ? ""
                  : round % 2 === 1
                    ? PREFIX_MODIFIERS[(round >> 1) % PREFIX_MODIFIERS.length]
                    : SUFFIX_MODIFIERS[((round >> 1) - 1 + SUFFIX_MODIFIERS.length) % SUFFIX_MODIFIERS.length];
              const text = internText(mod === "" ? noun : round % 2 === 1 ? `${mod} ${noun}` : `${noun} ${mod}`);
              const mt: MatchType = (["EXACT", "PHRASE", "BROAD"] as const)[(k + j) % 3];
              const kp = keywordPlan(ctx, text, mt, round === 0);
              if (!rng.chance(spec.activeKeywordShare)) {
                kp.lambda = 0;
                kp.qualityScore = undefined;
                kp.creative = kp.postClick = kp.predictedCtr = undefined;
              } else {
                // Long-tail volumes keep ~40% of active keyword-days non-zero, which bounds fact memory.
                kp.lambda *= 0.05;
              }
              keywords.push(kp);
            }
            const key = `${lineDef.key}/${theme.slug}`;
            let ad = adCache.get(key);
            if (!ad) {
              const built = buildRsa(
                rng,
                { label: theme.name.length <= 22 ? theme.name : lineDef.name, line: lineDef.name, price: Math.round(lineDef.aov * 0.45) },
                HEADLINE_TEMPLATES,
                DESCRIPTION_TEMPLATES,
                lineDef.path,
                theme.slug,
                `${base}/${lineDef.path}/${theme.slug}`,
              );
              built.shared = true;
              Object.freeze(built.headlines);
              Object.freeze(built.descriptions);
              for (const h of built.headlines) Object.freeze(h);
              for (const d of built.descriptions) Object.freeze(d);
              ad = built;
              adCache.set(key, ad);
            }
            yield {
              name: `${theme.name} ${j + 1}`,
              status: "ENABLED",
              type: "SEARCH_STANDARD",
              cpcBidMicros: agBid,
              keywords,
              ads: [ad],
              activeUntil,
            } satisfies AdGroupPlan;
          }
        },
      };
    }
  }

  return {
    customerId: RICH_CUSTOMER_ID,
    name: "Northwind Outdoor Gear",
    currencyCode: "USD",
    timeZone: "America/New_York",
    campaigns: campaigns(),
    termMode: "sparse",
    sparseTermProbability: spec.searchTermProbability,
    assetViews: false,
    finalUrlBase: base,
  };
}

/** The demo's Performance Max asset groups (issue 32): built after everything else, with their own id ranges, so no other id or figure moves. */
const PMAX_ASSET_GROUPS: AssetGroupPlan[] = [
  {
    name: "Tents & Shelter",
    status: "ENABLED",
    finalUrl: "https://www.northwind-outdoor.example/tents",
    path1: "tents",
    headlines: ["Tents for Every Trip", "Free Shipping Over $50", "Northwind Outdoor Gear", "Backpacking Tents", "Family Camping Tents"],
    longHeadlines: ["Find the tent that fits your next trip, from ultralight to family size"],
    descriptions: ["Ultralight, family and instant tents, tested in the field.", "Shop tents, tarps and footprints with free returns."],
    businessName: "Northwind Outdoor",
    images: 3,
    brands: ["Northwind", "Summit Works"],
  },
  {
    name: "Sleeping & Camp Kitchen",
    status: "ENABLED",
    finalUrl: "https://www.northwind-outdoor.example/camp",
    path1: "camp",
    headlines: ["Sleep Warm Outdoors", "Camp Stoves & Cookware", "Northwind Outdoor Gear", "Down & Synthetic Bags"],
    longHeadlines: ["Sleeping bags, pads and camp kitchens for cold nights and long trips"],
    descriptions: ["Rated bags for every season, from summer to winter.", "Stoves, pots and coolers for the campsite."],
    businessName: "Northwind Outdoor",
    images: 2,
    brands: ["Northwind"],
  },
  {
    name: "Winter Clearance",
    status: "PAUSED",
    finalUrl: "https://www.northwind-outdoor.example/sale",
    headlines: ["Winter Clearance Sale", "Up to 40% Off Jackets", "Northwind Outdoor Gear"],
    longHeadlines: ["Last season's jackets and boots at clearance prices while stocks last"],
    descriptions: ["Insulated jackets, boots and gloves on sale now.", "Limited stock: order before it is gone."],
    businessName: "Northwind Outdoor",
    images: 1,
    brands: [],
  },
];
