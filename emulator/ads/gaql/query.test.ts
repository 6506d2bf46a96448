import { describe, it, expect } from "vitest";
import { demoSource, demoStore, failure, MANAGER, RICH, SMALL, type Row } from "../test/helpers";

const ds = demoSource();
const rows = (gaql: string, cid = RICH) => ds.query(cid, gaql).results as Row[];
const sum = (rs: Row[], f: (r: Row) => unknown) => rs.reduce((s, r) => s + Number(f(r) ?? 0), 0);

describe("aggregation vs segmentation", () => {
  const L30 = "segments.date DURING LAST_30_DAYS";

  it("aggregates metrics over the range without segments, one row per campaign", () => {
    const agg = rows(`SELECT campaign.id, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM campaign WHERE ${L30}`);
    expect(agg.length).toBe(demoStore().account(RICH)?.campaigns.length);
    expect(new Set(agg.map((r) => r.campaign.id)).size).toBe(agg.length);
  });

  it("segments.date gives one row per campaign-day, summing to the aggregate", () => {
    const agg = rows(`SELECT campaign.id, metrics.clicks, metrics.cost_micros, metrics.conversions FROM campaign WHERE ${L30}`);
    const daily = rows(`SELECT campaign.id, segments.date, metrics.clicks, metrics.cost_micros, metrics.conversions FROM campaign WHERE ${L30}`);
    expect(daily.length).toBeGreaterThan(agg.length * 20);
    for (const a of agg) {
      const mine = daily.filter((d) => d.campaign.id === a.campaign.id);
      expect(new Set(mine.map((d) => d.segments.date)).size).toBe(mine.length);
      expect(sum(mine, (d) => d.metrics.clicks)).toBe(Number(a.metrics.clicks));
      expect(sum(mine, (d) => d.metrics.costMicros)).toBe(Number(a.metrics.costMicros));
      expect(sum(mine, (d) => d.metrics.conversions)).toBeCloseTo(a.metrics.conversions, 6);
    }
  });

  it("segments.device splits into MOBILE/DESKTOP/TABLET rows that add up exactly", () => {
    const agg = rows(`SELECT ad_group.id, metrics.impressions, metrics.clicks, metrics.cost_micros FROM ad_group WHERE ${L30} AND metrics.impressions > 0`);
    const dev = rows(`SELECT ad_group.id, segments.device, metrics.impressions, metrics.clicks, metrics.cost_micros FROM ad_group WHERE ${L30}`);
    expect(new Set(dev.map((r) => r.segments.device))).toEqual(new Set(["MOBILE", "DESKTOP", "TABLET"]));
    for (const a of agg.slice(0, 20)) {
      const mine = dev.filter((d) => d.adGroup.id === a.adGroup.id);
      expect(sum(mine, (d) => d.metrics.impressions)).toBe(Number(a.metrics.impressions));
      expect(sum(mine, (d) => d.metrics.clicks)).toBe(Number(a.metrics.clicks));
      for (const d of mine) expect(Number(d.metrics.clicks)).toBeLessThanOrEqual(Number(d.metrics.impressions));
    }
    const mobile = sum(
      dev.filter((d) => d.segments.device === "MOBILE"),
      (d) => d.metrics.impressions,
    );
    expect(mobile / sum(dev, (d) => d.metrics.impressions)).toBeGreaterThan(0.45);
  });

  it("levels agree: keywords → ad groups → campaigns → customer", () => {
    const kw = rows(`SELECT campaign.id, metrics.clicks, metrics.cost_micros FROM keyword_view WHERE ${L30}`);
    const ag = rows(`SELECT campaign.id, metrics.clicks, metrics.cost_micros FROM ad_group WHERE ${L30}`);
    const ads = rows(`SELECT campaign.id, metrics.clicks, metrics.cost_micros FROM ad_group_ad WHERE ${L30}`);
    const camp = rows(`SELECT campaign.id, campaign.advertising_channel_type, metrics.clicks, metrics.cost_micros FROM campaign WHERE ${L30}`);
    const cust = rows(`SELECT customer.id, metrics.clicks, metrics.cost_micros FROM customer WHERE ${L30}`);
    const searchIds = new Set(camp.filter((c) => c.campaign.advertisingChannelType === "SEARCH").map((c) => c.campaign.id));
    const searchCost = sum(
      camp.filter((c) => searchIds.has(c.campaign.id)),
      (c) => c.metrics.costMicros,
    );
    expect(sum(kw, (r) => r.metrics.costMicros)).toBe(searchCost);
    expect(
      sum(
        ag.filter((r) => searchIds.has(r.campaign.id)),
        (r) => r.metrics.costMicros,
      ),
    ).toBe(searchCost);
    // Ads split their ad group's rows exactly (display ad groups included).
    expect(sum(ads, (r) => r.metrics.clicks)).toBe(sum(ag, (r) => r.metrics.clicks));
    expect(sum(camp, (r) => r.metrics.costMicros)).toBe(Number(cust[0].metrics.costMicros));
  });

  it("without a date filter metrics cover all time (the 90 days of history)", () => {
    const all = rows("SELECT customer.id, metrics.clicks FROM customer");
    const l30 = rows(`SELECT customer.id, metrics.clicks FROM customer WHERE ${L30}`);
    const window = rows("SELECT customer.id, metrics.clicks FROM customer WHERE segments.date BETWEEN '2026-08-24' AND '2026-11-21'");
    expect(Number(all[0].metrics.clicks)).toBe(Number(window[0].metrics.clicks));
    expect(Number(all[0].metrics.clicks)).toBeGreaterThan(Number(l30[0].metrics.clicks) * 2);
  });

  it("filtering on segments.date without selecting it does not segment", () => {
    const r = rows(`SELECT campaign.id, metrics.clicks FROM campaign WHERE ${L30}`);
    expect(r.every((x) => x.segments === undefined)).toBe(true);
  });

  it("returns zero-metric entities unsegmented, drops all-zero rows when segmented", () => {
    const paused = rows(`SELECT campaign.name, metrics.impressions, metrics.clicks FROM campaign WHERE campaign.name = 'Search | Ski & Snow' AND ${L30}`);
    expect(paused).toHaveLength(1);
    expect(paused[0].metrics).toEqual({ impressions: "0", clicks: "0" });
    const seg = rows(`SELECT campaign.name, segments.date, metrics.impressions FROM campaign WHERE campaign.name = 'Search | Ski & Snow' AND ${L30}`);
    expect(seg).toEqual([]);
  });

  it("derives ctr, average_cpc and cost_per_conversion from the sums", () => {
    const [r] = rows(
      `SELECT customer.id, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.ctr, metrics.average_cpc, metrics.cost_per_conversion, metrics.conversions_from_interactions_rate FROM customer WHERE ${L30}`,
    );
    const m = r.metrics;
    expect(m.ctr).toBeCloseTo(Number(m.clicks) / Number(m.impressions), 12);
    expect(m.averageCpc).toBeCloseTo(Number(m.costMicros) / Number(m.clicks), 6);
    expect(m.costPerConversion).toBeCloseTo(Number(m.costMicros) / m.conversions, 6);
    expect(m.conversionsFromInteractionsRate).toBeCloseTo(m.conversions / Number(m.clicks), 12);
  });

  it("impression-share metrics exist at campaign level and satisfy IS + lost ≈ 1", () => {
    const r = rows(
      `SELECT campaign.name, metrics.search_impression_share, metrics.search_budget_lost_impression_share, metrics.search_rank_lost_impression_share FROM campaign WHERE campaign.advertising_channel_type = SEARCH AND campaign.status = ENABLED AND ${L30}`,
    );
    expect(r.length).toBeGreaterThan(5);
    for (const x of r) {
      const m = x.metrics;
      if (m.searchImpressionShare === 0.0999 || m.searchRankLostImpressionShare === 0.9001) continue;
      expect(m.searchImpressionShare + m.searchBudgetLostImpressionShare + m.searchRankLostImpressionShare).toBeCloseTo(1, 5);
    }
    const daily = rows(
      `SELECT campaign.name, segments.date, metrics.search_budget_lost_impression_share FROM campaign WHERE campaign.name = 'Search | Climbing Gear' AND segments.date DURING LAST_14_DAYS`,
    );
    expect(daily).toHaveLength(14);
    // Display and Performance Max have no search impression share: the field is omitted.
    const display = rows(`SELECT campaign.name, metrics.search_impression_share FROM campaign WHERE campaign.advertising_channel_type = DISPLAY AND ${L30}`);
    expect(display[0].metrics).toBeUndefined();
  });
});

describe("result shape", () => {
  it("always returns the FROM resource's resourceName and camelCases nested fields", () => {
    const [r] = rows(
      "SELECT ad_group_criterion.keyword.text, ad_group_criterion.quality_info.quality_score, metrics.clicks FROM keyword_view WHERE ad_group_criterion.quality_info.quality_score > 0 LIMIT 1",
    );
    expect(r.keywordView.resourceName).toMatch(/^customers\/1112223334\/keywordViews\/\d+~\d+$/);
    expect(r.adGroupCriterion.resourceName).toMatch(/^customers\/1112223334\/adGroupCriteria\/\d+~\d+$/);
    expect(typeof r.adGroupCriterion.keyword.text).toBe("string");
    expect(typeof r.adGroupCriterion.qualityInfo.qualityScore).toBe("number");
    expect(typeof r.metrics.clicks).toBe("string");
  });

  it("joins attributed resources (campaign fields from ad_group, budget from campaign)", () => {
    const [g] = rows("SELECT ad_group.name, campaign.name, campaign.bidding_strategy_type, customer.currency_code FROM ad_group LIMIT 1");
    expect(g.campaign.resourceName).toMatch(/^customers\/1112223334\/campaigns\/\d+$/);
    expect(g.campaign.name).toMatch(/\|/);
    expect(g.customer).toEqual({ resourceName: "customers/1112223334", currencyCode: "USD" });
    const [c] = rows("SELECT campaign.name, campaign_budget.amount_micros, campaign_budget.delivery_method FROM campaign LIMIT 1");
    expect(c.campaignBudget.amountMicros).toMatch(/^\d+$/);
    expect(c.campaignBudget.deliveryMethod).toBe("STANDARD");
  });

  it("honours PARAMETERS omit_unselected_resource_names", () => {
    const [r] = rows("SELECT campaign.name FROM campaign LIMIT 1 PARAMETERS omit_unselected_resource_names = true");
    expect(r).toEqual({ campaign: { name: expect.any(String) } });
    const [s] = rows("SELECT campaign.resource_name, campaign.name FROM campaign LIMIT 1 PARAMETERS omit_unselected_resource_names = true");
    expect(s.campaign.resourceName).toMatch(/^customers\//);
  });

  it("omits unset fields (proto3) but keeps the resource object", () => {
    const r = rows("SELECT campaign.name, campaign.target_cpa.target_cpa_micros FROM campaign WHERE campaign.bidding_strategy_type = MANUAL_CPC");
    expect(r.length).toBeGreaterThan(0);
    for (const x of r) expect(x.campaign.targetCpa).toBeUndefined();
    const t = rows("SELECT campaign.name, campaign.target_cpa.target_cpa_micros FROM campaign WHERE campaign.bidding_strategy_type = TARGET_CPA");
    expect(t[0].campaign.targetCpa.targetCpaMicros).toMatch(/^\d+$/);
  });

  it("returns a camelCase field mask in SELECT order", () => {
    const p = ds.query(RICH, "SELECT metrics.cost_micros, campaign.id, segments.date FROM campaign WHERE segments.date DURING YESTERDAY");
    expect(p.fieldMask).toBe("metrics.costMicros,campaign.id,segments.date");
  });
});

describe("WHERE operators", () => {
  const names = (gaql: string) => rows(gaql).map((r) => r.campaign.name as string);
  const all = names("SELECT campaign.name FROM campaign");

  it("= / != / IN / NOT IN on enums, quoted or bare", () => {
    const enabled = names("SELECT campaign.name FROM campaign WHERE campaign.status = 'ENABLED'");
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.status = ENABLED")).toEqual(enabled);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.status != ENABLED").length).toBe(all.length - enabled.length);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.status IN (PAUSED, REMOVED)").length).toBe(all.length - enabled.length);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.status NOT IN ('PAUSED', 'REMOVED')")).toEqual(enabled);
  });

  it("numeric comparisons on int64 and double fields", () => {
    const ids = rows("SELECT campaign.id FROM campaign").map((r) => Number(r.campaign.id));
    const mid = ids[5];
    expect(rows(`SELECT campaign.id FROM campaign WHERE campaign.id > ${mid}`).length).toBe(ids.filter((x) => x > mid).length);
    expect(rows(`SELECT campaign.id FROM campaign WHERE campaign.id <= ${mid}`).length).toBe(ids.filter((x) => x <= mid).length);
    expect(rows(`SELECT campaign.id FROM campaign WHERE campaign.id = '${mid}'`)).toHaveLength(1);
    const ctr = rows("SELECT campaign.id, metrics.ctr FROM campaign WHERE metrics.ctr >= 0.05 AND segments.date DURING LAST_30_DAYS");
    for (const r of ctr) expect(r.metrics.ctr).toBeGreaterThanOrEqual(0.05);
  });

  it("LIKE / NOT LIKE with % and _ wildcards and [] escapes", () => {
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name LIKE 'Search |%'").every((n) => n.startsWith("Search |"))).toBe(true);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name LIKE '%Tent_'")).toEqual(["Search | Tents"]);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name NOT LIKE '%|%'")).toEqual([]);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name LIKE '%[&]%'")).toEqual(["Search | Ski & Snow"]);
  });

  it("REGEXP_MATCH / NOT REGEXP_MATCH use full-string RE2-style matching", () => {
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name REGEXP_MATCH 'Search \\\\| (Tents|Backpacks)'")).toEqual([
      "Search | Tents",
      "Search | Backpacks",
    ]);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name REGEXP_MATCH '(?i).*BRAND.*'")).toEqual(["Brand | Northwind"]);
    expect(names("SELECT campaign.name FROM campaign WHERE campaign.name NOT REGEXP_MATCH '.*\\\\|.*'")).toEqual([]);
  });

  it("CONTAINS ANY / ALL / NONE on repeated fields", () => {
    const urls = rows("SELECT ad_group_ad.ad.final_urls FROM ad_group_ad LIMIT 1")[0].adGroupAd.ad.finalUrls as string[];
    const any = rows(`SELECT ad_group_ad.ad.final_urls FROM ad_group_ad WHERE ad_group_ad.ad.final_urls CONTAINS ANY ('${urls[0]}', 'https://nope.example')`);
    expect(any.length).toBeGreaterThan(0);
    expect(rows(`SELECT ad_group_ad.ad.id FROM ad_group_ad WHERE ad_group_ad.ad.final_urls CONTAINS ALL ('${urls[0]}', 'https://nope.example')`)).toHaveLength(
      0,
    );
    const none = rows(`SELECT ad_group_ad.ad.id FROM ad_group_ad WHERE ad_group_ad.ad.final_urls CONTAINS NONE ('${urls[0]}')`);
    expect(none.length + any.length).toBe(rows("SELECT ad_group_ad.ad.id FROM ad_group_ad").length);
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.name CONTAINS ANY ('x')")).errorCode).toEqual({
      queryError: "OPERATOR_FIELD_MISMATCH",
    });
  });

  it("IS NULL / IS NOT NULL on optional fields", () => {
    const withQs = rows("SELECT ad_group_criterion.criterion_id FROM ad_group_criterion WHERE ad_group_criterion.quality_info.quality_score IS NOT NULL");
    const withoutQs = rows("SELECT ad_group_criterion.criterion_id FROM ad_group_criterion WHERE ad_group_criterion.quality_info.quality_score IS NULL");
    const total = rows("SELECT ad_group_criterion.criterion_id FROM ad_group_criterion");
    expect(withQs.length + withoutQs.length).toBe(total.length);
    expect(withoutQs.length).toBeGreaterThan(0);
  });

  it("BETWEEN on numbers", () => {
    const r = rows(
      "SELECT ad_group_criterion.quality_info.quality_score FROM ad_group_criterion WHERE ad_group_criterion.quality_info.quality_score BETWEEN 3 AND 5",
    );
    expect(r.length).toBeGreaterThan(0);
    for (const x of r) expect(x.adGroupCriterion.qualityInfo.qualityScore).toBeGreaterThanOrEqual(3);
  });

  it("filters on attributed resources and segments", () => {
    const r = rows("SELECT ad_group.name, campaign.name FROM ad_group WHERE campaign.name = 'Search | Tents'");
    expect(r).toHaveLength(6);
    const terms = rows(
      "SELECT search_term_view.search_term, segments.search_term_match_type, metrics.clicks FROM search_term_view WHERE segments.search_term_match_type = NEAR_EXACT",
    );
    expect(terms.length).toBeGreaterThan(0);
    for (const t of terms) expect(t.segments.searchTermMatchType).toBe("NEAR_EXACT");
  });

  it("validates values against the field type", () => {
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.status = 'RUNNING'")).errorCode).toEqual({ queryError: "BAD_ENUM_CONSTANT" });
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.name = 5")).errorCode).toEqual({ queryError: "INVALID_STRING_VALUE" });
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.id = 'abc'")).errorCode).toEqual({ queryError: "BAD_VALUE" });
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.name LIKE Brand")).errorCode).toEqual({
      queryError: "INVALID_VALUE_WITH_LIKE_OPERATOR",
    });
    expect(failure(() => rows("SELECT campaign.id FROM campaign WHERE campaign.status > ENABLED")).errorCode).toEqual({
      queryError: "OPERATOR_FIELD_MISMATCH",
    });
  });
});

describe("ORDER BY and LIMIT", () => {
  it("orders by metrics descending and limits", () => {
    const r = rows(
      "SELECT ad_group_criterion.keyword.text, metrics.cost_micros FROM keyword_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.cost_micros DESC LIMIT 25",
    );
    expect(r).toHaveLength(25);
    const costs = r.map((x) => Number(x.metrics.costMicros));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const full = rows(
      "SELECT ad_group_criterion.keyword.text, metrics.cost_micros FROM keyword_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.cost_micros DESC",
    );
    expect(full.slice(0, 25)).toEqual(r);
  });

  it("orders by several keys", () => {
    const r = rows("SELECT campaign.status, campaign.name FROM campaign ORDER BY campaign.status ASC, campaign.name DESC");
    const keys = r.map((x) => `${x.campaign.status}|${x.campaign.name}`);
    const sorted = [...r].sort((a, b) =>
      a.campaign.status < b.campaign.status ? -1 : a.campaign.status > b.campaign.status ? 1 : a.campaign.name < b.campaign.name ? 1 : -1,
    );
    expect(keys).toEqual(sorted.map((x) => `${x.campaign.status}|${x.campaign.name}`));
  });

  it("requires ORDER BY fields to be selected", () => {
    const e = failure(() => rows("SELECT campaign.name FROM campaign ORDER BY campaign.id"));
    expect(e.errorCode).toEqual({ queryError: "EXPECTED_REFERENCED_FIELD_IN_SELECT_CLAUSE" });
    expect(e.message).toBe("The following field must be present in SELECT clause: 'campaign.id'.");
  });
});

describe("field validation", () => {
  it("UNRECOGNIZED_FIELD for unknown fields, one entry each", () => {
    const e = failure(() => rows("SELECT campaign.start_date, campaign.nme FROM campaign"));
    expect(e.errorCode).toEqual({ queryError: "UNRECOGNIZED_FIELD" });
    expect(e.message).toBe("Unrecognized field in the query: 'campaign.start_date'.");
    expect(e.trigger).toEqual({ stringValue: "campaign.start_date" });
  });

  it("rejects resources that are not attributed to the FROM resource", () => {
    const e = failure(() => rows("SELECT ad_group.name, campaign_budget.amount_micros FROM ad_group"));
    expect(e.errorCode).toEqual({ queryError: "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE" });
    expect(e.message).toContain("'CAMPAIGN_BUDGET'");
    expect(failure(() => rows("SELECT search_term_view.search_term, ad_group_criterion.keyword.text FROM search_term_view")).errorCode).toEqual({
      queryError: "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE",
    });
    expect(failure(() => rows("SELECT campaign.name FROM campaign WHERE ad_group.name = 'x'")).errorCode).toEqual({
      queryError: "PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE",
    });
  });

  it("rejects metrics where the resource has none, or not that metric", () => {
    const e = failure(() => rows("SELECT ad_group_criterion.keyword.text, metrics.clicks FROM ad_group_criterion"));
    expect(e.errorCode).toEqual({ queryError: "PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE" });
    expect(e.message).toMatch(/^Cannot select or filter on the following metrics: 'clicks'\(could not support requested resources: 'AD_GROUP_CRITERION'\)/);
    expect(failure(() => rows("SELECT ad_group.name, metrics.search_budget_lost_impression_share FROM ad_group")).errorCode).toEqual({
      queryError: "PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE",
    });
    expect(failure(() => rows("SELECT customer_client.id FROM customer_client WHERE metrics.cost_micros > 0", MANAGER)).errorCode).toEqual({
      queryError: "PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE",
    });
  });

  it("rejects segments the resource can't be segmented by", () => {
    const e = failure(() => rows("SELECT campaign.name, segments.search_term_match_type, metrics.clicks FROM campaign"));
    expect(e.errorCode).toEqual({ queryError: "PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE" });
    expect(failure(() => rows("SELECT asset.id, segments.date FROM asset WHERE segments.date DURING LAST_7_DAYS")).errorCode).toEqual({
      queryError: "PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE",
    });
  });

  it("non-date segments used in WHERE must be selected", () => {
    expect(failure(() => rows("SELECT campaign.name, metrics.clicks FROM campaign WHERE segments.device = MOBILE")).errorCode).toEqual({
      queryError: "EXPECTED_REFERENCED_FIELD_IN_SELECT_CLAUSE",
    });
  });

  it("rejects unknown and unsupported FROM resources", () => {
    expect(failure(() => rows("SELECT foo.id FROM foo")).errorCode).toEqual({ queryError: "BAD_RESOURCE_TYPE_IN_FROM_CLAUSE" });
    expect(failure(() => rows("SELECT bidding_strategy.id FROM bidding_strategy")).errorCode).toEqual({
      queryError: "PROHIBITED_RESOURCE_TYPE_IN_FROM_CLAUSE",
    });
  });

  it("refuses metrics on a manager account", () => {
    const e = failure(() => rows("SELECT customer.id, metrics.clicks FROM customer", MANAGER));
    expect(e.errorCode).toEqual({ queryError: "REQUESTED_METRICS_FOR_MANAGER" });
    expect(rows("SELECT customer.id, customer.manager FROM customer", MANAGER)[0].customer).toMatchObject({ id: MANAGER, manager: true });
  });

  it("rejects ordering or filtering by message fields", () => {
    expect(
      failure(() => rows("SELECT ad_group_ad.ad.responsive_search_ad.headlines FROM ad_group_ad ORDER BY ad_group_ad.ad.responsive_search_ad.headlines"))
        .errorCode,
    ).toEqual({
      queryError: "PROHIBITED_FIELD_IN_ORDER_BY_CLAUSE",
    });
    expect(failure(() => rows("SELECT ad_group_ad.ad.id FROM ad_group_ad WHERE ad_group_ad.ad.responsive_search_ad.headlines IS NULL")).errorCode).toEqual({
      queryError: "PROHIBITED_FIELD_IN_WHERE_CLAUSE",
    });
  });
});

describe("resources", () => {
  it("customer_client walks the manager tree, levels as int64 strings", () => {
    const r = rows(
      "SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, customer_client.currency_code, customer_client.time_zone, customer_client.id FROM customer_client WHERE customer_client.level <= 1",
      MANAGER,
    );
    expect(r.map((x) => x.customerClient)).toEqual([
      expect.objectContaining({ clientCustomer: "customers/1234567890", level: "0", manager: true, id: MANAGER }),
      expect.objectContaining({
        clientCustomer: "customers/1112223334",
        level: "1",
        manager: false,
        descriptiveName: "Northwind Outdoor Gear",
        currencyCode: "USD",
        timeZone: "America/New_York",
      }),
      expect.objectContaining({
        clientCustomer: "customers/5556667778",
        level: "1",
        descriptiveName: "Northwind Bakery Berlin",
        currencyCode: "EUR",
        timeZone: "Europe/Berlin",
      }),
    ]);
    expect(r[1].customerClient.resourceName).toBe("customers/1234567890/customerClients/1112223334");
    expect(rows("SELECT customer_client.id FROM customer_client", SMALL)).toHaveLength(1);
  });

  it("campaign_criterion lists negatives, locations and languages", () => {
    const r = rows(
      "SELECT campaign.name, campaign_criterion.type, campaign_criterion.negative, campaign_criterion.keyword.text, campaign_criterion.keyword.match_type FROM campaign_criterion WHERE campaign_criterion.type = KEYWORD AND campaign_criterion.negative = TRUE",
    );
    expect(r.length).toBeGreaterThan(20);
    expect(r[0].campaignCriterion.resourceName).toMatch(/^customers\/1112223334\/campaignCriteria\/\d+~\d+$/);
    const geo = rows("SELECT campaign_criterion.location.geo_target_constant FROM campaign_criterion WHERE campaign_criterion.type = LOCATION", SMALL);
    expect(geo[0].campaignCriterion.location.geoTargetConstant).toBe("geoTargetConstants/2276");
  });

  it("search_term_view and campaign_search_term_view agree per campaign", () => {
    const st = rows("SELECT campaign.id, metrics.clicks FROM search_term_view WHERE segments.date DURING LAST_30_DAYS");
    const cst = rows("SELECT campaign.id, metrics.clicks FROM campaign_search_term_view WHERE segments.date DURING LAST_30_DAYS");
    const byCampaign = (rs: Row[]) => {
      const m = new Map<string, number>();
      for (const r of rs) m.set(r.campaign.id, (m.get(r.campaign.id) ?? 0) + Number(r.metrics.clicks));
      return m;
    };
    const a = byCampaign(st);
    const b = byCampaign(cst);
    for (const [id, clicks] of a) expect(b.get(id)).toBe(clicks);
    // Performance Max terms only exist at campaign level.
    expect(b.size).toBe(a.size + 1);
    const pmax = rows(
      "SELECT campaign.name, campaign_search_term_view.search_term, segments.search_term_match_type, metrics.clicks FROM campaign_search_term_view WHERE campaign.advertising_channel_type = PERFORMANCE_MAX",
    );
    expect(pmax.length).toBeGreaterThan(10);
    expect(pmax[0].segments.searchTermMatchType).toBe("PERFORMANCE_MAX");
    expect(pmax[0].campaignSearchTermView.resourceName).toMatch(/^customers\/1112223334\/campaignSearchTermViews\/\d+~[A-Za-z0-9_-]+$/);
  });

  it("search terms carry the matching keyword as segments.keyword", () => {
    const [t] = rows(
      "SELECT search_term_view.search_term, search_term_view.status, search_term_view.ad_group, segments.keyword.info.text, segments.keyword.info.match_type, segments.keyword.ad_group_criterion, metrics.clicks FROM search_term_view ORDER BY metrics.clicks DESC LIMIT 1",
    );
    expect(t.searchTermView.resourceName).toMatch(/^customers\/1112223334\/searchTermViews\/\d+~\d+~[A-Za-z0-9_-]+$/);
    expect(Buffer.from(t.searchTermView.resourceName.split("~")[2], "base64url").toString("utf8")).toBe(t.searchTermView.searchTerm);
    expect(t.segments.keyword.adGroupCriterion).toMatch(/^customers\/1112223334\/adGroupCriteria\//);
    expect(["EXACT", "PHRASE", "BROAD"]).toContain(t.segments.keyword.info.matchType);
  });

  it("ad_group_ad_asset_view links RSA assets with labels and metrics", () => {
    const r = rows(
      "SELECT ad_group_ad_asset_view.field_type, ad_group_ad_asset_view.performance_label, ad_group_ad_asset_view.enabled, asset.text_asset.text, ad_group_ad.ad.id, metrics.impressions FROM ad_group_ad_asset_view WHERE segments.date DURING LAST_30_DAYS",
    );
    expect(r.length).toBeGreaterThan(500);
    expect(new Set(r.map((x) => x.adGroupAdAssetView.fieldType))).toEqual(new Set(["HEADLINE", "DESCRIPTION"]));
    const labels = new Set(r.map((x) => x.adGroupAdAssetView.performanceLabel));
    for (const l of ["BEST", "GOOD", "LOW", "LEARNING"]) expect(labels).toContain(l);
    expect(r[0].asset.resourceName).toMatch(/^customers\/1112223334\/assets\/\d+$/);
  });

  it("change_event enforces Google's window and LIMIT rules", () => {
    const q = "SELECT change_event.change_date_time, change_event.change_resource_type FROM change_event";
    expect(failure(() => rows(`${q} WHERE change_event.change_date_time >= '2026-11-10' AND change_event.change_date_time <= '2026-11-22'`)).errorCode).toEqual(
      {
        changeEventError: "LIMIT_NOT_SPECIFIED",
      },
    );
    expect(failure(() => rows(`${q} WHERE change_event.change_date_time >= '2026-11-10' LIMIT 10`)).errorCode).toEqual({
      changeEventError: "CHANGE_DATE_RANGE_INFINITE",
    });
    expect(
      failure(() => rows(`${q} WHERE change_event.change_date_time >= '2026-09-01' AND change_event.change_date_time <= '2026-11-22' LIMIT 10`)).errorCode,
    ).toEqual({
      changeEventError: "START_DATE_TOO_OLD",
    });
    expect(failure(() => rows(`${q} WHERE change_event.change_date_time DURING LAST_7_DAYS LIMIT 20000`)).errorCode).toEqual({
      changeEventError: "INVALID_LIMIT_CLAUSE",
    });
    // The demo store seeds a few outside changes (see mutate/change-events.ts).
    const recent = rows(`${q} WHERE change_event.change_date_time DURING LAST_14_DAYS ORDER BY change_event.change_date_time DESC LIMIT 100`);
    const times = recent.map((r) => r.changeEvent.changeDateTime as string);
    expect(times.length).toBeGreaterThan(0);
    expect([...times].sort().reverse()).toEqual(times);
    for (const t of times) expect(t >= "2026-11-08" && t < "2026-11-22").toBe(true);
    // Date-only bounds are whole days; date-time bounds are exact.
    const day = times[0].slice(0, 10);
    expect(rows(`${q} WHERE change_event.change_date_time >= '${day}' AND change_event.change_date_time <= '${day}' LIMIT 10`).length).toBeGreaterThan(0);
    expect(
      rows(`${q} WHERE change_event.change_date_time >= '${times[0]}' AND change_event.change_date_time <= '${day} 23:59:59.999999' LIMIT 10`),
    ).toHaveLength(1);
    expect(failure(() => rows("SELECT change_event.change_date_time, metrics.clicks FROM change_event LIMIT 1")).errorCode).toEqual({
      changeEventError: "CHANGE_DATE_RANGE_INFINITE",
    });
  });
});
