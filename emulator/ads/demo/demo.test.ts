import { describe, it, expect } from "vitest";
import { createHash } from "node:crypto";
import { createDemoStore, DEMO_USER_EMAIL, generationReports } from "./generate";
import { createAdsDataSource } from "../gaql/datasource";
import { RSA_LIMITS } from "./plans";
import { demoSource, demoStore, MANAGER, RICH, SMALL, TODAY, type Row } from "../test/helpers";

const ds = demoSource();
const rows = (gaql: string, cid = RICH) => ds.query(cid, gaql).results as Row[];
const money = (m: unknown) => Number(m) / 1e6;

describe("demo world: accounts and access", () => {
  it("the demo user reaches only the manager directly", () => {
    expect(DEMO_USER_EMAIL).toBe("demo.advertiser@example.com");
    expect(ds.accessibleCustomerIds(DEMO_USER_EMAIL)).toEqual([MANAGER]);
    expect(ds.accessibleCustomerIds("Demo.Advertiser@Example.com")).toEqual([MANAGER]);
    expect(ds.accessibleCustomerIds("someone@example.com")).toEqual([]);
  });

  it("clients need login-customer-id = the manager", () => {
    expect(ds.canAccess(DEMO_USER_EMAIL, MANAGER, undefined)).toBe(true);
    expect(ds.canAccess(DEMO_USER_EMAIL, MANAGER, MANAGER)).toBe(true);
    expect(ds.canAccess(DEMO_USER_EMAIL, RICH, undefined)).toBe(false);
    expect(ds.canAccess(DEMO_USER_EMAIL, RICH, MANAGER)).toBe(true);
    expect(ds.canAccess(DEMO_USER_EMAIL, SMALL, MANAGER)).toBe(true);
    // The login customer itself must be directly accessible, and must manage the target.
    expect(ds.canAccess(DEMO_USER_EMAIL, RICH, RICH)).toBe(false);
    expect(ds.canAccess(DEMO_USER_EMAIL, RICH, SMALL)).toBe(false);
    expect(ds.canAccess("someone@example.com", MANAGER, undefined)).toBe(false);
    expect(ds.canAccess(DEMO_USER_EMAIL, "9999999999", MANAGER)).toBe(false);
    expect(ds.customerExists(RICH)).toBe(true);
    expect(ds.customerExists("9999999999")).toBe(false);
  });

  it("customers carry manager flag, currency, time zone and names", () => {
    const c = (cid: string) =>
      rows("SELECT customer.id, customer.descriptive_name, customer.manager, customer.currency_code, customer.time_zone FROM customer", cid)[0].customer;
    expect(c(MANAGER)).toMatchObject({ descriptiveName: "Northwind Digital (MCC)", manager: true, currencyCode: "USD", timeZone: "America/New_York" });
    expect(c(RICH)).toMatchObject({ descriptiveName: "Northwind Outdoor Gear", manager: false, currencyCode: "USD", timeZone: "America/New_York" });
    expect(c(SMALL)).toMatchObject({ descriptiveName: "Northwind Bakery Berlin", manager: false, currencyCode: "EUR", timeZone: "Europe/Berlin" });
    expect(rows("SELECT campaign.id FROM campaign", MANAGER)).toEqual([]);
  });
});

describe("demo world: the rich account's size and shape", () => {
  it("has ≥12 campaigns across SEARCH / DISPLAY / PERFORMANCE_MAX, 2–3 paused", () => {
    const c = rows("SELECT campaign.name, campaign.status, campaign.advertising_channel_type, campaign.bidding_strategy_type FROM campaign");
    expect(c.length).toBeGreaterThanOrEqual(12);
    const channels = new Set(c.map((x) => x.campaign.advertisingChannelType));
    expect(channels).toEqual(new Set(["SEARCH", "DISPLAY", "PERFORMANCE_MAX"]));
    const paused = c.filter((x) => x.campaign.status === "PAUSED").length;
    expect(paused).toBeGreaterThanOrEqual(2);
    expect(paused).toBeLessThanOrEqual(3);
    for (const b of ["MANUAL_CPC", "MAXIMIZE_CONVERSIONS", "MAXIMIZE_CONVERSION_VALUE", "TARGET_CPA", "TARGET_ROAS"]) {
      expect(c.map((x) => x.campaign.biddingStrategyType)).toContain(b);
    }
    expect(c.filter((x) => x.campaign.name.startsWith("Brand"))).toHaveLength(1);
  });

  it("has ≥60 ad groups, ≥1,500 keywords in all match types, ≥2,000 search terms", () => {
    expect(rows("SELECT ad_group.id FROM ad_group").length).toBeGreaterThanOrEqual(60);
    const kw = rows(
      "SELECT ad_group_criterion.keyword.match_type, ad_group_criterion.quality_info.quality_score FROM ad_group_criterion WHERE ad_group_criterion.negative = FALSE",
    );
    expect(kw.length).toBeGreaterThanOrEqual(1500);
    const byMatch = new Map<string, number>();
    for (const k of kw) byMatch.set(k.adGroupCriterion.keyword.matchType, (byMatch.get(k.adGroupCriterion.keyword.matchType) ?? 0) + 1);
    for (const m of ["EXACT", "PHRASE", "BROAD"]) expect(byMatch.get(m)).toBeGreaterThan(300);
    expect(kw.filter((k) => k.adGroupCriterion.qualityInfo?.qualityScore).length).toBeGreaterThan(1200);
    expect(rows("SELECT search_term_view.search_term FROM search_term_view").length).toBeGreaterThanOrEqual(2000);
    expect(rows("SELECT ad_group_criterion.criterion_id FROM ad_group_criterion WHERE ad_group_criterion.negative = TRUE").length).toBeGreaterThan(0);
  });

  it("has exactly 90 days of daily metrics ending yesterday, with weekly seasonality", () => {
    const d = rows(
      "SELECT customer.id, segments.date, segments.day_of_week, metrics.impressions FROM customer WHERE segments.date BETWEEN '2026-01-01' AND '2026-12-31'",
    );
    expect(d).toHaveLength(90);
    expect(d[0].segments.date).toBe("2026-08-24");
    expect(d[89].segments.date).toBe("2026-11-21");
    const avg = (dows: string[]) => {
      const xs = d.filter((x) => dows.includes(x.segments.dayOfWeek)).map((x) => Number(x.metrics.impressions));
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(avg(["SATURDAY", "SUNDAY"])).toBeGreaterThan(avg(["MONDAY", "TUESDAY", "WEDNESDAY"]) * 1.08);
    expect(generationReports.get(demoStore())).toMatchObject({ days: 90, firstDate: "2026-08-24", lastDate: "2026-11-21" });
  });

  it("has realistic CTR/CPC/conversion rates: brand ≫ non-brand, exact > broad", () => {
    const L = "segments.date DURING LAST_30_DAYS";
    const kw = rows(
      `SELECT campaign.name, ad_group_criterion.keyword.match_type, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM keyword_view WHERE ${L}`,
    );
    const agg = (f: (r: Row) => boolean) => {
      const s = kw.filter(f).reduce(
        (a, r) => ({
          i: a.i + Number(r.metrics.impressions),
          c: a.c + Number(r.metrics.clicks),
          cost: a.cost + money(r.metrics.costMicros),
          v: a.v + r.metrics.conversions,
        }),
        { i: 0, c: 0, cost: 0, v: 0 },
      );
      return { ctr: s.c / s.i, cpc: s.cost / s.c, cvr: s.v / s.c };
    };
    const brand = agg((r) => r.campaign.name.startsWith("Brand"));
    const exact = agg((r) => !r.campaign.name.startsWith("Brand") && r.adGroupCriterion.keyword.matchType === "EXACT");
    const broad = agg((r) => !r.campaign.name.startsWith("Brand") && r.adGroupCriterion.keyword.matchType === "BROAD");
    expect(brand.ctr).toBeGreaterThan(0.15);
    expect(brand.cpc).toBeLessThan(1);
    expect(brand.cvr).toBeGreaterThan(0.07);
    expect(exact.ctr).toBeGreaterThan(broad.ctr);
    expect(exact.cvr).toBeGreaterThan(broad.cvr);
    for (const x of [exact, broad]) {
      expect(x.ctr).toBeGreaterThan(0.015);
      expect(x.ctr).toBeLessThan(0.12);
      expect(x.cpc).toBeGreaterThan(0.5);
      expect(x.cpc).toBeLessThan(4);
      expect(x.cvr).toBeGreaterThan(0.005);
      expect(x.cvr).toBeLessThan(0.08);
    }
  });

  it("RSAs respect Google's limits (3–15 × ≤30, 2–4 × ≤90, paths ≤15, ≤3 enabled per ad group)", () => {
    for (const cid of [RICH, SMALL]) {
      const ads = rows(
        "SELECT ad_group.id, ad_group_ad.status, ad_group_ad.ad.type, ad_group_ad.ad.final_urls, ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.responsive_search_ad.descriptions, ad_group_ad.ad.responsive_search_ad.path1, ad_group_ad.ad.responsive_search_ad.path2, ad_group_ad.ad_strength FROM ad_group_ad",
        cid,
      );
      const rsas = ads.filter((a) => a.adGroupAd.ad.type === "RESPONSIVE_SEARCH_AD");
      expect(rsas.length).toBeGreaterThan(0);
      const perGroup = new Map<string, number>();
      for (const a of rsas) {
        const rsa = a.adGroupAd.ad.responsiveSearchAd;
        expect(rsa.headlines.length).toBeGreaterThanOrEqual(RSA_LIMITS.minHeadlines);
        expect(rsa.headlines.length).toBeLessThanOrEqual(RSA_LIMITS.maxHeadlines);
        expect(rsa.descriptions.length).toBeGreaterThanOrEqual(RSA_LIMITS.minDescriptions);
        expect(rsa.descriptions.length).toBeLessThanOrEqual(RSA_LIMITS.maxDescriptions);
        for (const h of rsa.headlines) expect(h.text.length).toBeLessThanOrEqual(30);
        for (const d of rsa.descriptions) expect(d.text.length).toBeLessThanOrEqual(90);
        expect(new Set(rsa.headlines.map((h: Row) => h.text)).size).toBe(rsa.headlines.length);
        expect((rsa.path1 ?? "").length).toBeLessThanOrEqual(15);
        expect((rsa.path2 ?? "").length).toBeLessThanOrEqual(15);
        if (rsa.path2) expect(rsa.path1).toBeTruthy();
        expect(a.adGroupAd.ad.finalUrls[0]).toMatch(/^https:\/\//);
        if (a.adGroupAd.status === "ENABLED") perGroup.set(a.adGroup.id, (perGroup.get(a.adGroup.id) ?? 0) + 1);
      }
      for (const n of perGroup.values()) expect(n).toBeLessThanOrEqual(3);
    }
  });

  it("the bakery is a small EUR account with 2–3 campaigns", () => {
    const c = rows("SELECT campaign.name, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS", SMALL);
    expect(c.length).toBeGreaterThanOrEqual(2);
    expect(c.length).toBeLessThanOrEqual(3);
    expect(c.some((x) => /Torten/.test(x.campaign.name))).toBe(true);
    expect(c.every((x) => Number(x.metrics.costMicros) > 0)).toBe(true);
  });
});

describe("demo world: planted optimizer findings (see PLANTED.md)", () => {
  const L30 = "segments.date DURING LAST_30_DAYS";

  it("P1 keywords that spend without converting", () => {
    const r = rows(
      "SELECT campaign.name, ad_group.name, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, metrics.clicks, metrics.cost_micros, metrics.conversions FROM keyword_view WHERE metrics.conversions = 0 AND metrics.cost_micros > 250000000",
    );
    const found = new Set(r.map((x) => `${x.adGroup.name}|${x.adGroupCriterion.keyword.text}|${x.adGroupCriterion.keyword.matchType}`));
    for (const k of [
      "Family Tents|cheap camping tents|BROAD",
      "Trail Shoes|running shoes|BROAD",
      "Travel Packs|laptop backpack|PHRASE",
      "Insulated Jackets|winter coat|BROAD",
      "Coolers|yeti cooler|BROAD",
    ]) {
      expect(found, k).toContain(k);
    }
    for (const x of r) expect(Number(x.metrics.clicks)).toBeGreaterThan(100);
  });

  it("P2 search terms that spend without converting", () => {
    const r = rows(
      "SELECT search_term_view.search_term, search_term_view.status, metrics.clicks, metrics.conversions FROM search_term_view WHERE metrics.conversions = 0 AND metrics.clicks >= 40",
    );
    const terms = new Map(r.map((x) => [x.searchTermView.searchTerm, x.searchTermView.status]));
    for (const t of [
      "free camping sites near me",
      "how to set up a tent",
      "boot repair near me",
      "cowboy boots",
      "used climbing rope",
      "dog sleeping bag",
      "camp stove recall",
    ]) {
      expect(terms.get(t), t).toBe("NONE");
    }
    // The n-gram "free" wastes money in several campaigns.
    const free = rows(
      "SELECT campaign.name, search_term_view.search_term, metrics.conversions, metrics.clicks FROM search_term_view WHERE search_term_view.search_term LIKE '%free%'",
    );
    expect(new Set(free.filter((x) => x.metrics.conversions === 0 && Number(x.metrics.clicks) > 20).map((x) => x.campaign.name)).size).toBeGreaterThanOrEqual(
      3,
    );
  });

  it("P3 budget-limited campaign with strong ROAS", () => {
    const [c] = rows(
      `SELECT campaign.name, campaign.maximize_conversion_value.target_roas, campaign_budget.amount_micros, metrics.cost_micros, metrics.conversions_value, metrics.search_budget_lost_impression_share, metrics.search_impression_share FROM campaign WHERE campaign.name = 'Search | Climbing Gear' AND ${L30}`,
    );
    const roas = c.metrics.conversionsValue / money(c.metrics.costMicros);
    expect(c.metrics.searchBudgetLostImpressionShare).toBeGreaterThan(0.35);
    expect(roas).toBeGreaterThan(2 * c.campaign.maximizeConversionValue.targetRoas);
    expect(money(c.metrics.costMicros) / 30).toBeGreaterThan(0.9 * money(c.campaignBudget.amountMicros));
    const others = rows(
      `SELECT campaign.name, metrics.search_budget_lost_impression_share FROM campaign WHERE campaign.advertising_channel_type = SEARCH AND campaign.status = ENABLED AND campaign.name != 'Search | Climbing Gear' AND ${L30}`,
    );
    for (const o of others) expect(o.metrics.searchBudgetLostImpressionShare).toBeLessThan(0.1);
  });

  it("P4 duplicate keywords across ad groups", () => {
    const kw = rows(
      "SELECT campaign.name, ad_group.name, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, metrics.impressions FROM keyword_view WHERE ad_group_criterion.negative = FALSE AND ad_group_criterion.status = ENABLED",
    );
    const groups = new Map<string, Set<string>>();
    for (const k of kw) {
      const key = `${k.campaign.name}|${k.adGroupCriterion.keyword.text}|${k.adGroupCriterion.keyword.matchType}`;
      if (!groups.has(key)) groups.set(key, new Set());
      groups.get(key)?.add(k.adGroup.name);
    }
    expect(groups.get("Search | Hiking Boots|mens hiking boots|EXACT")).toEqual(new Set(["Men's Hiking Boots", "Waterproof Boots"]));
    expect(groups.get("Search | Tents|lightweight backpacking tent|PHRASE")).toEqual(new Set(["Backpacking Tents", "Ultralight Tents"]));
    expect(groups.get("Search | Backpacks|hiking backpack|BROAD")).toEqual(new Set(["Hiking Daypacks", "Backpacking Packs"]));
  });

  it("P5 weak ads: POOR strength, few headlines, LOW-labelled assets", () => {
    const ads = rows(
      "SELECT ad_group.name, ad_group_ad.ad.id, ad_group_ad.ad_strength, ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.responsive_search_ad.descriptions FROM ad_group_ad WHERE ad_group_ad.ad_strength = POOR",
    );
    expect(new Set(ads.map((a) => a.adGroup.name))).toEqual(new Set(["Coolers", "Kids Sleeping Bags", "Softshells"]));
    for (const a of ads) {
      const rsa = a.adGroupAd.ad.responsiveSearchAd;
      expect(rsa.headlines).toHaveLength(3);
      expect(rsa.descriptions).toHaveLength(2);
      const low = [...rsa.headlines, ...rsa.descriptions].filter((x: Row) => x.assetPerformanceLabel === "LOW").length;
      expect(low).toBeGreaterThanOrEqual(2);
      const views = rows(
        `SELECT ad_group_ad_asset_view.performance_label, ad_group_ad_asset_view.field_type FROM ad_group_ad_asset_view WHERE ad_group_ad.ad.id = ${a.adGroupAd.ad.id}`,
      );
      expect(views).toHaveLength(5);
      expect(views.filter((v) => v.adGroupAdAssetView.performanceLabel === "LOW").length).toBe(low);
    }
  });

  it("P6 low quality-score keywords with real spend", () => {
    const r = rows(
      `SELECT ad_group.name, ad_group_criterion.keyword.text, ad_group_criterion.quality_info.quality_score, ad_group_criterion.quality_info.search_predicted_ctr, metrics.cost_micros FROM keyword_view WHERE ad_group_criterion.quality_info.quality_score <= 3 AND metrics.cost_micros > 100000000`,
    );
    expect(r.length).toBeGreaterThanOrEqual(10);
    const named = new Map(r.map((x) => [x.adGroupCriterion.keyword.text, x.adGroupCriterion.qualityInfo]));
    expect(named.get("boots")).toMatchObject({ qualityScore: 2, searchPredictedCtr: "BELOW_AVERAGE" });
    expect(named.get("sleeping bag")).toMatchObject({ qualityScore: 3 });
    expect(named.get("tent poles")).toMatchObject({ qualityScore: 3 });
  });

  it("P7 ad groups whose bids are far off the target CPA", () => {
    const boots = rows(
      "SELECT ad_group.name, ad_group.cpc_bid_micros, metrics.cost_micros, metrics.conversions FROM ad_group WHERE campaign.name = 'Search | Hiking Boots'",
    );
    const cpa = (r: Row) => money(r.metrics.costMicros) / r.metrics.conversions;
    const trail = boots.find((b) => b.adGroup.name === "Trail Shoes") as Row;
    const rest = boots.filter((b) => b !== trail);
    expect(money(trail.adGroup.cpcBidMicros)).toBeGreaterThan(3 * Math.max(...rest.map((b) => money(b.adGroup.cpcBidMicros))));
    const campaignCpa = money(rest.reduce((s, b) => s + Number(b.metrics.costMicros), 0)) / rest.reduce((s, b) => s + b.metrics.conversions, 0);
    expect(cpa(trail)).toBeGreaterThan(2 * campaignCpa);
    const [stoves] = rows(
      "SELECT ad_group.name, ad_group.target_cpa_micros, campaign.target_cpa.target_cpa_micros FROM ad_group WHERE ad_group.name = 'Camp Stoves'",
    );
    expect(Number(stoves.adGroup.targetCpaMicros)).toBeGreaterThan(3 * Number(stoves.campaign.targetCpa.targetCpaMicros));
  });

  it("P8 paused keyword that converted cheaply before the pause", () => {
    const [k] = rows(
      "SELECT ad_group_criterion.keyword.text, ad_group_criterion.status, metrics.conversions, metrics.cost_micros FROM keyword_view WHERE ad_group_criterion.keyword.text = '65l backpack' AND ad_group_criterion.keyword.match_type = EXACT",
    );
    expect(k.adGroupCriterion.status).toBe("PAUSED");
    expect(k.metrics.conversions).toBeGreaterThanOrEqual(8);
    expect(money(k.metrics.costMicros) / k.metrics.conversions).toBeLessThan(38);
    const recent = rows(
      `SELECT ad_group_criterion.keyword.text, metrics.clicks FROM keyword_view WHERE ad_group_criterion.keyword.text = '65l backpack' AND ad_group_criterion.keyword.match_type = EXACT AND segments.date DURING LAST_14_DAYS`,
    );
    expect(recent.every((x) => x.metrics.clicks === "0")).toBe(true);
  });

  it("P9 a campaign negative blocks a positive keyword", () => {
    const neg = rows(
      "SELECT campaign.name, campaign_criterion.keyword.text, campaign_criterion.keyword.match_type FROM campaign_criterion WHERE campaign_criterion.negative = TRUE AND campaign_criterion.keyword.text = 'down jacket'",
    );
    expect(neg.map((n) => n.campaign.name)).toEqual(["Search | Rain Jackets"]);
    const [k] = rows(
      "SELECT ad_group.name, ad_group_criterion.status, metrics.impressions FROM keyword_view WHERE ad_group_criterion.keyword.text = 'down jacket' AND ad_group_criterion.keyword.match_type = EXACT",
    );
    expect(k).toMatchObject({ adGroup: { name: "Insulated Jackets" }, adGroupCriterion: { status: "ENABLED" }, metrics: { impressions: "0" } });
  });

  it("P10 a converting search term that is not a keyword yet; P12 an excluded term", () => {
    const [t] = rows(
      "SELECT search_term_view.search_term, search_term_view.status, metrics.conversions, metrics.cost_micros FROM search_term_view WHERE search_term_view.search_term = '4 person instant tent with screen room'",
    );
    expect(t.searchTermView.status).toBe("NONE");
    expect(t.metrics.conversions).toBeGreaterThanOrEqual(3);
    const [x] = rows(
      "SELECT search_term_view.search_term, search_term_view.status, metrics.clicks FROM search_term_view WHERE search_term_view.search_term = 'tent rental near me'",
    );
    expect(x.searchTermView.status).toBe("EXCLUDED");
    expect(Number(x.metrics.clicks)).toBeGreaterThan(0);
    expect(
      rows(`SELECT search_term_view.search_term, metrics.clicks FROM search_term_view WHERE search_term_view.search_term = 'tent rental near me' AND ${L30}`),
    ).toEqual([]);
  });

  it("P11 rarely-served keywords with no traffic", () => {
    const r = rows(
      "SELECT ad_group_criterion.criterion_id, ad_group_criterion.system_serving_status, metrics.impressions FROM keyword_view WHERE ad_group_criterion.system_serving_status = RARELY_SERVED",
    );
    expect(r.length).toBeGreaterThan(20);
    expect(r.filter((x) => Number(x.metrics.impressions) > 3)).toEqual([]);
  });
});

describe("determinism", () => {
  const digest = (store: ReturnType<typeof createDemoStore>) => {
    const src = createAdsDataSource(store);
    const h = createHash("sha256");
    for (const [cid, q] of [
      [
        RICH,
        "SELECT campaign.id, campaign.name, campaign_budget.amount_micros, segments.date, metrics.clicks, metrics.cost_micros, metrics.conversions_value, metrics.search_impression_share FROM campaign WHERE segments.date DURING LAST_30_DAYS",
      ],
      [
        RICH,
        "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group_criterion.quality_info.quality_score, metrics.clicks, metrics.cost_micros FROM keyword_view",
      ],
      [RICH, "SELECT search_term_view.search_term, metrics.clicks, metrics.conversions FROM search_term_view"],
      [RICH, "SELECT ad_group_ad.ad.id, ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad_strength FROM ad_group_ad"],
      [SMALL, "SELECT campaign.name, segments.date, segments.device, metrics.impressions FROM campaign WHERE segments.date DURING LAST_14_DAYS"],
    ] as const) {
      let token: string | undefined;
      do {
        const p = src.query(cid, q, { pageToken: token });
        h.update(JSON.stringify(p.results));
        token = p.nextPageToken;
      } while (token);
    }
    return h.digest("hex");
  };

  it("same seed + same today → identical data; another seed → different data", () => {
    const a = digest(demoStore());
    const b = digest(createDemoStore({ today: TODAY }));
    expect(b).toBe(a);
    const c = digest(createDemoStore({ today: TODAY, seed: 7 }));
    expect(c).not.toBe(a);
  });

  it("today moves the window: data always ends yesterday", () => {
    const s = createDemoStore({ today: "2027-03-01", scale: { days: 30 } });
    const d = createAdsDataSource(s).query(
      RICH,
      "SELECT customer.id, segments.date, metrics.clicks FROM customer WHERE segments.date BETWEEN '2027-01-01' AND '2027-03-31'",
    ).results as Row[];
    expect(d).toHaveLength(30);
    expect(d[29].segments.date).toBe("2027-02-28");
  });
});

describe("store is mutable by resource name", () => {
  it("get/update keywords, campaigns and budgets; queries see the change", () => {
    const store = createDemoStore({ today: TODAY, scale: { days: 7 } });
    const src = createAdsDataSource(store);
    const [k] = src.query(
      RICH,
      "SELECT ad_group_criterion.criterion_id, ad_group_criterion.cpc_bid_micros FROM ad_group_criterion WHERE ad_group_criterion.negative = FALSE LIMIT 1",
    ).results as Row[];
    const rn = k.adGroupCriterion.resourceName as string;
    expect(store.get(rn)).toMatchObject({ resourceName: rn, type: "KEYWORD" });
    const v = store.version;
    expect(store.update(rn, { status: "PAUSED", cpcBidMicros: 2_340_000 })).toBe(true);
    expect(store.version).toBe(v + 1);
    const [after] = src.query(
      RICH,
      `SELECT ad_group_criterion.status, ad_group_criterion.cpc_bid_micros FROM ad_group_criterion WHERE ad_group_criterion.resource_name = '${rn}'`,
    ).results as Row[];
    expect(after.adGroupCriterion).toMatchObject({ status: "PAUSED", cpcBidMicros: "2340000" });

    const [b] = src.query(RICH, "SELECT campaign_budget.resource_name FROM campaign_budget LIMIT 1").results as Row[];
    store.update(b.campaignBudget.resourceName, { amountMicros: 123_000_000 });
    expect(store.get(b.campaignBudget.resourceName)).toMatchObject({ amountMicros: 123_000_000 });
    expect(store.get("customers/1112223334/campaigns/1")).toBeUndefined();
    expect(store.update("customers/1112223334/campaigns/1", { status: "PAUSED" })).toBe(false);
    // store.update() is the raw write path: only the mutate layer logs change events.
    expect(store.account(RICH)?.changeEvents.every((e) => e.data.clientType !== "GOOGLE_ADS_API")).toBe(true);
  });
});
