// createDemoStore: the deterministic demo world behind the emulator.
//
// One Google user (DEMO_USER_EMAIL) with direct access to one manager
// account, which manages a rich outdoor-gear account and a small bakery.

import { AdsStore } from "../store/store";
import type { CustomerData } from "../store/types";
import { Rng } from "../util/prng";
import { dayFromParts, formatDay } from "../util/dates";
import { AccountGenerator, type GeneratedAccountStats } from "./engine";
import { seedDemoChangeEvents } from "../mutate/change-events";
import type { AccountPlan } from "./plan";
import { bakeryPlan, MANAGER_CUSTOMER_ID, RICH_CUSTOMER_ID, richOutdoorPlan, scaledOutdoorPlan, SMALL_CUSTOMER_ID } from "./plans";

export const DEMO_USER_EMAIL = "demo.advertiser@example.com";
export const DEMO_MANAGER_CUSTOMER_ID = MANAGER_CUSTOMER_ID;
export const DEMO_RICH_CUSTOMER_ID = RICH_CUSTOMER_ID;
export const DEMO_SMALL_CUSTOMER_ID = SMALL_CUSTOMER_ID;
export const DEFAULT_DEMO_SEED = 20_260_422;

export interface DemoScale {
  /** Campaigns in the rich account (switches it to the procedural benchmark layout). */
  campaigns?: number;
  adGroupsPerCampaign?: number;
  keywordsPerAdGroup?: number;
  /** Exact number of positive keywords in the rich account. */
  totalKeywords?: number;
  /** Days of history ending yesterday (default 90). */
  days?: number;
  /** Share of keywords with any traffic at benchmark scale (default 0.12). */
  activeKeywordShare?: number;
  /** Chance an active keyword gets a visible search term at benchmark scale (default 0.5). */
  searchTermProbability?: number;
}

export interface DemoStoreOptions {
  seed?: number;
  /** "YYYY-MM-DD" or a Date (its UTC date is used). Data ends the day before. Default: today, UTC. */
  today?: string | Date;
  scale?: DemoScale;
  /**
   * Clock for the store when `today` is not pinned: DURING literals then follow
   * each account's own time zone, like Google. Also picks the default "today".
   */
  now?: () => Date;
  /**
   * Adds a third client account under the manager, DEMO_LARGE_CUSTOMER_ID, with
   * one search campaign of `adGroups` × `keywordsPerAdGroup` keywords: a
   * campaign whose tabs run to thousands of rows, for paging tests and
   * screenshots. Off by default (EMULATOR_LARGE_ACCOUNT=true when mounted).
   */
  largeAccount?: { adGroups: number; keywordsPerAdGroup: number };
}

export const DEMO_LARGE_CUSTOMER_ID = "9990001112";
export const DEMO_LARGE_ACCOUNT_NAME = "Northwind Wholesale (large test account)";

export interface DemoGenerationReport {
  ms: number;
  days: number;
  firstDate: string;
  lastDate: string;
  accounts: GeneratedAccountStats[];
}

/** Generation statistics of stores built by createDemoStore (for benchmarks and logs). */
export const generationReports = new WeakMap<AdsStore, DemoGenerationReport>();

function todayString(today: string | Date | undefined): string {
  // Generation's "today" is a UTC calendar date; queries then resolve DURING per account time zone.
  if (typeof today === "string") {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`createDemoStore: today must be YYYY-MM-DD, got ${today}`);
    return today;
  }
  const d = today ?? new Date();
  return d.toISOString().slice(0, 10);
}

export function createDemoStore(opts: DemoStoreOptions = {}): AdsStore {
  const t0 = performance.now();
  const seed = opts.seed ?? DEFAULT_DEMO_SEED;
  const today = todayString(opts.today ?? opts.now?.());
  const [y, m, d] = today.split("-").map(Number);
  const todayDay = dayFromParts(y, m, d);
  const scale = opts.scale ?? {};
  const days = Math.max(1, Math.min(1000, Math.floor(scale.days ?? 90)));
  const startDay = todayDay - days;

  // A fixed "today" only when the caller pinned one; otherwise the store follows
  // the clock in each account's time zone like Google does.
  const store = new AdsStore(opts.today !== undefined ? { today } : { now: opts.now });

  const customer = (id: string, name: string, currencyCode: string, timeZone: string, manager: boolean): CustomerData => ({
    resourceName: `customers/${id}`,
    id: Number(id),
    descriptiveName: name,
    currencyCode,
    timeZone,
    manager,
    testAccount: false,
    status: "ENABLED",
    autoTaggingEnabled: !manager,
    hasPartnersBadge: false,
    ...(manager ? {} : { optimizationScore: 0.74 }),
  });

  const manager = store.addAccount(customer(MANAGER_CUSTOMER_ID, "Northwind Digital (MCC)", "USD", "America/New_York", true));
  manager.dataStartDay = startDay;
  manager.dataDays = days;
  store.linkClient(MANAGER_CUSTOMER_ID, RICH_CUSTOMER_ID);
  store.linkClient(MANAGER_CUSTOMER_ID, SMALL_CUSTOMER_ID);
  store.grantAccess(DEMO_USER_EMAIL, MANAGER_CUSTOMER_ID);

  const benchmark = scale.campaigns !== undefined || scale.totalKeywords !== undefined || scale.keywordsPerAdGroup !== undefined;
  // Separate streams per account: changing the rich account's scale never reshuffles the bakery.
  const richRng = new Rng(seed ^ 0x5eed_0001);
  const smallRng = new Rng(seed ^ 0x5eed_0002);

  let richPlan: AccountPlan;
  let expected = 2000;
  if (benchmark) {
    const campaigns = Math.max(1, Math.floor(scale.campaigns ?? 12));
    const adGroupsPerCampaign = Math.max(1, Math.floor(scale.adGroupsPerCampaign ?? 5));
    const kpa = scale.keywordsPerAdGroup ?? (scale.totalKeywords ? Math.ceil(scale.totalKeywords / (campaigns * adGroupsPerCampaign)) : 25);
    const totalKeywords = Math.floor(scale.totalKeywords ?? kpa * campaigns * adGroupsPerCampaign);
    expected = totalKeywords;
    richPlan = scaledOutdoorPlan(richRng, days, {
      campaigns,
      adGroupsPerCampaign,
      keywordsPerAdGroup: kpa,
      totalKeywords,
      activeKeywordShare: scale.activeKeywordShare ?? 0.12,
      searchTermProbability: scale.searchTermProbability ?? 0.5,
    });
  } else {
    richPlan = richOutdoorPlan(richRng, days);
  }
  const plans: Array<[AccountPlan, Rng, number]> = [
    [richPlan, richRng, expected],
    [bakeryPlan(smallRng, days), smallRng, 200],
  ];
  if (opts.largeAccount) {
    const { adGroups, keywordsPerAdGroup } = opts.largeAccount;
    const largeRng = new Rng(seed ^ 0x5eed_0003);
    const total = adGroups * keywordsPerAdGroup;
    const plan = scaledOutdoorPlan(largeRng, days, {
      campaigns: 1,
      adGroupsPerCampaign: adGroups,
      keywordsPerAdGroup,
      totalKeywords: total,
      activeKeywordShare: 0.6,
      searchTermProbability: 0.6,
    });
    store.linkClient(MANAGER_CUSTOMER_ID, DEMO_LARGE_CUSTOMER_ID);
    plans.push([{ ...plan, customerId: DEMO_LARGE_CUSTOMER_ID, name: DEMO_LARGE_ACCOUNT_NAME }, largeRng, total]);
  }
  const stats: GeneratedAccountStats[] = [];
  for (const [plan, rng, exp] of plans) {
    const acct = store.addAccount(customer(plan.customerId, plan.name, plan.currencyCode, plan.timeZone, false));
    acct.dataStartDay = startDay;
    acct.dataDays = days;
    stats.push(new AccountGenerator(acct, plan, rng, days, exp).run());
    // Own stream: outside changes never perturb the generated entities.
    seedDemoChangeEvents(store, acct, seed ^ Number(plan.customerId.slice(-6)), todayDay);
  }

  generationReports.set(store, {
    ms: performance.now() - t0,
    days,
    firstDate: formatDay(startDay),
    lastDate: formatDay(todayDay - 1),
    accounts: stats,
  });
  return store;
}
