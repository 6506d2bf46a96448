// The mutable in-memory Ads store: customers, the manager hierarchy, user
// access, and per-account entity tables plus their daily facts.
//
// Reads go through the GAQL engine; writes (a later mutate task) go through
// get/update by resource name here, bump `version` (which invalidates cached
// query results) and append to `changeEvents`. Creating an entity means
// appending to its table (ids from allocateId(), e.g. `acct.keywords.add(...)`,
// `acct.campaigns.push(...)`) and calling touch(): new entities simply have no
// fact rows, and lookups rebuild themselves when a table grows.

import { KeywordTable, MATCH_TYPE_VALUES, QUALITY_BUCKET_VALUES, SearchTermTable, STATUS_VALUES } from "./columns";
import { emptyFactTable, type FactTable } from "./facts";
import type { ImpressionShareRates } from "./impression-share";
import type {
  AdAssetLinkEntity,
  AdGroupAdEntity,
  AdGroupCriterionData,
  AdGroupEntity,
  AssetEntity,
  BudgetEntity,
  CampaignCriterionEntity,
  AssetGroupEntity,
  AssetGroupAssetEntity,
  ListingGroupFilterEntity,
  CampaignEntity,
  ChangeEventEntity,
  CustomerData,
  EntityStatus,
  MatchType,
  QualityBucket,
} from "./types";
import { todayIn } from "../util/dates";
import { hashUnit } from "../util/prng";
import { extendHistory } from "./history";

export interface AccountFacts {
  /** Per keyword (ad_group_criterion index). */
  keyword: FactTable;
  /** Per search term (search term table index). */
  searchTerm: FactTable;
  /** Per ad group, only for ad groups without keywords (display). Search ad groups sum their keywords. */
  displayAdGroup: FactTable;
  /** Per campaign, with impression-share columns; includes Performance Max traffic. */
  campaign: FactTable;
}

/** Everything that lives under one customer id. */
export class Account {
  campaigns: CampaignEntity[] = [];
  budgets: BudgetEntity[] = [];
  adGroups: AdGroupEntity[] = [];
  keywords = new KeywordTable();
  ads: AdGroupAdEntity[] = [];
  assets: AssetEntity[] = [];
  adAssetLinks: AdAssetLinkEntity[] = [];
  campaignCriteria: CampaignCriterionEntity[] = [];
  /** Performance Max asset groups, their asset links and listing-group trees (read only in the emulator). */
  assetGroups: AssetGroupEntity[] = [];
  assetGroupAssets: AssetGroupAssetEntity[] = [];
  listingGroupFilters: ListingGroupFilterEntity[] = [];
  searchTerms = new SearchTermTable();
  /** Seeded outside changes, then API writes from the mutate layer (ascending time). */
  changeEvents: ChangeEventEntity[] = [];
  facts: AccountFacts = {
    keyword: emptyFactTable(0),
    searchTerm: emptyFactTable(0),
    displayAdGroup: emptyFactTable(0),
    campaign: emptyFactTable(0, true),
  };
  /** Daily budget/rank loss per campaign, for keyword-level impression share; absent = no IS data. */
  isRates?: ImpressionShareRates;
  /** Day number of fact day 0; facts store day offsets from here. */
  dataStartDay = 0;
  dataDays = 0;

  // id → index lookups and parent → children groupings. Entities are only ever
  // appended (removal is a status), so they are rebuilt only when a table grows.
  private byKey = new Map<string, number>();
  private indexedShape = "";
  private groupingShape = "";
  private kwByAdGroup?: { offsets: Int32Array; items: Int32Array };
  private adsByAdGroup?: number[][];

  constructor(public customer: CustomerData) {}

  get customerId(): string {
    return String(this.customer.id);
  }

  /** Key for the id index: "<collection>/<id or composite id>". */
  private rebuildIndex(): void {
    const m = this.byKey;
    m.clear();
    for (const c of this.campaigns) m.set(`campaigns/${c.data.id}`, c.idx);
    for (const b of this.budgets) m.set(`campaignBudgets/${b.data.id}`, b.idx);
    for (const g of this.adGroups) m.set(`adGroups/${g.data.id}`, g.idx);
    const kw = this.keywords;
    for (let i = 0; i < kw.count; i++) {
      m.set(`adGroupCriteria/${this.adGroups[kw.adGroupIdx[i]].data.id}~${kw.criterionId[i]}`, i);
    }
    for (const a of this.ads) {
      m.set(`adGroupAds/${this.adGroups[a.adGroupIdx].data.id}~${a.data.ad.id}`, a.idx);
      m.set(`ads/${a.data.ad.id}`, a.idx);
    }
    for (const a of this.assets) m.set(`assets/${a.data.id}`, a.idx);
    for (const c of this.campaignCriteria) {
      m.set(`campaignCriteria/${this.campaigns[c.campaignIdx].data.id}~${c.data.criterionId}`, c.idx);
    }
  }

  /** Table sizes; a change means entities were appended. */
  private shape(): string {
    return `${this.campaigns.length}/${this.budgets.length}/${this.adGroups.length}/${this.keywords.count}/${this.ads.length}/${this.assets.length}/${this.campaignCriteria.length}`;
  }

  /** Index of an entity by "<collection>/<id>" (e.g. "adGroupCriteria/12~34"); -1 when absent. */
  indexOf(collectionAndId: string): number {
    const shape = this.shape();
    if (this.indexedShape !== shape) {
      this.rebuildIndex();
      this.indexedShape = shape;
    }
    return this.byKey.get(collectionAndId) ?? -1;
  }

  /** Keyword indices per ad group (CSR layout). */
  keywordsByAdGroup(): { offsets: Int32Array; items: Int32Array } {
    this.regroup();
    return this.kwByAdGroup as { offsets: Int32Array; items: Int32Array };
  }

  /** Ad indices per ad group. */
  adsOfAdGroups(): number[][] {
    this.regroup();
    return this.adsByAdGroup as number[][];
  }

  private regroup(): void {
    const shape = this.shape();
    if (this.groupingShape === shape && this.kwByAdGroup && this.adsByAdGroup) return;
    const kw = this.keywords;
    const groups = this.adGroups.length;
    const offsets = new Int32Array(groups + 1);
    for (let i = 0; i < kw.count; i++) offsets[kw.adGroupIdx[i] + 1]++;
    for (let g = 0; g < groups; g++) offsets[g + 1] += offsets[g];
    const fill = offsets.slice(0, groups);
    const items = new Int32Array(kw.count);
    for (let i = 0; i < kw.count; i++) items[fill[kw.adGroupIdx[i]]++] = i;
    this.kwByAdGroup = { offsets, items };
    const ads: number[][] = this.adGroups.map(() => []);
    for (const a of this.ads) ads[a.adGroupIdx]?.push(a.idx);
    this.adsByAdGroup = ads;
    this.groupingShape = shape;
  }

  // ---- keyword rows (column storage) as API-shaped snapshots ----

  keywordResourceName(i: number): string {
    return `customers/${this.customerId}/adGroupCriteria/${this.adGroups[this.keywords.adGroupIdx[i]].data.id}~${this.keywords.criterionId[i]}`;
  }

  /** Max CPC that applies: the keyword's own bid, else its ad group's. */
  effectiveCpcBid(i: number): number | undefined {
    const own = this.keywords.cpcBid[i];
    if (!Number.isNaN(own)) return own;
    return this.adGroups[this.keywords.adGroupIdx[i]].data.cpcBidMicros;
  }

  /**
   * Position estimates are derived, not stored: first-page CPC tracks quality
   * score (low QS → dearer) with stable per-keyword noise.
   */
  firstPageCpc(i: number): number | undefined {
    const kw = this.keywords;
    if (kw.negative[i] || kw.qualityScore[i] === 0) return undefined;
    const bid = this.effectiveCpcBid(i) ?? 1_000_000;
    const qsFactor = 1.6 - kw.qualityScore[i] * 0.11;
    const noise = 0.75 + 0.5 * hashUnit(kw.criterionId[i] | 0, 17);
    return Math.max(10_000, Math.round((bid * 0.55 * qsFactor * noise) / 10_000) * 10_000);
  }

  keywordData(i: number): AdGroupCriterionData {
    const kw = this.keywords;
    const ag = this.adGroups[kw.adGroupIdx[i]];
    const negative = kw.negative[i] === 1;
    const data: AdGroupCriterionData = {
      resourceName: this.keywordResourceName(i),
      criterionId: kw.criterionId[i],
      adGroup: ag.data.resourceName,
      status: STATUS_VALUES[kw.status[i]],
      type: "KEYWORD",
      negative,
      keyword: { text: kw.text[i], matchType: MATCH_TYPE_VALUES[kw.matchType[i]] },
      approvalStatus: "APPROVED",
      systemServingStatus: kw.serving[i] === 1 ? "RARELY_SERVED" : "ELIGIBLE",
    };
    if (!negative) {
      const own = kw.cpcBid[i];
      if (!Number.isNaN(own)) data.cpcBidMicros = own;
      const eff = this.effectiveCpcBid(i);
      if (eff !== undefined) data.effectiveCpcBidMicros = eff;
      if (kw.qualityScore[i] > 0) {
        data.qualityInfo = {
          qualityScore: kw.qualityScore[i],
          creativeQualityScore: QUALITY_BUCKET_VALUES[kw.creative[i]],
          postClickQualityScore: QUALITY_BUCKET_VALUES[kw.postClick[i]],
          searchPredictedCtr: QUALITY_BUCKET_VALUES[kw.predictedCtr[i]],
        };
        const fp = this.firstPageCpc(i);
        if (fp !== undefined) {
          data.positionEstimates = {
            firstPageCpcMicros: fp,
            topOfPageCpcMicros: Math.round((fp * 1.9) / 10_000) * 10_000,
            firstPositionCpcMicros: Math.round((fp * 3.1) / 10_000) * 10_000,
          };
        }
      }
    }
    return data;
  }

  /** Applies an API-shaped partial update to a keyword row. Unknown or immutable paths are ignored. */
  updateKeyword(i: number, patch: DeepPartial<AdGroupCriterionData>): void {
    const kw = this.keywords;
    if (patch.status) kw.status[i] = STATUS_VALUES.indexOf(patch.status as EntityStatus);
    if ("cpcBidMicros" in patch) kw.cpcBid[i] = patch.cpcBidMicros ?? NaN;
    if (patch.keyword?.text !== undefined) kw.text[i] = patch.keyword.text;
    if (patch.keyword?.matchType !== undefined) kw.matchType[i] = MATCH_TYPE_VALUES.indexOf(patch.keyword.matchType as MatchType);
    if (patch.systemServingStatus) kw.serving[i] = patch.systemServingStatus === "RARELY_SERVED" ? 1 : 0;
    const q = patch.qualityInfo;
    if (q) {
      if (q.qualityScore !== undefined) kw.qualityScore[i] = q.qualityScore;
      if (q.creativeQualityScore) kw.creative[i] = QUALITY_BUCKET_VALUES.indexOf(q.creativeQualityScore as QualityBucket);
      if (q.postClickQualityScore) kw.postClick[i] = QUALITY_BUCKET_VALUES.indexOf(q.postClickQualityScore as QualityBucket);
      if (q.searchPredictedCtr) kw.predictedCtr[i] = QUALITY_BUCKET_VALUES.indexOf(q.searchPredictedCtr as QualityBucket);
    }
  }
}

export type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface StoreOptions {
  /**
   * Fixed "today" (YYYY-MM-DD) for every account; when absent the clock and each account's time zone decide.
   * A pinned today is a clock stopped at that day's noon (UTC) that only advanceClock moves, never real time.
   */
  today?: string;
  now?: () => Date;
}

const MS_PER_DAY = 86_400_000;

/** Parsed `customers/{cid}/{collection}/{id}` resource name. */
export interface ResourceRef {
  customerId: string;
  collection: string;
  id: string;
}

export function parseResourceName(resourceName: string): ResourceRef | undefined {
  const m = /^customers\/(\d+)\/([A-Za-z]+)\/([^/]+)$/.exec(resourceName);
  return m ? { customerId: m[1], collection: m[2], id: m[3] } : undefined;
}

const OBJECT_COLLECTIONS = ["campaigns", "campaignBudgets", "adGroups", "adGroupAds", "ads", "assets", "campaignCriteria"] as const;
type ObjectCollection = (typeof OBJECT_COLLECTIONS)[number];

export class AdsStore {
  /** Bumped by every write; cached query results keyed by it go stale. */
  version = 0;
  readonly accounts = new Map<string, Account>();
  /** manager customer id → direct client customer ids. */
  readonly managerLinks = new Map<string, string[]>();
  /** Google user email (lower-case) → customer ids the user reaches directly. */
  readonly userAccess = new Map<string, Set<string>>();
  private nextIdValue: number;
  private readonly fixedToday?: number;
  private readonly baseNow: () => Date;
  /** How far advanceClock has moved this store's clock ahead of its base clock. */
  private clockOffsetMs = 0;

  constructor(opts: StoreOptions & { firstId?: number } = {}) {
    if (opts.today) {
      const [y, m, d] = opts.today.split("-").map(Number);
      this.fixedToday = Math.floor(Date.UTC(y, m - 1, d) / MS_PER_DAY);
    }
    // A pinned today is a clock stopped at its noon (UTC): changes are stamped on that day, and only advanceClock moves it.
    const pinnedNoon = this.fixedToday !== undefined ? new Date(this.fixedToday * MS_PER_DAY + MS_PER_DAY / 2) : undefined;
    this.baseNow = opts.now ?? (pinnedNoon ? () => pinnedNoon : () => new Date());
    this.nextIdValue = opts.firstId ?? 900_000_000_000;
  }

  /** Fresh entity id for creates (ids are unique across types, as temp-id rules assume). */
  allocateId(): number {
    return this.nextIdValue++;
  }

  addAccount(customer: CustomerData): Account {
    const acct = new Account(customer);
    this.accounts.set(String(customer.id), acct);
    return acct;
  }

  linkClient(managerId: string, clientId: string): void {
    const list = this.managerLinks.get(managerId) ?? [];
    if (!list.includes(clientId)) list.push(clientId);
    this.managerLinks.set(managerId, list);
  }

  grantAccess(email: string, customerId: string): void {
    const key = email.toLowerCase();
    const set = this.userAccess.get(key) ?? new Set<string>();
    set.add(customerId);
    this.userAccess.set(key, set);
  }

  /** An administrator removed the user from the account: it is no longer among theirs. False when it was not. */
  revokeAccess(email: string, customerId: string): boolean {
    const removed = this.userAccess.get(email.toLowerCase())?.delete(customerId) ?? false;
    if (removed) this.touch();
    return removed;
  }

  /** The manager link ended: the client is no longer reachable (or listed) through that manager. False when there was none. */
  unlinkClient(managerId: string, clientId: string): boolean {
    const list = this.managerLinks.get(managerId) ?? [];
    if (!list.includes(clientId)) return false;
    this.managerLinks.set(
      managerId,
      list.filter((c) => c !== clientId),
    );
    this.touch();
    return true;
  }

  account(customerId: string): Account | undefined {
    return this.accounts.get(customerId);
  }

  customerExists(customerId: string): boolean {
    return this.accounts.has(customerId);
  }

  accessibleCustomerIds(email: string): string[] {
    return [...(this.userAccess.get(email.toLowerCase()) ?? [])].sort();
  }

  /** Clients below a manager, breadth-first, with their depth (1 = direct client). */
  descendants(managerId: string): Array<{ customerId: string; level: number }> {
    const out: Array<{ customerId: string; level: number }> = [];
    const seen = new Set<string>([managerId]);
    let frontier = [managerId];
    for (let level = 1; frontier.length > 0; level++) {
      const next: string[] = [];
      for (const m of frontier) {
        for (const c of this.managerLinks.get(m) ?? []) {
          if (seen.has(c)) continue;
          seen.add(c);
          out.push({ customerId: c, level });
          next.push(c);
        }
      }
      frontier = next;
    }
    return out;
  }

  /**
   * Google's rule: without login-customer-id only directly accessible accounts
   * work; with it, the user must reach the login customer directly and the
   * target must be that customer or sit below it.
   */
  canAccess(email: string, customerId: string, loginCustomerId: string | undefined): boolean {
    if (!this.customerExists(customerId)) return false;
    const direct = this.userAccess.get(email.toLowerCase());
    if (!direct) return false;
    if (loginCustomerId === undefined || loginCustomerId === "") return direct.has(customerId);
    if (!direct.has(loginCustomerId) || !this.customerExists(loginCustomerId)) return false;
    if (customerId === loginCustomerId) return true;
    return this.descendants(loginCustomerId).some((d) => d.customerId === customerId);
  }

  /** The emulator's clock: the base clock plus what advanceClock added. Change events are stamped with it. */
  now(): Date {
    return new Date(this.baseNow().getTime() + this.clockOffsetMs);
  }

  /**
   * Moves the clock forward (tests run a week of refreshes in seconds). New days of metrics appear
   * as "today" moves past the last day with data (history.ts). Never backwards: Google's past is fixed.
   */
  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the emulator's clock only moves forward");
    this.clockOffsetMs += ms;
    this.touch();
  }

  /** The store's clock as the emulator's HTTP layer takes it (EmulatorOptions.clock). */
  get clock(): { now(): Date; advance(ms: number): void } {
    return { now: () => this.now(), advance: (ms) => this.advanceClock(ms) };
  }

  /** "Today" for an account, in its own time zone (or the fixed date the store was built with, moved by advanceClock). */
  todayFor(customerId: string): number {
    // From its noon: advancing by 12 hours reaches the next day, as the stopped clock does.
    if (this.fixedToday !== undefined) return this.fixedToday + Math.floor((this.clockOffsetMs + MS_PER_DAY / 2) / MS_PER_DAY);
    const acct = this.accounts.get(customerId);
    return todayIn(acct?.customer.timeZone ?? "UTC", this.now());
  }

  /**
   * The account's history reaches yesterday: days that passed since it was generated (the clock
   * moved) get their metrics now. Called before every query; cheap when nothing is missing.
   */
  catchUp(customerId: string): void {
    const acct = this.accounts.get(customerId);
    if (!acct || acct.customer.manager) return;
    if (extendHistory(acct, this.todayFor(customerId) - 1)) this.touch();
  }

  /** Marks a write: invalidates cached query results and lazily rebuilt indexes. */
  touch(): void {
    this.version++;
  }

  // ---- get / update by resource name ----

  private locate(resourceName: string): { acct: Account; collection: string; idx: number } | undefined {
    const ref = parseResourceName(resourceName);
    if (!ref) {
      const m = /^customers\/(\d+)$/.exec(resourceName);
      const acct = m ? this.accounts.get(m[1]) : undefined;
      return acct ? { acct, collection: "customers", idx: 0 } : undefined;
    }
    const acct = this.accounts.get(ref.customerId);
    if (!acct) return undefined;
    const idx = acct.indexOf(`${ref.collection}/${ref.id}`);
    return idx < 0 ? undefined : { acct, collection: ref.collection, idx };
  }

  private objectData(acct: Account, collection: ObjectCollection, idx: number): Record<string, unknown> {
    switch (collection) {
      case "campaigns":
        return acct.campaigns[idx].data as unknown as Record<string, unknown>;
      case "campaignBudgets":
        return acct.budgets[idx].data as unknown as Record<string, unknown>;
      case "adGroups":
        return acct.adGroups[idx].data as unknown as Record<string, unknown>;
      case "adGroupAds":
        return acct.ads[idx].data as unknown as Record<string, unknown>;
      case "ads":
        return acct.ads[idx].data.ad as unknown as Record<string, unknown>;
      case "assets":
        return acct.assets[idx].data as unknown as Record<string, unknown>;
      case "campaignCriteria":
        return acct.campaignCriteria[idx].data as unknown as Record<string, unknown>;
    }
  }

  /**
   * Snapshot (deep copy, API-shaped, int64 as numbers) of the resource, or
   * undefined. Supports customers, campaigns, campaignBudgets, adGroups,
   * adGroupCriteria, adGroupAds, ads, assets and campaignCriteria.
   */
  get(resourceName: string): Record<string, unknown> | undefined {
    const hit = this.locate(resourceName);
    if (!hit) return undefined;
    const { acct, collection, idx } = hit;
    if (collection === "customers") return structuredClone(acct.customer) as unknown as Record<string, unknown>;
    if (collection === "adGroupCriteria") return acct.keywordData(idx) as unknown as Record<string, unknown>;
    if ((OBJECT_COLLECTIONS as readonly string[]).includes(collection)) {
      return structuredClone(this.objectData(acct, collection as ObjectCollection, idx));
    }
    return undefined;
  }

  /**
   * Deep-merges an API-shaped patch into the resource (arrays replace, they do
   * not merge). Identity fields (resourceName, id) are never overwritten.
   * Returns false when the resource does not exist. Bumps `version`.
   */
  update(resourceName: string, patch: Record<string, unknown>): boolean {
    const hit = this.locate(resourceName);
    if (!hit) return false;
    const { acct, collection, idx } = hit;
    if (collection === "customers") {
      mergeInto(acct.customer as unknown as Record<string, unknown>, patch);
    } else if (collection === "adGroupCriteria") {
      acct.updateKeyword(idx, patch as DeepPartial<AdGroupCriterionData>);
    } else if ((OBJECT_COLLECTIONS as readonly string[]).includes(collection)) {
      mergeInto(this.objectData(acct, collection as ObjectCollection, idx), patch);
    } else {
      return false;
    }
    this.touch();
    return true;
  }

  /** Appends a change_event row (the mutate layer builds the data). */
  recordChangeEvent(customerId: string, event: Omit<ChangeEventEntity, "idx">): void {
    const acct = this.accounts.get(customerId);
    if (!acct) throw new Error(`unknown customer ${customerId}`);
    acct.changeEvents.push({ ...event, idx: acct.changeEvents.length });
    this.touch();
  }
}

const IDENTITY_KEYS = new Set(["resourceName", "id", "criterionId"]);

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(patch)) {
    if (IDENTITY_KEYS.has(k)) continue;
    if (v === undefined) {
      delete target[k];
    } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const cur = target[k];
      const sub = cur !== null && typeof cur === "object" && !Array.isArray(cur) ? (cur as Record<string, unknown>) : {};
      mergeInto(sub, v as Record<string, unknown>);
      target[k] = sub;
    } else {
      target[k] = Array.isArray(v) ? structuredClone(v) : v;
    }
  }
}
