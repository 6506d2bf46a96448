// Turns account plans into store entities and sparse daily facts.
//
// Traffic is simulated bottom-up (keyword → search terms; keywords → ad group
// → campaign) in one ordered pass, so every fact table is built append-only
// and the levels add up exactly. Only keyword, search-term, display-ad-group
// and campaign facts are stored; ad groups, ads and asset views are derived
// at query time. Everything random comes from one seeded Rng consumed in a
// fixed order: same seed + plans → same data.

import type { Account } from "../store/store";
import { FactBuilder, type FactTable } from "../store/facts";
import { keywordImpressionShare } from "../store/impression-share";
import { RowSplitter } from "../store/split";
import { hashUnit, Rng } from "../util/prng";
import { weekday } from "../util/dates";
import type {
  AdGroupAdEntity,
  AdGroupData,
  AdTextAsset,
  BudgetEntity,
  CampaignCriterionData,
  CampaignData,
  CampaignEntity,
  PerformanceLabel,
  AssetData,
  AssetGroupFieldType,
  AssetGroupListingGroupFilterData,
} from "../store/types";
import type { AccountPlan, AdGroupPlan, AdPlan, AssetGroupPlan, CampaignPlan, KeywordPlan, TermPlan, Traffic } from "./plan";
import { BRAND_TERM_PATTERNS, BROAD_TERM_PATTERNS, PHRASE_TERM_PATTERNS } from "./content";

/** Sunday-first weekly shape: outdoor shoppers browse more at weekends. */
const WEEKLY = [1.12, 0.95, 0.93, 0.95, 0.98, 1.02, 1.15];

const ID_BASE = {
  campaign: 17_000_000_000,
  budget: 13_000_000_000,
  adGroup: 140_000_000_000,
  criterion: 300_000_000_000,
  ad: 650_000_000_000,
  asset: 190_000_000_000,
  campaignCriterion: 500_000_000_000,
  // Performance Max (issue 32): own ranges, assigned after every other entity, so no earlier id moves.
  assetGroup: 6_400_000_000,
  pmaxAsset: 195_000_000_000,
  listingGroup: 8_100_000_000,
};

export interface GeneratedAccountStats {
  customerId: string;
  campaigns: number;
  adGroups: number;
  keywords: number;
  negativeKeywords: number;
  ads: number;
  searchTerms: number;
  factRows: number;
  factBytes: number;
}

const D_COLS = 5;

export class AccountGenerator {
  private readonly D: number;
  private kwB: FactBuilder;
  private stB: FactBuilder;
  private displayB = new FactBuilder(false, false, 1024);
  private campB = new FactBuilder(false, true, 4096);
  // scratch: one day-array per metric
  private kw: Float64Array[];
  private ag: Float64Array[];
  private agIS: Float64Array[];
  private camp: Float64Array[];
  private campIS: Float64Array[];
  private seq = { campaign: 0, budget: 0, adGroup: 0, criterion: 0, ad: 0, asset: 0, campaignCriterion: 0, assetGroup: 0, pmaxAsset: 0, listingGroup: 0 };
  private assetByText = new Map<string, number>();
  private pmaxBuffers: Array<{ campaignIdx: number; daily: Float64Array[]; terms: string[] }> = [];
  private pmaxGroups: Array<{ campaignIdx: number; groups: AssetGroupPlan[] }> = [];
  // Campaign daily impression-share inputs, appended per campaign in index order (campaignIdx * D + day).
  private rates: { budgetLost: number[]; rankLost: number[] } = { budgetLost: [], rankLost: [] };
  private splitter = new RowSplitter();
  private positiveKeywords = 0;
  private negativeKeywords = 0;

  constructor(
    private readonly acct: Account,
    private readonly plan: AccountPlan,
    private readonly rng: Rng,
    days: number,
    expectedKeywords: number,
  ) {
    this.D = days;
    const cap = Math.max(4096, Math.min(expectedKeywords * 8, 1 << 21));
    this.kwB = new FactBuilder(false, false, cap);
    this.stB = new FactBuilder(false, false, cap);
    const arr = (n: number) => Array.from({ length: n }, () => new Float64Array(days));
    this.kw = arr(D_COLS);
    this.ag = arr(D_COLS);
    this.agIS = arr(3);
    this.camp = arr(D_COLS);
    this.campIS = arr(3);
  }

  private nextId(kind: keyof typeof ID_BASE): number {
    const n = this.seq[kind]++;
    // Stride keeps ids irregular-looking while staying unique and ordered.
    return ID_BASE[kind] + n * 7 + (n % 5);
  }

  run(): GeneratedAccountStats {
    const acct = this.acct;
    const D = this.D;
    for (const cp of this.plan.campaigns) this.campaign(cp);

    // Performance Max terms go last so the term table stays append-only.
    for (const p of this.pmaxBuffers) this.pmaxTerms(p.campaignIdx, p.daily, p.terms);
    // Asset groups last of all, without the shared random stream: every other id and figure stays as it was.
    for (const p of this.pmaxGroups) for (const g of p.groups) this.assetGroup(p.campaignIdx, g);

    acct.facts = {
      keyword: this.kwB.finish(acct.keywords.count),
      searchTerm: this.stB.finish(acct.searchTerms.count),
      displayAdGroup: this.displayB.finish(acct.adGroups.length),
      campaign: this.campB.finish(acct.campaigns.length),
    };
    acct.keywords.compact();
    acct.searchTerms.compact();
    acct.isRates = {
      budgetLost: Float32Array.from(this.rates.budgetLost),
      rankLost: Float32Array.from(this.rates.rankLost),
      days: D,
    };
    const facts = Object.values(acct.facts) as FactTable[];
    return {
      customerId: acct.customerId,
      campaigns: acct.campaigns.length,
      adGroups: acct.adGroups.length,
      keywords: this.positiveKeywords,
      negativeKeywords: this.negativeKeywords,
      ads: acct.ads.length,
      searchTerms: acct.searchTerms.count,
      factRows: facts.reduce((n, f) => n + f.rowCount, 0),
      factBytes: facts.reduce((n, f) => n + f.bytes(), 0),
    };
  }

  // ---------------------------------------------------------------- campaign

  private campaign(cp: CampaignPlan): void {
    const acct = this.acct;
    const rng = this.rng;
    const D = this.D;
    const cid = acct.customerId;
    const ci = acct.campaigns.length;
    const bi = acct.budgets.length;
    const budgetId = this.nextId("budget");
    const budget: BudgetEntity = {
      idx: bi,
      data: {
        resourceName: `customers/${cid}/campaignBudgets/${budgetId}`,
        id: budgetId,
        name: `${cp.name} Budget`,
        amountMicros: 0,
        deliveryMethod: "STANDARD",
        explicitlyShared: false,
        period: "DAILY",
        status: "ENABLED",
        type: "STANDARD",
      },
    };
    acct.budgets.push(budget);
    const campaignId = this.nextId("campaign");
    const data: CampaignData = {
      resourceName: `customers/${cid}/campaigns/${campaignId}`,
      id: campaignId,
      name: cp.name,
      status: cp.status,
      servingStatus: cp.status === "ENABLED" ? "SERVING" : "NONE",
      primaryStatus: cp.status === "ENABLED" ? "ELIGIBLE" : cp.status === "PAUSED" ? "PAUSED" : "REMOVED",
      advertisingChannelType: cp.channel,
      biddingStrategyType: cp.bidding.type,
      campaignBudget: budget.data.resourceName,
      startDateTime: `${cp.startDate} 00:00:00`,
      networkSettings: {
        targetGoogleSearch: cp.channel !== "DISPLAY",
        targetSearchNetwork: cp.channel === "SEARCH",
        targetContentNetwork: cp.channel !== "SEARCH",
        targetPartnerSearchNetwork: false,
      },
      containsEuPoliticalAdvertising: "DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING",
    };
    switch (cp.bidding.type) {
      case "MANUAL_CPC":
        data.manualCpc = { enhancedCpcEnabled: false };
        break;
      case "MAXIMIZE_CONVERSIONS":
        data.maximizeConversions = cp.bidding.targetCpaMicros ? { targetCpaMicros: cp.bidding.targetCpaMicros } : {};
        break;
      case "MAXIMIZE_CONVERSION_VALUE":
        data.maximizeConversionValue = cp.bidding.targetRoas ? { targetRoas: cp.bidding.targetRoas } : {};
        break;
      case "TARGET_CPA":
        data.targetCpa = { targetCpaMicros: cp.bidding.targetCpaMicros ?? 30_000_000 };
        break;
      case "TARGET_ROAS":
        data.targetRoas = { targetRoas: cp.bidding.targetRoas ?? 3 };
        break;
      case "TARGET_SPEND":
        data.targetSpend = {};
        break;
    }
    if (cp.labels) data.labels = cp.labels;
    const campaign: CampaignEntity = { idx: ci, budgetIdx: bi, mobileShare: cp.mobileShare, tabletShare: cp.tabletShare, data };
    acct.campaigns.push(campaign);

    // Campaign-level criteria: geo, language, negatives.
    const addCriterion = (c: Omit<CampaignCriterionData, "resourceName" | "campaign" | "criterionId" | "status">, id?: number) => {
      const critId = id ?? this.nextId("campaignCriterion");
      acct.campaignCriteria.push({
        idx: acct.campaignCriteria.length,
        campaignIdx: ci,
        data: {
          resourceName: `customers/${cid}/campaignCriteria/${campaignId}~${critId}`,
          campaign: data.resourceName,
          criterionId: critId,
          status: "ENABLED",
          ...c,
        },
      });
    };
    addCriterion({ type: "LOCATION", negative: false, location: { geoTargetConstant: cp.geoTargetConstant } }, Number(cp.geoTargetConstant.split("/")[1]));
    addCriterion({ type: "LANGUAGE", negative: false, language: { languageConstant: cp.languageConstant } }, Number(cp.languageConstant.split("/")[1]));
    for (const [text, matchType] of cp.negatives) addCriterion({ type: "KEYWORD", negative: true, keyword: { text, matchType } });

    // Daily shape shared by everything in the campaign.
    const season = new Float64Array(D);
    const dayNoise = 0.07;
    for (let d = 0; d < D; d++) {
      season[d] = WEEKLY[weekday(acct.dataStartDay + d)] * (1 + 0.12 * (d / D - 0.5)) * rng.logNormal(dayNoise);
    }
    const search = cp.channel === "SEARCH";
    for (let d = 0; d < D; d++) {
      if (search) {
        let blis = cp.baseBudgetLost > 0.05 ? cp.baseBudgetLost + rng.normal() * 0.05 : cp.baseBudgetLost * rng.range(0, 2);
        blis = Math.min(0.85, Math.max(0, blis));
        let is = cp.baseImpressionShare * rng.logNormal(0.06);
        is = Math.min(0.97, Math.max(0.08, Math.min(is, 1 - blis)));
        this.rates.budgetLost.push(blis);
        this.rates.rankLost.push(Math.max(0, 1 - is - blis));
      } else {
        this.rates.budgetLost.push(NaN);
        this.rates.rankLost.push(NaN);
      }
    }

    for (const a of this.camp) a.fill(0);
    for (const a of this.campIS) a.fill(0);
    for (const agp of cp.adGroups()) this.adGroup(cp, ci, season, agp);

    if (cp.pmax) {
      const t = cp.pmax;
      const daily = Array.from({ length: D_COLS }, () => new Float64Array(D));
      this.simulate(t, season, 0, cp.activeUntil, daily);
      for (let k = 0; k < D_COLS; k++) for (let d = 0; d < D; d++) this.camp[k][d] += daily[k][d];
      this.pmaxBuffers.push({ campaignIdx: ci, daily, terms: t.terms });
    }
    if (cp.assetGroups?.length) this.pmaxGroups.push({ campaignIdx: ci, groups: cp.assetGroups });

    this.campB.openEntity(ci);
    let cost = 0;
    let activeDays = 0;
    for (let d = 0; d < D; d++) {
      const c = this.camp;
      if (c[0][d] === 0 && c[1][d] === 0 && c[2][d] === 0) continue;
      this.campB.push(d, c[0][d], c[1][d], c[2][d], c[3][d], c[4][d], this.campIS[0][d], this.campIS[1][d], this.campIS[2][d]);
      cost += c[2][d];
      activeDays++;
    }
    // Budgets follow spend: a headroom near 1 means the campaign spends its whole budget most days.
    const avgDaily = activeDays > 0 ? cost / 100 / activeDays : rng.range(20, 80);
    const amount = Math.max(5, Math.round(avgDaily * cp.budgetHeadroom * rng.range(0.98, 1.04)));
    budget.data.amountMicros = amount * 1_000_000;
  }

  // ---------------------------------------------------------------- ad group

  private adGroup(cp: CampaignPlan, ci: number, season: Float64Array, agp: AdGroupPlan): void {
    const acct = this.acct;
    const D = this.D;
    const cid = acct.customerId;
    const gi = acct.adGroups.length;
    const campaign = acct.campaigns[ci];
    const adGroupId = this.nextId("adGroup");
    const agData: AdGroupData = {
      resourceName: `customers/${cid}/adGroups/${adGroupId}`,
      id: adGroupId,
      name: agp.name,
      status: agp.status,
      type: agp.type,
      campaign: campaign.data.resourceName,
    };
    if (agp.cpcBidMicros !== undefined) agData.cpcBidMicros = agp.cpcBidMicros;
    if (agp.targetCpaMicros !== undefined) {
      agData.targetCpaMicros = agp.targetCpaMicros;
      agData.effectiveTargetCpaMicros = agp.targetCpaMicros;
    } else {
      const tcpa = campaign.data.targetCpa?.targetCpaMicros ?? campaign.data.maximizeConversions?.targetCpaMicros;
      if (tcpa) agData.effectiveTargetCpaMicros = tcpa;
      const troas = campaign.data.targetRoas?.targetRoas ?? campaign.data.maximizeConversionValue?.targetRoas;
      if (troas) agData.effectiveTargetRoas = troas;
    }
    acct.adGroups.push({ idx: gi, campaignIdx: ci, data: agData });

    for (const a of this.ag) a.fill(0);
    for (const a of this.agIS) a.fill(0);
    const until = Math.min(agp.activeUntil, cp.activeUntil);
    const rateBase = ci * D;

    if (agp.display) {
      this.simulate(agp.display, season, 0, until, this.ag);
      this.displayB.openEntity(gi);
      for (let d = 0; d < D; d++) {
        const g = this.ag;
        if (g[0][d] === 0 && g[1][d] === 0) continue;
        this.displayB.push(d, g[0][d], g[1][d], g[2][d], g[3][d], g[4][d]);
      }
    } else {
      const termSeen = new Set<string>();
      const positiveTexts = new Set(agp.keywords.filter((k) => !k.negative).map((k) => k.text));
      for (const kp of agp.keywords) {
        const ki = acct.keywords.add({
          criterionId: this.nextId("criterion"),
          adGroupIdx: gi,
          text: kp.text,
          matchType: kp.matchType,
          status: kp.status,
          negative: kp.negative,
          cpcBidMicros: kp.cpcBidMicros,
          qualityScore: kp.qualityScore,
          creativeQualityScore: kp.creative,
          postClickQualityScore: kp.postClick,
          searchPredictedCtr: kp.predictedCtr,
          rarelyServed: kp.rarelyServed,
        });
        if (kp.negative) {
          this.negativeKeywords++;
          continue;
        }
        this.positiveKeywords++;
        if (kp.lambda <= 0) continue;
        const from = kp.activeFrom;
        const to = Math.min(kp.activeUntil, until);
        if (from >= to) continue;
        this.simulate(kp, season, from, to, this.kw);
        this.kwB.openEntity(ki);
        const k = this.kw;
        const qs = kp.qualityScore ?? 0;
        let any = false;
        for (let d = 0; d < D; d++) {
          const impr = k[0][d];
          if (impr === 0) continue;
          any = true;
          this.kwB.push(d, impr, k[1][d], k[2][d], k[3][d], k[4][d]);
          for (let c = 0; c < D_COLS; c++) this.ag[c][d] += k[c][d];
          const blis = this.rates.budgetLost[rateBase + d];
          if (!Number.isNaN(blis)) {
            const is = keywordImpressionShare(blis, this.rates.rankLost[rateBase + d], qs);
            const eligible = impr / is;
            const bl = eligible * blis;
            this.agIS[0][d] += eligible;
            this.agIS[1][d] += bl;
            this.agIS[2][d] += eligible - impr - bl;
          }
        }
        if (any) this.keywordTerms(ci, gi, ki, kp, termSeen, positiveTexts, cp.brand);
      }
    }

    // Ad-group facts are not stored: queries sum the keywords (or read displayAdGroup).
    for (let d = 0; d < D; d++) {
      const g = this.ag;
      if (g[0][d] === 0 && g[1][d] === 0) continue;
      for (let c = 0; c < D_COLS; c++) this.camp[c][d] += g[c][d];
      for (let c = 0; c < 3; c++) this.campIS[c][d] += this.agIS[c][d];
    }
    this.ads(gi, agp);
  }

  /** Fills `out` (impr, clicks, cost¢, conv×100, value×100) for days [from, to). */
  private simulate(t: Traffic, season: Float64Array, from: number, to: number, out: Float64Array[]): void {
    const rng = this.rng;
    const [oi, oc, ocost, oconv, oval] = out;
    for (let d = 0; d < this.D; d++) {
      if (d < from || d >= to) {
        oi[d] = oc[d] = ocost[d] = oconv[d] = oval[d] = 0;
        continue;
      }
      const impr = rng.poisson(t.lambda * season[d]);
      if (impr === 0) {
        oi[d] = oc[d] = ocost[d] = oconv[d] = oval[d] = 0;
        continue;
      }
      const clicks = rng.binomial(impr, t.ctr);
      let cost = 0;
      let conv = 0;
      let value = 0;
      if (clicks > 0) {
        cost = Math.max(1, Math.round(clicks * t.cpc * 100 * rng.range(0.85, 1.15)));
        conv = rng.binomial(clicks, t.cvr) * 100;
        // Data-driven attribution hands out fractional credit now and then.
        if (t.cvr > 0 && rng.chance(t.cvr * 2)) conv += 50;
        if (conv > 0) value = Math.round(conv * t.aov * rng.range(0.75, 1.3));
      }
      oi[d] = impr;
      oc[d] = clicks;
      ocost[d] = cost;
      oconv[d] = conv;
      oval[d] = value;
    }
  }

  // ---------------------------------------------------------------- search terms

  private keywordTerms(ci: number, gi: number, ki: number, kp: KeywordPlan, seen: Set<string>, positives: Set<string>, brand: boolean): void {
    const rng = this.rng;
    const terms: TermPlan[] = [];
    const add = (t: TermPlan) => {
      if (seen.has(t.text)) return;
      seen.add(t.text);
      terms.push(t);
    };
    for (const t of kp.terms ?? []) add(t);
    if (!kp.noAutoTerms) {
      if (this.plan.termMode === "sparse") {
        if (rng.chance(this.plan.sparseTermProbability)) {
          add({ text: kp.text, matchType: kp.matchType === "EXACT" ? "EXACT" : kp.matchType, share: rng.range(0.4, 0.8), convWeight: 1, status: "ADDED" });
        }
      } else {
        for (const t of this.autoTerms(kp, positives, brand)) add(t);
      }
    }
    if (terms.length === 0) return;
    // Visible terms never take more than the keyword had; the rest is Google's "other search terms".
    const planted = terms.reduce((s, t) => s + t.share, 0);
    const scale = planted > 0.92 ? 0.92 / planted : 1;
    const weightedConv = terms.reduce((s, t) => s + t.share * scale * t.convWeight, 0);
    const coverage = terms.reduce((s, t) => s + t.share * scale, 0);
    const convNorm = weightedConv > 0 ? coverage / weightedConv : 0;
    const k = this.kw;
    for (const t of terms) {
      const si = this.acct.searchTerms.add({
        text: t.text,
        campaignIdx: ci,
        adGroupIdx: gi,
        keywordIdx: ki,
        matchType: t.matchType,
        status: t.status,
      });
      this.stB.openEntity(si);
      const w = t.share * scale;
      const cw = Math.min(1, w * t.convWeight * convNorm);
      const until = t.activeUntil ?? this.D;
      for (let d = 0; d < Math.min(until, this.D); d++) {
        const impr = k[0][d];
        if (impr === 0) continue;
        const ti = Math.min(impr, Math.floor(impr * w + rng.next()));
        if (ti === 0) continue;
        const clicks = k[1][d];
        const tc = Math.min(ti, clicks, Math.floor(clicks * w + rng.next()));
        const tcost = tc > 0 ? Math.min(k[2][d], Math.round((k[2][d] * tc) / clicks)) : 0;
        let tconv = 0;
        if (tc > 0 && k[3][d] > 0 && cw > 0) {
          tconv = Math.min(k[3][d], Math.round((k[3][d] * cw) / 50 + rng.next() - 0.5) * 50);
          if (tconv < 0) tconv = 0;
        }
        const tval = tconv > 0 ? Math.round((k[4][d] * tconv) / k[3][d]) : 0;
        this.stB.push(d, ti, tc, tcost, tconv, tval);
      }
    }
  }

  /** Realistic query variants for a keyword, by match type. */
  private autoTerms(kp: KeywordPlan, positives: Set<string>, brand: boolean): TermPlan[] {
    const rng = this.rng;
    const out: TermPlan[] = [];
    const status = (text: string) => (positives.has(text) ? "ADDED" : "NONE") as TermPlan["status"];
    const variant = (text: string) => (text.endsWith("s") ? text.slice(0, -1) : `${text}s`);
    if (kp.matchType === "EXACT") {
      out.push({ text: kp.text, matchType: "EXACT", share: rng.range(0.45, 0.7), convWeight: 1.1, status: status(kp.text) });
      if (rng.chance(0.6)) {
        const v = variant(kp.text);
        out.push({ text: v, matchType: "NEAR_EXACT", share: rng.range(0.1, 0.25), convWeight: 1, status: status(v) });
      }
    } else if (kp.matchType === "PHRASE") {
      out.push({ text: kp.text, matchType: "PHRASE", share: rng.range(0.25, 0.4), convWeight: 1.1, status: status(kp.text) });
      const n = rng.int(1, 3);
      for (const p of rng.shuffle(brand ? BRAND_TERM_PATTERNS : PHRASE_TERM_PATTERNS).slice(0, n)) {
        const text = p.replace("{x}", kp.text);
        if (text.split(" ").length > 8) continue;
        out.push({
          text,
          matchType: rng.chance(0.8) ? "PHRASE" : "NEAR_PHRASE",
          share: rng.range(0.06, 0.15),
          convWeight: text.startsWith("cheap") ? 0.4 : 0.9,
          status: status(text),
        });
      }
    } else {
      out.push({ text: kp.text, matchType: "BROAD", share: rng.range(0.12, 0.25), convWeight: 1.1, status: status(kp.text) });
      const n = rng.int(2, 4);
      for (const p of rng.shuffle(brand ? BRAND_TERM_PATTERNS : BROAD_TERM_PATTERNS).slice(0, n)) {
        const text = p.replace("{x}", kp.text);
        if (text.split(" ").length > 8) continue;
        const junk = text.startsWith("used") || text.endsWith(" vs") || text.includes("size guide");
        out.push({ text, matchType: "BROAD", share: rng.range(0.06, 0.14), convWeight: junk ? 0.1 : 0.8, status: status(text) });
      }
    }
    return out;
  }

  private pmaxTerms(ci: number, daily: Float64Array[], texts: string[]): void {
    const rng = this.rng;
    const weights = texts.map(() => rng.logNormal(0.8));
    const sum = weights.reduce((a, b) => a + b, 0);
    const coverage = 0.35;
    for (let t = 0; t < texts.length; t++) {
      const si = this.acct.searchTerms.add({
        text: texts[t],
        campaignIdx: ci,
        adGroupIdx: -1,
        keywordIdx: -1,
        matchType: "PERFORMANCE_MAX",
        status: "NONE",
      });
      this.stB.openEntity(si);
      const w = (weights[t] / sum) * coverage;
      for (let d = 0; d < this.D; d++) {
        const impr = daily[0][d];
        if (impr === 0) continue;
        const ti = Math.floor(impr * w + rng.next());
        if (ti === 0) continue;
        const tc = Math.min(ti, Math.floor(daily[1][d] * w + rng.next()));
        const tcost = tc > 0 ? Math.round((daily[2][d] * tc) / daily[1][d]) : 0;
        const tconv = tc > 0 && daily[3][d] > 0 ? Math.round((daily[3][d] * w) / 50 + rng.next() - 0.5) * 50 : 0;
        const tval = tconv > 0 ? Math.round((daily[4][d] * tconv) / daily[3][d]) : 0;
        this.stB.push(d, ti, tc, tcost, Math.max(0, tconv), Math.max(0, tval));
      }
    }
  }

  // ---------------------------------------------------------------- ads

  private ads(gi: number, agp: AdGroupPlan): void {
    const acct = this.acct;
    const D = this.D;
    const cid = acct.customerId;
    const adGroup = acct.adGroups[gi];
    const plans = agp.ads;
    if (plans.length === 0) return;
    const weights = plans.map((p) => (p.status === "ENABLED" ? p.weight : 0));
    const wsum = weights.reduce((a, b) => a + b, 0) || 1;
    const w = weights.map((x) => x / wsum);
    const n = plans.length;
    // Ad facts are derived at query time by splitting the ad group's rows with
    // these weights; here the split only sizes each ad's traffic for its labels.
    const totals = new Float64Array(n);
    const out = new Float64Array(5 * n);
    for (let d = 0; d < D; d++) {
      const g = this.ag;
      if (g[0][d] === 0) continue;
      this.splitter.split(g[0][d], g[1][d], g[2][d], g[3][d], g[4][d], w, n, out);
      for (let a = 0; a < n; a++) totals[a] += out[a * 5];
    }
    for (let a = 0; a < n; a++) {
      const p = plans[a];
      const adId = this.nextId("ad");
      const ai = acct.ads.length;
      const labelled = this.labelAssets(p, totals[a]);
      const entity: AdGroupAdEntity = {
        idx: ai,
        adGroupIdx: gi,
        trafficWeight: w[a],
        data: {
          resourceName: `customers/${cid}/adGroupAds/${adGroup.data.id}~${adId}`,
          adGroup: adGroup.data.resourceName,
          status: p.status,
          adStrength: p.adStrength,
          ad: {
            resourceName: `customers/${cid}/ads/${adId}`,
            id: adId,
            type: p.type,
            finalUrls: [p.finalUrl],
          },
          policySummary: { approvalStatus: "APPROVED", reviewStatus: "REVIEWED" },
        },
      };
      if (p.type === "RESPONSIVE_SEARCH_AD") {
        entity.data.ad.responsiveSearchAd = {
          headlines: labelled.headlines,
          descriptions: labelled.descriptions,
          ...(p.path1 ? { path1: p.path1 } : {}),
          ...(p.path2 ? { path2: p.path2 } : {}),
        };
      } else {
        entity.data.ad.responsiveDisplayAd = {
          headlines: p.headlines,
          longHeadline: { text: p.longHeadline ?? p.headlines[0].text },
          descriptions: p.descriptions,
          businessName: p.businessName ?? "",
        };
      }
      acct.ads.push(entity);
      if (this.plan.assetViews && p.type === "RESPONSIVE_SEARCH_AD") this.assetLinks(ai, labelled.headlines, labelled.descriptions);
    }
  }

  /** Performance labels need traffic: little-served ads stay LEARNING/PENDING; weak ads collect LOWs. */
  private labelAssets(p: AdPlan, impressions: number): { headlines: AdTextAsset[]; descriptions: AdTextAsset[] } {
    if (p.type !== "RESPONSIVE_SEARCH_AD" || p.shared) return { headlines: p.headlines, descriptions: p.descriptions };
    const rng = this.rng;
    const label = (i: number): PerformanceLabel => {
      if (p.status !== "ENABLED" && impressions === 0) return "PENDING";
      if (impressions < 400) return impressions === 0 ? "PENDING" : "LEARNING";
      // Weak ads: two of every three assets underperform, so the finding is unmistakable.
      if (p.quality === "weak") return i % 3 === 2 ? "GOOD" : "LOW";
      const r = rng.next();
      return r < 0.18 ? "BEST" : r < 0.78 ? "GOOD" : r < 0.9 ? "LOW" : "LEARNING";
    };
    const apply = (list: AdTextAsset[]) => list.map((a, i) => ({ ...a, assetPerformanceLabel: label(i) }));
    return { headlines: apply(p.headlines), descriptions: apply(p.descriptions) };
  }

  private assetLinks(ai: number, headlines: AdTextAsset[], descriptions: AdTextAsset[]): void {
    const acct = this.acct;
    const cid = acct.customerId;
    const ad = acct.ads[ai];
    const adGroup = acct.adGroups[ad.adGroupIdx];
    const labelWeight: Record<string, number> = { BEST: 1.6, GOOD: 1, LOW: 0.45, LEARNING: 0.8, PENDING: 0.5 };
    const link = (list: AdTextAsset[], fieldType: "HEADLINE" | "DESCRIPTION", slots: number) => {
      const ws = list.map((a) => labelWeight[a.assetPerformanceLabel ?? "LEARNING"] ?? 1);
      const sum = ws.reduce((x, y) => x + y, 0);
      list.forEach((a, i) => {
        let assetIdx = this.assetByText.get(`${fieldType}:${a.text}`);
        if (assetIdx === undefined) {
          const id = this.nextId("asset");
          assetIdx = acct.assets.length;
          acct.assets.push({
            idx: assetIdx,
            data: { resourceName: `customers/${cid}/assets/${id}`, id, type: "TEXT", source: "ADVERTISER", textAsset: { text: a.text } },
          });
          this.assetByText.set(`${fieldType}:${a.text}`, assetIdx);
        }
        const asset = acct.assets[assetIdx];
        const served = Math.min(1, (Math.min(slots, list.length) * ws[i]) / sum);
        acct.adAssetLinks.push({
          idx: acct.adAssetLinks.length,
          adIdx: ai,
          assetIdx,
          servedShare: served,
          data: {
            resourceName: `customers/${cid}/adGroupAdAssetViews/${adGroup.data.id}~${ad.data.ad.id}~${asset.data.id}~${fieldType}`,
            adGroupAd: ad.data.resourceName,
            asset: asset.data.resourceName,
            fieldType,
            performanceLabel: a.assetPerformanceLabel ?? "PENDING",
            ...(a.pinnedField ? { pinnedField: a.pinnedField } : {}),
            enabled: true,
            source: "ADVERTISER",
          },
        });
      });
    };
    link(headlines, "HEADLINE", 3);
    link(descriptions, "DESCRIPTION", 2);
  }

  // ------------------------------------------------------- performance max

  /** One asset group with its text and image assets and a listing-group tree (brand units under a root subdivision). */
  private assetGroup(ci: number, g: AssetGroupPlan): void {
    const acct = this.acct;
    const cid = acct.customerId;
    const campaign = acct.campaigns[ci].data;
    const id = this.nextId("assetGroup");
    const groupIdx = acct.assetGroups.length;
    const paused = g.status !== "ENABLED" || campaign.status !== "ENABLED";
    const resourceName = `customers/${cid}/assetGroups/${id}`;
    const texts = g.headlines.length + g.descriptions.length;
    acct.assetGroups.push({
      idx: groupIdx,
      campaignIdx: ci,
      data: {
        resourceName,
        id,
        campaign: campaign.resourceName,
        name: g.name,
        status: g.status,
        finalUrls: [g.finalUrl],
        ...(g.path1 ? { path1: g.path1 } : {}),
        adStrength: g.images >= 3 && texts >= 7 ? "GOOD" : g.images >= 2 ? "AVERAGE" : "POOR",
        primaryStatus: paused ? "PAUSED" : g.images < 2 ? "LIMITED" : "ELIGIBLE",
        ...(paused
          ? { primaryStatusReasons: [g.status !== "ENABLED" ? "ASSET_GROUP_PAUSED" : "CAMPAIGN_PAUSED"] }
          : g.images < 2
            ? { primaryStatusReasons: ["ASSET_GROUP_LIMITED"] }
            : {}),
      },
    });
    const link = (fieldType: AssetGroupFieldType, asset: Omit<AssetData, "resourceName" | "id" | "source">) => {
      const assetId = this.nextId("pmaxAsset");
      const assetIdx = acct.assets.length;
      acct.assets.push({ idx: assetIdx, data: { resourceName: `customers/${cid}/assets/${assetId}`, id: assetId, source: "ADVERTISER", ...asset } });
      // A deterministic few are approved with limits (policy labels), so the page has something to show; no shared random draw.
      const limited = hashUnit(id, assetId) < 0.15;
      acct.assetGroupAssets.push({
        idx: acct.assetGroupAssets.length,
        assetGroupIdx: groupIdx,
        assetIdx,
        data: {
          resourceName: `customers/${cid}/assetGroupAssets/${id}~${assetId}~${fieldType}`,
          assetGroup: resourceName,
          asset: `customers/${cid}/assets/${assetId}`,
          fieldType,
          status: "ENABLED",
          source: "ADVERTISER",
          primaryStatus: limited ? "LIMITED" : "ELIGIBLE",
          ...(limited ? { primaryStatusReasons: ["ASSET_APPROVED_LABELED"] } : {}),
        },
      });
    };
    for (const text of g.headlines) link("HEADLINE", { type: "TEXT", textAsset: { text } });
    for (const text of g.longHeadlines) link("LONG_HEADLINE", { type: "TEXT", textAsset: { text } });
    for (const text of g.descriptions) link("DESCRIPTION", { type: "TEXT", textAsset: { text } });
    link("BUSINESS_NAME", { type: "TEXT", textAsset: { text: g.businessName } });
    for (let i = 0; i < g.images; i++) {
      const square = i % 2 === 1;
      const [w, h] = square ? [1200, 1200] : [1200, 628];
      link(square ? "SQUARE_MARKETING_IMAGE" : "MARKETING_IMAGE", {
        type: "IMAGE",
        name: `${g.name} ${i + 1}`,
        imageAsset: { mimeType: "IMAGE_JPEG", fullSize: { widthPixels: w, heightPixels: h, url: `https://tpc.googlesyndication.com/simgad/${id}${i}` } },
      });
    }

    // Listing groups: "All products" alone, or a subdivision by brand with one unit per brand and "everything else" excluded.
    const filter = (type: AssetGroupListingGroupFilterData["type"], parent?: string, brand?: string | null) => {
      const fid = this.nextId("listingGroup");
      const name = `customers/${cid}/assetGroupListingGroupFilters/${id}~${fid}`;
      acct.listingGroupFilters.push({
        idx: acct.listingGroupFilters.length,
        assetGroupIdx: groupIdx,
        data: {
          resourceName: name,
          assetGroup: resourceName,
          id: fid,
          type,
          listingSource: "SHOPPING",
          // Google's "everything else" node is a dimension with no value.
          ...(brand === undefined ? {} : { caseValue: { productBrand: brand === null ? {} : { value: brand } } }),
          ...(parent ? { parentListingGroupFilter: parent } : {}),
        },
      });
      return name;
    };
    if (g.brands.length === 0) {
      filter("UNIT_INCLUDED");
    } else {
      const root = filter("SUBDIVISION");
      for (const brand of g.brands) filter("UNIT_INCLUDED", root, brand);
      filter("UNIT_EXCLUDED", root, null);
    }
  }
}
