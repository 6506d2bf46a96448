// Column-wise tables for the two entity kinds that reach millions of rows
// (keywords and search terms). A JS object per row costs ~150 bytes; typed
// columns cost ~30, and full scans over them stay cache-friendly.

import type { AdGroupCriterionData, EntityStatus, MatchType, QualityBucket, SearchTermMatchType, SearchTermStatus } from "./types";

export const STATUS_VALUES: readonly EntityStatus[] = ["ENABLED", "PAUSED", "REMOVED"];
export const MATCH_TYPE_VALUES: readonly MatchType[] = ["EXACT", "PHRASE", "BROAD"];
/** Index 0 means "not set" for the quality columns. */
export const QUALITY_BUCKET_VALUES: readonly (QualityBucket | undefined)[] = [undefined, "BELOW_AVERAGE", "AVERAGE", "ABOVE_AVERAGE"];
export const SERVING_STATUS_VALUES = ["ELIGIBLE", "RARELY_SERVED"] as const;
export const SEARCH_TERM_STATUS_VALUES: readonly SearchTermStatus[] = ["NONE", "ADDED", "EXCLUDED", "ADDED_EXCLUDED"];
export const SEARCH_TERM_MATCH_VALUES: readonly SearchTermMatchType[] = ["EXACT", "NEAR_EXACT", "PHRASE", "NEAR_PHRASE", "BROAD", "PERFORMANCE_MAX"];

type Typed = Float64Array | Int32Array | Uint8Array;

function grown<T extends Typed>(arr: T, cap: number): T {
  const next = new (arr.constructor as new (n: number) => T)(cap);
  next.set(arr);
  return next;
}

export interface KeywordInput {
  criterionId: number;
  adGroupIdx: number;
  text: string;
  matchType: MatchType;
  status: EntityStatus;
  negative: boolean;
  /** Micros; undefined = inherit the ad group bid. */
  cpcBidMicros?: number;
  qualityScore?: number;
  creativeQualityScore?: QualityBucket;
  postClickQualityScore?: QualityBucket;
  searchPredictedCtr?: QualityBucket;
  rarelyServed?: boolean;
}

/** ad_group_criterion rows of type KEYWORD (positive and negative). */
export class KeywordTable {
  count = 0;
  private cap: number;
  criterionId: Float64Array;
  adGroupIdx: Int32Array;
  text: string[] = [];
  matchType: Uint8Array;
  status: Uint8Array;
  negative: Uint8Array;
  /** NaN = unset (inherits the ad group bid). */
  cpcBid: Float64Array;
  qualityScore: Uint8Array;
  creative: Uint8Array;
  postClick: Uint8Array;
  predictedCtr: Uint8Array;
  serving: Uint8Array;

  constructor(capacity = 256) {
    this.cap = Math.max(16, capacity);
    this.criterionId = new Float64Array(this.cap);
    this.adGroupIdx = new Int32Array(this.cap);
    this.matchType = new Uint8Array(this.cap);
    this.status = new Uint8Array(this.cap);
    this.negative = new Uint8Array(this.cap);
    this.cpcBid = new Float64Array(this.cap);
    this.qualityScore = new Uint8Array(this.cap);
    this.creative = new Uint8Array(this.cap);
    this.postClick = new Uint8Array(this.cap);
    this.predictedCtr = new Uint8Array(this.cap);
    this.serving = new Uint8Array(this.cap);
  }

  private ensure(n: number): void {
    if (n <= this.cap) return;
    let cap = this.cap;
    while (cap < n) cap *= 2;
    this.criterionId = grown(this.criterionId, cap);
    this.adGroupIdx = grown(this.adGroupIdx, cap);
    this.matchType = grown(this.matchType, cap);
    this.status = grown(this.status, cap);
    this.negative = grown(this.negative, cap);
    this.cpcBid = grown(this.cpcBid, cap);
    this.qualityScore = grown(this.qualityScore, cap);
    this.creative = grown(this.creative, cap);
    this.postClick = grown(this.postClick, cap);
    this.predictedCtr = grown(this.predictedCtr, cap);
    this.serving = grown(this.serving, cap);
    this.cap = cap;
  }

  add(k: KeywordInput): number {
    this.ensure(this.count + 1);
    const i = this.count++;
    this.criterionId[i] = k.criterionId;
    this.adGroupIdx[i] = k.adGroupIdx;
    this.text[i] = k.text;
    this.matchType[i] = MATCH_TYPE_VALUES.indexOf(k.matchType);
    this.status[i] = STATUS_VALUES.indexOf(k.status);
    this.negative[i] = k.negative ? 1 : 0;
    this.cpcBid[i] = k.cpcBidMicros ?? NaN;
    this.qualityScore[i] = k.qualityScore ?? 0;
    this.creative[i] = QUALITY_BUCKET_VALUES.indexOf(k.creativeQualityScore);
    this.postClick[i] = QUALITY_BUCKET_VALUES.indexOf(k.postClickQualityScore);
    this.predictedCtr[i] = QUALITY_BUCKET_VALUES.indexOf(k.searchPredictedCtr);
    this.serving[i] = k.rarelyServed ? 1 : 0;
    return i;
  }

  /** Trims growth slack once generation is done (matters at millions of rows). */
  compact(): void {
    const n = Math.max(16, this.count);
    this.criterionId = this.criterionId.slice(0, n);
    this.adGroupIdx = this.adGroupIdx.slice(0, n);
    this.matchType = this.matchType.slice(0, n);
    this.status = this.status.slice(0, n);
    this.negative = this.negative.slice(0, n);
    this.cpcBid = this.cpcBid.slice(0, n);
    this.qualityScore = this.qualityScore.slice(0, n);
    this.creative = this.creative.slice(0, n);
    this.postClick = this.postClick.slice(0, n);
    this.predictedCtr = this.predictedCtr.slice(0, n);
    this.serving = this.serving.slice(0, n);
    this.cap = n;
  }

  bytes(): number {
    let n = 0;
    for (const c of [
      this.criterionId,
      this.adGroupIdx,
      this.matchType,
      this.status,
      this.negative,
      this.cpcBid,
      this.qualityScore,
      this.creative,
      this.postClick,
      this.predictedCtr,
      this.serving,
    ])
      n += c.byteLength;
    return n;
  }
}

export interface SearchTermInput {
  text: string;
  campaignIdx: number;
  /** -1 for Performance Max terms, which have no ad group (campaign_search_term_view only). */
  adGroupIdx: number;
  keywordIdx: number;
  matchType: SearchTermMatchType;
  status: SearchTermStatus;
}

/** search_term_view rows: one per (campaign, ad group, term), tied to the keyword that matched. */
export class SearchTermTable {
  count = 0;
  private cap: number;
  text: string[] = [];
  campaignIdx: Int32Array;
  adGroupIdx: Int32Array;
  keywordIdx: Int32Array;
  matchType: Uint8Array;
  status: Uint8Array;

  constructor(capacity = 256) {
    this.cap = Math.max(16, capacity);
    this.campaignIdx = new Int32Array(this.cap);
    this.adGroupIdx = new Int32Array(this.cap);
    this.keywordIdx = new Int32Array(this.cap);
    this.matchType = new Uint8Array(this.cap);
    this.status = new Uint8Array(this.cap);
  }

  add(t: SearchTermInput): number {
    if (this.count === this.cap) {
      const cap = this.cap * 2;
      this.campaignIdx = grown(this.campaignIdx, cap);
      this.adGroupIdx = grown(this.adGroupIdx, cap);
      this.keywordIdx = grown(this.keywordIdx, cap);
      this.matchType = grown(this.matchType, cap);
      this.status = grown(this.status, cap);
      this.cap = cap;
    }
    const i = this.count++;
    this.text[i] = t.text;
    this.campaignIdx[i] = t.campaignIdx;
    this.adGroupIdx[i] = t.adGroupIdx;
    this.keywordIdx[i] = t.keywordIdx;
    this.matchType[i] = SEARCH_TERM_MATCH_VALUES.indexOf(t.matchType);
    this.status[i] = SEARCH_TERM_STATUS_VALUES.indexOf(t.status);
    return i;
  }

  compact(): void {
    const n = Math.max(16, this.count);
    this.campaignIdx = this.campaignIdx.slice(0, n);
    this.adGroupIdx = this.adGroupIdx.slice(0, n);
    this.keywordIdx = this.keywordIdx.slice(0, n);
    this.matchType = this.matchType.slice(0, n);
    this.status = this.status.slice(0, n);
    this.cap = n;
  }

  bytes(): number {
    return this.campaignIdx.byteLength + this.adGroupIdx.byteLength + this.keywordIdx.byteLength + this.matchType.byteLength + this.status.byteLength;
  }
}

export type { AdGroupCriterionData };
