// The write side over HTTP: per-service and googleAds:mutate, validation codes,
// validateOnly / partialFailure / atomic semantics, and change_event rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoStore } from "..";
import type { AdsStore } from "../store/store";
import { ads, signIn, startDemoEmulator, type Running } from "../../tests/helpers";

const TODAY = "2026-11-22";
const RICH = "1112223334";
const SMALL = "5556667778";
const MANAGER = "1234567890";
const NOW = new Date("2026-11-22T15:30:00.123Z");

let store: AdsStore;
let running: Running;
let token: string;

beforeAll(async () => {
  const started = await startDemoEmulator({ today: TODAY, now: () => NOW });
  store = started.store;
  running = started;
  token = (await signIn(running.baseUrl)).tokens.access_token;
});
afterAll(async () => {
  await running.close();
});

type Json = Record<string, any>;

async function mutate(collection: string, body: unknown, cid = RICH) {
  return ads(running.baseUrl, `customers/${cid}/${collection}:mutate`, token, { body, headers: { "login-customer-id": MANAGER } });
}

async function search(query: string, cid = RICH): Promise<Json[]> {
  const r = await ads(running.baseUrl, `customers/${cid}/googleAds:search`, token, { body: { query }, headers: { "login-customer-id": MANAGER } });
  expect(r.status, r.text).toBe(200);
  return (r.json.results ?? []) as Json[];
}

async function first(query: string): Promise<Json> {
  const [row] = await search(query);
  expect(row, query).toBeDefined();
  return row;
}

const enabledAdGroup = () =>
  first(
    "SELECT ad_group.resource_name, ad_group.id, campaign.resource_name FROM ad_group WHERE ad_group.status = 'ENABLED' AND campaign.advertising_channel_type = 'SEARCH' ORDER BY ad_group.id LIMIT 1",
  );

const rsa = (adGroup: string, over: Json = {}) => ({
  adGroup,
  status: "PAUSED",
  ad: {
    finalUrls: ["https://example.com/tents"],
    responsiveSearchAd: {
      headlines: [{ text: "Ultralight Tents", pinnedField: "HEADLINE_1" }, { text: "Free Shipping Over $50" }, { text: "Shop 500+ Styles" }],
      descriptions: [{ text: "Top brands, easy returns." }, { text: "Order today for fast delivery." }],
      path1: "tents",
      path2: "sale",
      ...over,
    },
  },
});

function errorOf(r: { status: number; json: Json }) {
  const failure = r.json.error.details.find((d: Json) => String(d["@type"]).endsWith("GoogleAdsFailure"));
  return failure.errors as Json[];
}

describe("per-service mutate", () => {
  it("updates campaign status and name; GAQL sees it at once and a change_event is written", async () => {
    const c = await first(
      "SELECT campaign.id, campaign.resource_name, campaign.name, campaign.status FROM campaign WHERE campaign.status = 'ENABLED' ORDER BY campaign.id LIMIT 1",
    );
    const rn = c.campaign.resourceName as string;
    const events = store.account(RICH)!.changeEvents.length;
    const r = await mutate("campaigns", {
      operations: [{ update: { resourceName: rn, status: "PAUSED", name: `${c.campaign.name} v2` }, update_mask: "status,name" }],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("request-id")).toBeTruthy();
    expect(r.json).toEqual({ results: [{ resourceName: rn }] });
    const after = await first(`SELECT campaign.status, campaign.name FROM campaign WHERE campaign.resource_name = '${rn}'`);
    expect(after.campaign).toMatchObject({ status: "PAUSED", name: `${c.campaign.name} v2` });
    const ev = store.account(RICH)!.changeEvents.slice(events);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toMatchObject({
      changeResourceType: "CAMPAIGN",
      changeResourceName: rn,
      clientType: "GOOGLE_ADS_API",
      userEmail: "demo.advertiser@example.com",
      resourceChangeOperation: "UPDATE",
      changedFields: "status,name",
      oldResource: { campaign: { status: "ENABLED", name: c.campaign.name } },
      newResource: { campaign: { status: "PAUSED", name: `${c.campaign.name} v2` } },
      campaign: rn,
      // 15:30:00.123 UTC in America/New_York.
      changeDateTime: "2026-11-22 10:30:00.123000",
    });
  });

  it("updates a budget amount and returns the full resource with MUTABLE_RESOURCE", async () => {
    const b = await first("SELECT campaign_budget.id, campaign_budget.resource_name FROM campaign_budget ORDER BY campaign_budget.id LIMIT 1");
    const rn = b.campaignBudget.resourceName;
    const r = await mutate("campaignBudgets", {
      operations: [{ update: { resourceName: rn, amountMicros: "77000000" }, updateMask: "amount_micros" }],
      responseContentType: "MUTABLE_RESOURCE",
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.results[0]).toMatchObject({ resourceName: rn, campaignBudget: { resourceName: rn, amountMicros: "77000000", status: "ENABLED" } });
    const after = await first(`SELECT campaign_budget.amount_micros FROM campaign_budget WHERE campaign_budget.resource_name = '${rn}'`);
    expect(after.campaignBudget.amountMicros).toBe("77000000");
  });

  it("updates ad group status, bid and name", async () => {
    const g = await enabledAdGroup();
    const rn = g.adGroup.resourceName;
    const r = await mutate("adGroups", {
      operations: [{ update: { resourceName: rn, status: "PAUSED", cpcBidMicros: "1230000", name: "Renamed group" }, updateMask: "status,cpcBidMicros,name" }],
    });
    expect(r.status, r.text).toBe(200);
    const after = await first(`SELECT ad_group.status, ad_group.cpc_bid_micros, ad_group.name FROM ad_group WHERE ad_group.resource_name = '${rn}'`);
    expect(after.adGroup).toMatchObject({ status: "PAUSED", cpcBidMicros: "1230000", name: "Renamed group" });
    await mutate("adGroups", { operations: [{ update: { resourceName: rn, status: "ENABLED" }, updateMask: "status" }] });
  });

  it("creates, updates and removes keywords (positive and negative); new rows have zero metrics", async () => {
    const g = await enabledAdGroup();
    const ag = g.adGroup.resourceName;
    const r = await mutate("adGroupCriteria", {
      operations: [
        { create: { adGroup: ag, status: "ENABLED", keyword: { text: "waterproof hiking boots", matchType: "PHRASE" }, cpcBidMicros: "1500000" } },
        { create: { adGroup: ag, negative: true, keyword: { text: "free", matchType: "BROAD" } } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    const [kw, neg] = r.json.results.map((x: Json) => x.resourceName as string);
    expect(kw).toMatch(new RegExp(`^customers/${RICH}/adGroupCriteria/${g.adGroup.id}~\\d+$`));
    const rows = await search(
      `SELECT ad_group_criterion.resource_name, ad_group_criterion.keyword.text, ad_group_criterion.negative, ad_group_criterion.cpc_bid_micros, metrics.impressions, metrics.cost_micros FROM keyword_view WHERE segments.date DURING LAST_30_DAYS AND ad_group_criterion.resource_name = '${kw}'`,
    );
    // A keyword with no traffic has no keyword_view rows, like Google.
    expect(rows.length).toBeLessThanOrEqual(1);
    if (rows[0]) expect(rows[0].metrics.impressions ?? "0").toBe("0");
    const crit = await first(
      `SELECT ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, ad_group_criterion.cpc_bid_micros, ad_group_criterion.status FROM ad_group_criterion WHERE ad_group_criterion.resource_name = '${kw}'`,
    );
    expect(crit.adGroupCriterion).toMatchObject({
      keyword: { text: "waterproof hiking boots", matchType: "PHRASE" },
      cpcBidMicros: "1500000",
      status: "ENABLED",
    });
    const negRow = await first(`SELECT ad_group_criterion.negative FROM ad_group_criterion WHERE ad_group_criterion.resource_name = '${neg}'`);
    expect(negRow.adGroupCriterion.negative).toBe(true);

    const up = await mutate("adGroupCriteria", {
      operations: [{ update: { resourceName: kw, status: "PAUSED", cpcBidMicros: "2000000" }, updateMask: "status,cpc_bid_micros" }],
    });
    expect(up.status, up.text).toBe(200);
    const rm = await mutate("adGroupCriteria", { operations: [{ remove: neg }] });
    expect(rm.status, rm.text).toBe(200);
    const both = await search(
      `SELECT ad_group_criterion.resource_name, ad_group_criterion.status, ad_group_criterion.cpc_bid_micros FROM ad_group_criterion WHERE ad_group_criterion.resource_name IN ('${kw}', '${neg}')`,
    );
    const byName = Object.fromEntries(both.map((x) => [x.adGroupCriterion.resourceName, x.adGroupCriterion]));
    expect(byName[kw]).toMatchObject({ status: "PAUSED", cpcBidMicros: "2000000" });
    expect(byName[neg]).toMatchObject({ status: "REMOVED" });

    // Updating a negative keyword is not allowed; removing twice is not either.
    const again = await mutate("adGroupCriteria", { operations: [{ remove: neg }] });
    expect(errorOf(again)[0].errorCode).toEqual({ operationAccessDeniedError: "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE" });
  });

  it("creates and removes campaign-level negative keywords", async () => {
    const c = await first(
      "SELECT campaign.resource_name, campaign.id FROM campaign WHERE campaign.advertising_channel_type = 'SEARCH' ORDER BY campaign.id LIMIT 1",
    );
    const r = await mutate("campaignCriteria", {
      operations: [{ create: { campaign: c.campaign.resourceName, negative: true, keyword: { text: "cheap", matchType: "EXACT" } } }],
    });
    expect(r.status, r.text).toBe(200);
    const rn = r.json.results[0].resourceName as string;
    expect(rn).toMatch(new RegExp(`^customers/${RICH}/campaignCriteria/${c.campaign.id}~\\d+$`));
    const row = await first(
      `SELECT campaign_criterion.keyword.text, campaign_criterion.negative, campaign_criterion.status FROM campaign_criterion WHERE campaign_criterion.resource_name = '${rn}'`,
    );
    expect(row.campaignCriterion).toMatchObject({ keyword: { text: "cheap" }, negative: true, status: "ENABLED" });
    const rm = await mutate("campaignCriteria", { operations: [{ remove: rn }] });
    expect(rm.status, rm.text).toBe(200);
    const positive = await mutate("campaignCriteria", {
      operations: [{ create: { campaign: c.campaign.resourceName, keyword: { text: "tents", matchType: "EXACT" } } }],
    });
    expect(errorOf(positive)[0].errorCode).toEqual({ criterionError: "CANNOT_ADD_CRITERIA_TYPE" });
  });

  it("creates an RSA, pauses it, removes it", async () => {
    const g = await enabledAdGroup();
    const r = await mutate("adGroupAds", { operations: [{ create: rsa(g.adGroup.resourceName) }] });
    expect(r.status, r.text).toBe(200);
    const rn = r.json.results[0].resourceName as string;
    const row = await first(
      `SELECT ad_group_ad.status, ad_group_ad.ad.responsive_search_ad.headlines, ad_group_ad.ad.final_urls, metrics.impressions FROM ad_group_ad WHERE ad_group_ad.resource_name = '${rn}'`,
    );
    expect(row.adGroupAd.status).toBe("PAUSED");
    expect(row.adGroupAd.ad.responsiveSearchAd.headlines[0]).toEqual({ text: "Ultralight Tents", pinnedField: "HEADLINE_1" });
    expect(row.metrics?.impressions ?? "0").toBe("0");
    expect((await mutate("adGroupAds", { operations: [{ update: { resourceName: rn, status: "ENABLED" }, updateMask: "status" }] })).status).toBe(200);
    expect((await mutate("adGroupAds", { operations: [{ remove: rn }] })).status).toBe(200);
    const gone = await mutate("adGroupAds", { operations: [{ update: { resourceName: rn, status: "ENABLED" }, updateMask: "status" }] });
    expect(errorOf(gone)[0].errorCode).toEqual({ adGroupAdError: "CANNOT_OPERATE_ON_REMOVED_ADGROUPAD" });
  });

  it("measures RSA text as Google does: keyword insertion counts its default, double-width characters count 2", async () => {
    const g = await enabledAdGroup();
    const headlines = [{ text: "{KeyWord:Ultralight Tents} for Hikers" }, { text: "日本製の軽量防水ハイキング靴" }, { text: "Shop Tents" }];
    const r = await mutate("adGroupAds", { validateOnly: true, operations: [{ create: rsa(g.adGroup.resourceName, { headlines }) }] });
    expect(r.status, r.text).toBe(200);
  });

  it("answers 501 for collections the emulator does not write", async () => {
    const r = await mutate("assets", { operations: [{ create: {} }] });
    expect(r.status).toBe(501);
    expect(r.json.error.status).toBe("UNIMPLEMENTED");
  });
});

describe("validation error codes", () => {
  let ag: string;
  let campaign: string;
  let keyword: string;
  beforeAll(async () => {
    const g = await enabledAdGroup();
    ag = g.adGroup.resourceName;
    campaign = g.campaign.resourceName;
    const k = await first(
      `SELECT ad_group_criterion.criterion_id, ad_group_criterion.resource_name FROM ad_group_criterion WHERE ad_group_criterion.negative = FALSE AND ad_group_criterion.status = 'ENABLED' ORDER BY ad_group_criterion.criterion_id LIMIT 1`,
    );
    keyword = k.adGroupCriterion.resourceName;
  });

  const cases: Array<[string, () => [string, Json], Json, string[]]> = [
    [
      "unknown budget",
      () => ["campaignBudgets", { update: { resourceName: `customers/${RICH}/campaignBudgets/1`, amountMicros: "0" }, updateMask: "amountMicros" }],
      { mutateError: "RESOURCE_NOT_FOUND" },
      ["operations", "update", "resource_name"],
    ],
    [
      "negative bid",
      () => ["adGroups", { update: { resourceName: ag, cpcBidMicros: "-5" }, updateMask: "cpc_bid_micros" }],
      { rangeError: "TOO_LOW" },
      ["operations", "update", "cpc_bid_micros"],
    ],
    [
      "keyword bid 0",
      () => ["adGroupCriteria", { update: { resourceName: keyword, cpcBidMicros: 0 }, updateMask: "cpcBidMicros" }],
      { rangeError: "TOO_LOW" },
      ["operations", "update", "cpc_bid_micros"],
    ],
    [
      "keyword too long",
      () => ["adGroupCriteria", { create: { adGroup: ag, keyword: { text: "x".repeat(81), matchType: "EXACT" } } }],
      { criterionError: "KEYWORD_TEXT_TOO_LONG" },
      ["operations", "create", "keyword", "text"],
    ],
    [
      "keyword 11 words",
      () => ["adGroupCriteria", { create: { adGroup: ag, keyword: { text: "a b c d e f g h i j k", matchType: "BROAD" } } }],
      { criterionError: "KEYWORD_HAS_TOO_MANY_WORDS" },
      ["operations", "create", "keyword", "text"],
    ],
    [
      "keyword invalid chars",
      () => ["adGroupCriteria", { create: { adGroup: ag, keyword: { text: "tents!!", matchType: "BROAD" } } }],
      { criterionError: "KEYWORD_HAS_INVALID_CHARS" },
      ["operations", "create", "keyword", "text"],
    ],
    [
      "keyword no match type",
      () => ["adGroupCriteria", { create: { adGroup: ag, keyword: { text: "tents" } } }],
      { fieldError: "REQUIRED" },
      ["operations", "create", "keyword", "match_type"],
    ],
    [
      "keyword bad enum",
      () => ["adGroupCriteria", { create: { adGroup: ag, keyword: { text: "tents", matchType: "FUZZY" } } }],
      { requestError: "INVALID_ENUM_VALUE" },
      ["operations", "create", "keyword", "match_type"],
    ],
    [
      "keyword without ad group",
      () => ["adGroupCriteria", { create: { keyword: { text: "tents", matchType: "EXACT" } } }],
      { fieldError: "REQUIRED" },
      ["operations", "create", "ad_group"],
    ],
    [
      "unknown ad group",
      () => ["adGroupCriteria", { create: { adGroup: `customers/${RICH}/adGroups/999`, keyword: { text: "tents", matchType: "EXACT" } } }],
      { mutateError: "RESOURCE_NOT_FOUND" },
      ["operations", "create", "ad_group"],
    ],
    [
      "other customer's resource",
      () => ["adGroups", { update: { resourceName: `customers/${SMALL}/adGroups/1`, status: "PAUSED" }, updateMask: "status" }],
      { authorizationError: "USER_PERMISSION_DENIED" },
      ["operations", "update", "resource_name"],
    ],
    [
      "malformed name",
      () => ["campaigns", { update: { resourceName: "campaigns/12", status: "PAUSED" }, updateMask: "status" }],
      { requestError: "RESOURCE_NAME_MALFORMED" },
      ["operations", "update", "resource_name"],
    ],
    [
      "missing mask",
      () => ["campaigns", { update: { resourceName: campaign, status: "PAUSED" } }],
      { fieldMaskError: "FIELD_MASK_MISSING" },
      ["operations", "update_mask"],
    ],
    [
      "unknown mask path",
      () => ["campaigns", { update: { resourceName: campaign, status: "PAUSED" }, updateMask: "statuz" }],
      { fieldMaskError: "FIELD_NOT_FOUND" },
      ["operations", "update_mask"],
    ],
    [
      "mask with subfields",
      () => ["adGroupCriteria", { update: { resourceName: keyword }, updateMask: "keyword" }],
      { fieldMaskError: "FIELD_HAS_SUBFIELDS" },
      ["operations", "update_mask"],
    ],
    [
      "immutable path",
      () => ["adGroupCriteria", { update: { resourceName: keyword, keyword: { text: "x" } }, updateMask: "keyword.text" }],
      { fieldError: "IMMUTABLE_FIELD" },
      ["operations", "update", "keyword", "text"],
    ],
    [
      "status REMOVED via update",
      () => ["campaigns", { update: { resourceName: campaign, status: "REMOVED" }, updateMask: "status" }],
      { operationAccessDeniedError: "CREATE_AS_REMOVED_NOT_PERMITTED" },
      ["operations", "update", "status"],
    ],
    ["no operation", () => ["campaigns", {}], { requestError: "OPERATION_REQUIRED" }, ["operations"]],
    [
      "headline 31 chars",
      () => ["adGroupAds", { create: rsa(ag, { headlines: [{ text: "h".repeat(31) }, { text: "b" }, { text: "c" }] }) }],
      { stringLengthError: "TOO_LONG" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines", "text"],
    ],
    [
      "headline of 16 double-width characters (32 wide)",
      () => ["adGroupAds", { create: rsa(ag, { headlines: [{ text: "日本製の軽量防水ハイキングブーツ" }, { text: "b" }, { text: "c" }] }) }],
      { stringLengthError: "TOO_LONG" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines", "text"],
    ],
    [
      "keyword insertion whose default is 31 wide",
      () => ["adGroupAds", { create: rsa(ag, { headlines: [{ text: `{KeyWord:${"h".repeat(31)}}` }, { text: "b" }, { text: "c" }] }) }],
      { stringLengthError: "TOO_LONG" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines", "text"],
    ],
    [
      "description 91 chars",
      () => ["adGroupAds", { create: rsa(ag, { descriptions: [{ text: "d".repeat(91) }, { text: "b" }] }) }],
      { stringLengthError: "TOO_LONG" },
      ["operations", "create", "ad", "responsive_search_ad", "descriptions", "text"],
    ],
    [
      "path1 16 chars",
      () => ["adGroupAds", { create: rsa(ag, { path1: "p".repeat(16) }) }],
      { stringLengthError: "TOO_LONG" },
      ["operations", "create", "ad", "responsive_search_ad", "path1"],
    ],
    [
      "path2 without path1",
      () => ["adGroupAds", { create: rsa(ag, { path1: "" }) }],
      { adError: "CANNOT_SET_PATH2_WITHOUT_PATH1" },
      ["operations", "create", "ad", "responsive_search_ad", "path2"],
    ],
    [
      "2 headlines",
      () => ["adGroupAds", { create: rsa(ag, { headlines: [{ text: "a" }, { text: "b" }] }) }],
      { collectionSizeError: "TOO_FEW" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines"],
    ],
    [
      "16 headlines",
      () => ["adGroupAds", { create: rsa(ag, { headlines: Array.from({ length: 16 }, (_, i) => ({ text: `H${i}` })) }) }],
      { collectionSizeError: "TOO_MANY" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines"],
    ],
    [
      "1 description",
      () => ["adGroupAds", { create: rsa(ag, { descriptions: [{ text: "a" }] }) }],
      { collectionSizeError: "TOO_FEW" },
      ["operations", "create", "ad", "responsive_search_ad", "descriptions"],
    ],
    [
      "5 descriptions",
      () => ["adGroupAds", { create: rsa(ag, { descriptions: Array.from({ length: 5 }, (_, i) => ({ text: `D${i}` })) }) }],
      { collectionSizeError: "TOO_MANY" },
      ["operations", "create", "ad", "responsive_search_ad", "descriptions"],
    ],
    [
      "headline pinned as description",
      () => ["adGroupAds", { create: rsa(ag, { headlines: [{ text: "a", pinnedField: "DESCRIPTION_1" }, { text: "b" }, { text: "c" }] }) }],
      { requestError: "INVALID_ENUM_VALUE" },
      ["operations", "create", "ad", "responsive_search_ad", "headlines", "pinned_field"],
    ],
    [
      "no final url",
      () => ["adGroupAds", { create: { ...rsa(ag), ad: { responsiveSearchAd: rsa(ag).ad.responsiveSearchAd } } }],
      { fieldError: "REQUIRED" },
      ["operations", "create", "ad", "final_urls"],
    ],
    [
      "ftp final url",
      () => ["adGroupAds", { create: { ...rsa(ag), ad: { ...rsa(ag).ad, finalUrls: ["ftp://example.com"] } } }],
      { adError: "URL_INVALID_SCHEME" },
      ["operations", "create", "ad", "final_urls"],
    ],
    [
      "positive id on create",
      () => ["campaignBudgets", { create: { resourceName: `customers/${RICH}/campaignBudgets/5`, name: "B", amountMicros: "1000000" } }],
      { newResourceCreationError: "CANNOT_SET_ID_FOR_CREATE" },
      ["operations", "create", "resource_name"],
    ],
  ];

  it.each(cases)("%s", async (_name, build, code, path) => {
    const [collection, op] = build();
    const before = store.version;
    const r = await mutate(collection, collection === "campaigns" && Object.keys(op).length === 0 ? { operations: [] } : { operations: [op] });
    expect(r.status, r.text).toBe("authorizationError" in code ? 403 : 400);
    const [err] = errorOf(r);
    expect(err.errorCode).toEqual(code);
    expect(err.message).toBeTruthy();
    expect(err.location.fieldPathElements.map((f: Json) => f.fieldName)).toEqual(path);
    if (path[0] === "operations" && path.length > 1) expect(err.location.fieldPathElements[0]).toEqual({ fieldName: "operations", index: 0 });
    expect(r.json.error.details[0].requestId).toBe(r.headers.get("request-id"));
    expect(store.version).toBe(before);
  });

  it("budget amount rules: zero, negative, sub-cent", async () => {
    const b = await first("SELECT campaign_budget.id, campaign_budget.resource_name FROM campaign_budget ORDER BY campaign_budget.id LIMIT 1");
    const rn = b.campaignBudget.resourceName;
    const codes = [];
    for (const amount of ["0", "-1000000", "1234567"]) {
      const r = await mutate("campaignBudgets", { operations: [{ update: { resourceName: rn, amountMicros: amount }, updateMask: "amount_micros" }] });
      codes.push(errorOf(r)[0].errorCode);
    }
    expect(codes).toEqual([
      { rangeError: "TOO_LOW" },
      { campaignBudgetError: "NEGATIVE_MONEY_AMOUNT" },
      { campaignBudgetError: "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT" },
    ]);
  });

  it("ad group target CPA: set, validateOnly, Google's value rules, cleared by a masked absent field", async () => {
    // Camp Stoves (plant P7) overrides its TARGET_CPA campaign's $24 with $95.
    const rn = `customers/${RICH}/adGroups/140000000277`;
    const read = async () =>
      (await first(`SELECT ad_group.target_cpa_micros, ad_group.effective_target_cpa_micros FROM ad_group WHERE ad_group.resource_name = '${rn}'`)).adGroup;
    expect(await read()).toMatchObject({ targetCpaMicros: "95000000", effectiveTargetCpaMicros: "95000000" });
    const codes = [];
    for (const v of ["-1000000", "0", "80755000"]) {
      const r = await mutate("adGroups", { operations: [{ update: { resourceName: rn, targetCpaMicros: v }, updateMask: "target_cpa_micros" }] });
      codes.push(errorOf(r)[0].errorCode);
    }
    expect(codes).toEqual([{ rangeError: "TOO_LOW" }, { rangeError: "TOO_LOW" }, { biddingError: "BID_TOO_MANY_FRACTIONAL_DIGITS" }]);
    const events = store.account(RICH)!.changeEvents.length;
    const dry = await mutate("adGroups", {
      validateOnly: true,
      operations: [{ update: { resourceName: rn, targetCpaMicros: "80750000" }, updateMask: "target_cpa_micros" }],
    });
    expect(dry.status, dry.text).toBe(200);
    expect((await read()).targetCpaMicros).toBe("95000000");
    const set = await mutate("adGroups", { operations: [{ update: { resourceName: rn, targetCpaMicros: "80750000" }, updateMask: "target_cpa_micros" }] });
    expect(set.status, set.text).toBe(200);
    expect(await read()).toMatchObject({ targetCpaMicros: "80750000", effectiveTargetCpaMicros: "80750000" });
    const cleared = await mutate("adGroups", { operations: [{ update: { resourceName: rn }, updateMask: "target_cpa_micros" }] });
    expect(cleared.status, cleared.text).toBe(200);
    const after = await read();
    expect(after.targetCpaMicros).toBeUndefined();
    // The campaign's target applies again.
    expect(after.effectiveTargetCpaMicros).toBe("24000000");
    // validateOnly and the refused values wrote nothing; the set and the clear one event each.
    expect(store.account(RICH)!.changeEvents.length - events).toBe(2);
    await mutate("adGroups", { operations: [{ update: { resourceName: rn, targetCpaMicros: "95000000" }, updateMask: "target_cpa_micros" }] });
    expect((await read()).targetCpaMicros).toBe("95000000");
  });

  it("duplicate names", async () => {
    const [a, b] = await search(
      "SELECT campaign.id, campaign.resource_name, campaign.name FROM campaign WHERE campaign.status != 'REMOVED' ORDER BY campaign.id LIMIT 2",
    );
    const r = await mutate("campaigns", { operations: [{ update: { resourceName: b.campaign.resourceName, name: a.campaign.name }, updateMask: "name" }] });
    expect(errorOf(r)[0].errorCode).toEqual({ campaignError: "DUPLICATE_CAMPAIGN_NAME" });
  });

  it("manager accounts cannot be mutated", async () => {
    const r = await mutate(
      "campaigns",
      { operations: [{ update: { resourceName: `customers/${MANAGER}/campaigns/1`, status: "PAUSED" }, updateMask: "status" }] },
      MANAGER,
    );
    expect(errorOf(r)[0].errorCode).toEqual({ requestError: "CANNOT_BE_EXECUTED_BY_MANAGER_ACCOUNT" });
  });
});

describe("request modes", () => {
  it("validateOnly validates and changes nothing", async () => {
    const g = await enabledAdGroup();
    const before = store.version;
    const events = store.account(RICH)!.changeEvents.length;
    const ok = await mutate("adGroupCriteria", {
      validateOnly: true,
      operations: [{ create: { adGroup: g.adGroup.resourceName, keyword: { text: "validate only kw", matchType: "EXACT" } } }],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({});
    const bad = await mutate("adGroupCriteria", {
      validateOnly: true,
      operations: [{ create: { adGroup: g.adGroup.resourceName, keyword: { text: "x".repeat(90), matchType: "EXACT" } } }],
    });
    expect(bad.status).toBe(400);
    expect(store.version).toBe(before);
    expect(store.account(RICH)!.changeEvents.length).toBe(events);
    expect(await search("SELECT ad_group_criterion.resource_name FROM ad_group_criterion WHERE ad_group_criterion.keyword.text = 'validate only kw'")).toEqual(
      [],
    );
  });

  it("without partialFailure one bad operation fails the request and changes nothing", async () => {
    const g = await enabledAdGroup();
    const before = store.version;
    const events = store.account(RICH)!.changeEvents.length;
    const r = await mutate("adGroupCriteria", {
      operations: [
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "atomic good", matchType: "EXACT" } } },
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "y".repeat(81), matchType: "EXACT" } } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." });
    expect(errorOf(r)[0].location.fieldPathElements[0]).toEqual({ fieldName: "operations", index: 1 });
    expect(store.version).toBe(before);
    expect(store.account(RICH)!.changeEvents.length).toBe(events);
    expect(await search("SELECT ad_group_criterion.resource_name FROM ad_group_criterion WHERE ad_group_criterion.keyword.text = 'atomic good'")).toEqual([]);
  });

  it("partialFailure applies the valid operations and reports the rest", async () => {
    const g = await enabledAdGroup();
    const r = await mutate("adGroupCriteria", {
      partialFailure: true,
      operations: [
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "partial good", matchType: "EXACT" } } },
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "z".repeat(81), matchType: "EXACT" } } },
        { create: { adGroup: `customers/${RICH}/adGroups/424242`, keyword: { text: "orphan", matchType: "EXACT" } } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.results).toHaveLength(3);
    expect(r.json.results[0].resourceName).toMatch(/adGroupCriteria\/\d+~\d+$/);
    expect(r.json.results[1]).toEqual({});
    expect(r.json.results[2]).toEqual({});
    const pfe = r.json.partialFailureError;
    expect(pfe.code).toBe(3);
    expect(pfe.message).toMatch(/^Multiple errors in ‘details’. First error: .*, at operations\[1\]\.create\.keyword\.text$/);
    expect(pfe.details[0]["@type"]).toBe("type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure");
    expect(pfe.details[0].requestId).toBe(r.headers.get("request-id"));
    expect(pfe.details[0].errors.map((e: Json) => [e.errorCode, e.location.fieldPathElements[0]])).toEqual([
      [{ criterionError: "KEYWORD_TEXT_TOO_LONG" }, { fieldName: "operations", index: 1 }],
      [{ mutateError: "RESOURCE_NOT_FOUND" }, { fieldName: "operations", index: 2 }],
    ]);
    expect(await search("SELECT ad_group_criterion.resource_name FROM ad_group_criterion WHERE ad_group_criterion.keyword.text = 'partial good'")).toHaveLength(
      1,
    );
  });

  it("partialFailure with validateOnly returns only the failure", async () => {
    const g = await enabledAdGroup();
    const before = store.version;
    const r = await mutate("adGroupCriteria", {
      partialFailure: true,
      validateOnly: true,
      operations: [
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "fine", matchType: "EXACT" } } },
        { create: { adGroup: g.adGroup.resourceName, keyword: { text: "a b c d e f g h i j k", matchType: "EXACT" } } },
      ],
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["partialFailureError"]);
    expect(r.json.partialFailureError.message).toMatch(/, at operations\[1\]\.create\.keyword\.text$/);
    expect(store.version).toBe(before);
  });

  it("rejects unknown top-level fields like the JSON transcoder", async () => {
    const r = await mutate("campaigns", { operations: [], bogus: 1 });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('Unknown name "bogus"');
  });
});

describe("googleAds:mutate", () => {
  it("creates budget → campaign → ad group → keyword → RSA with temp ids, atomically", async () => {
    const c = `customers/${RICH}`;
    const r = await mutate("googleAds", {
      mutateOperations: [
        {
          campaignBudgetOperation: {
            create: {
              resourceName: `${c}/campaignBudgets/-1`,
              name: "Temp-id budget",
              amountMicros: "50000000",
              deliveryMethod: "STANDARD",
              explicitlyShared: false,
            },
          },
        },
        {
          campaignOperation: {
            create: {
              resourceName: `${c}/campaigns/-2`,
              name: "Search – Temp ids",
              status: "PAUSED",
              advertisingChannelType: "SEARCH",
              campaignBudget: `${c}/campaignBudgets/-1`,
              manualCpc: {},
              networkSettings: { targetGoogleSearch: true, targetSearchNetwork: true, targetContentNetwork: false, targetPartnerSearchNetwork: false },
              containsEuPoliticalAdvertising: "DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING",
            },
          },
        },
        {
          adGroupOperation: {
            create: {
              resourceName: `${c}/adGroups/-3`,
              name: "Core",
              campaign: `${c}/campaigns/-2`,
              status: "ENABLED",
              type: "SEARCH_STANDARD",
              cpcBidMicros: "1000000",
            },
          },
        },
        {
          adGroupCriterionOperation: {
            create: { adGroup: `${c}/adGroups/-3`, status: "ENABLED", keyword: { text: "running shoes", matchType: "PHRASE" }, cpcBidMicros: "1200000" },
          },
        },
        { ad_group_ad_operation: { create: rsa(`${c}/adGroups/-3`) } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    const res = r.json.mutateOperationResponses as Json[];
    expect(res.map((x) => Object.keys(x)[0])).toEqual(["campaignBudgetResult", "campaignResult", "adGroupResult", "adGroupCriterionResult", "adGroupAdResult"]);
    const campaignRn = res[1].campaignResult.resourceName as string;
    const agRn = res[2].adGroupResult.resourceName as string;
    expect(campaignRn).toMatch(/campaigns\/\d+$/);
    const row = await first(
      `SELECT campaign.name, campaign.status, campaign_budget.amount_micros, metrics.clicks, metrics.cost_micros FROM campaign WHERE campaign.resource_name = '${campaignRn}'`,
    );
    expect(row.campaign).toMatchObject({ name: "Search – Temp ids", status: "PAUSED" });
    expect(row.campaignBudget.amountMicros).toBe("50000000");
    expect(row.metrics.clicks ?? "0").toBe("0");
    const agRow = await first(`SELECT ad_group.name, metrics.impressions FROM ad_group WHERE ad_group.resource_name = '${agRn}'`);
    expect(agRow.adGroup.name).toBe("Core");
    expect(agRow.metrics.impressions ?? "0").toBe("0");
    // Reports over every level still run with the new, fact-less entities in place.
    for (const q of [
      "SELECT campaign.id, metrics.clicks, metrics.search_impression_share, segments.date FROM campaign WHERE segments.date DURING LAST_7_DAYS",
      "SELECT ad_group.id, metrics.clicks, segments.device FROM ad_group WHERE segments.date DURING LAST_7_DAYS",
      "SELECT ad_group_criterion.criterion_id, metrics.clicks FROM keyword_view WHERE segments.date DURING LAST_30_DAYS",
      "SELECT ad_group_ad.ad.id, metrics.impressions FROM ad_group_ad WHERE segments.date DURING LAST_30_DAYS",
      "SELECT campaign_budget.id, campaign_budget.reference_count FROM campaign_budget",
    ]) {
      expect((await search(q)).length, q).toBeGreaterThan(0);
    }
    const kws = await search(`SELECT ad_group_criterion.keyword.text, ad_group.resource_name FROM ad_group_criterion WHERE ad_group.resource_name = '${agRn}'`);
    expect(kws.map((k) => k.adGroupCriterion.keyword.text)).toEqual(["running shoes"]);
    const adsRows = await search(`SELECT ad_group_ad.resource_name FROM ad_group_ad WHERE ad_group.resource_name = '${agRn}'`);
    expect(adsRows).toHaveLength(1);
    const ev = await search(
      `SELECT change_event.change_date_time, change_event.change_resource_type, change_event.resource_change_operation, change_event.campaign, change_event.ad_group FROM change_event WHERE change_event.change_date_time >= '2026-11-22 10:00:00' AND change_event.change_date_time <= '2026-11-23' AND campaign.resource_name = '${campaignRn}' ORDER BY change_event.change_date_time LIMIT 100`,
    );
    expect(ev.map((e) => e.changeEvent.changeResourceType)).toEqual(["CAMPAIGN", "AD_GROUP", "AD_GROUP_CRITERION", "AD_GROUP_AD"]);
    expect(ev.every((e) => e.changeEvent.resourceChangeOperation === "CREATE")).toBe(true);
  });

  it("keyword and ad creation under an existing ad group; failure is atomic and temp-id errors cascade", async () => {
    const g = await enabledAdGroup();
    const ok = await mutate("googleAds", {
      mutateOperations: [
        { adGroupCriterionOperation: { create: { adGroup: g.adGroup.resourceName, keyword: { text: "gA kw", matchType: "BROAD" } } } },
        { adGroupAdOperation: { create: rsa(g.adGroup.resourceName) } },
        { adGroupOperation: { update: { resourceName: g.adGroup.resourceName, cpcBidMicros: "990000" }, updateMask: "cpc_bid_micros" } },
      ],
      responseContentType: "MUTABLE_RESOURCE",
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.mutateOperationResponses[0].adGroupCriterionResult.adGroupCriterion.keyword.text).toBe("gA kw");
    expect(ok.json.mutateOperationResponses[2].adGroupResult.adGroup.cpcBidMicros).toBe("990000");

    const before = store.version;
    const c = `customers/${RICH}`;
    const bad = await mutate("googleAds", {
      mutateOperations: [
        { adGroupOperation: { create: { resourceName: `${c}/adGroups/-7`, name: "", campaign: g.campaign.resourceName } } },
        { adGroupCriterionOperation: { create: { adGroup: `${c}/adGroups/-7`, keyword: { text: "never", matchType: "EXACT" } } } },
        { adGroupCriterionOperation: { create: { adGroup: g.adGroup.resourceName, keyword: { text: "would be fine", matchType: "EXACT" } } } },
      ],
    });
    expect(bad.status).toBe(400);
    const errs = errorOf(bad);
    expect(errs.map((e) => e.errorCode)).toEqual([{ adGroupError: "MISSING_ADGROUP_NAME" }, { newResourceCreationError: "TEMP_ID_RESOURCE_HAD_ERRORS" }]);
    expect(errs[1].location.fieldPathElements.slice(0, 2)).toEqual([
      { fieldName: "mutate_operations", index: 1 },
      { fieldName: "ad_group_criterion_operation" },
    ]);
    expect(store.version).toBe(before);

    const dup = await mutate("googleAds", {
      mutateOperations: [
        { campaignBudgetOperation: { create: { resourceName: `${c}/campaignBudgets/-9`, name: "Dup A", amountMicros: "1000000" } } },
        { campaignBudgetOperation: { create: { resourceName: `${c}/campaignBudgets/-9`, name: "Dup B", amountMicros: "1000000" } } },
      ],
    });
    expect(errorOf(dup)[0].errorCode).toEqual({ newResourceCreationError: "DUPLICATE_TEMP_IDS" });

    const partial = await mutate("googleAds", {
      partialFailure: true,
      mutateOperations: [
        { adGroupCriterionOperation: { create: { adGroup: g.adGroup.resourceName, keyword: { text: "x".repeat(81), matchType: "EXACT" } } } },
        { adGroupCriterionOperation: { create: { adGroup: g.adGroup.resourceName, keyword: { text: "gA partial ok", matchType: "EXACT" } } } },
      ],
    });
    expect(partial.status).toBe(200);
    expect(partial.json.mutateOperationResponses[0]).toEqual({});
    expect(partial.json.mutateOperationResponses[1].adGroupCriterionResult.resourceName).toMatch(/adGroupCriteria/);
    expect(partial.json.partialFailureError.details[0].errors[0].location.fieldPathElements[0]).toEqual({ fieldName: "mutate_operations", index: 0 });
  });
});

describe("change_event", () => {
  const Q = (where: string, limit = "LIMIT 1000") =>
    `SELECT change_event.resource_name, change_event.change_date_time, change_event.change_resource_type, change_event.change_resource_name, change_event.client_type, change_event.user_email, change_event.old_resource, change_event.new_resource, change_event.resource_change_operation, change_event.changed_fields, change_event.campaign, change_event.ad_group FROM change_event WHERE ${where} ORDER BY change_event.change_date_time ${limit}`;

  it("the demo store carries deterministic outside changes from the last 30 days", async () => {
    const rows = await search(Q("change_event.change_date_time >= '2026-10-24' AND change_event.change_date_time <= '2026-11-22 00:00:00'"));
    const outside = rows.filter((r) => r.changeEvent.clientType !== "GOOGLE_ADS_API");
    expect(new Set(outside.map((r) => r.changeEvent.clientType))).toEqual(
      new Set(["GOOGLE_ADS_WEB_CLIENT", "GOOGLE_ADS_SCRIPTS", "GOOGLE_ADS_RECOMMENDATIONS"]),
    );
    for (const r of outside) {
      expect(r.changeEvent.changeDateTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
      expect(r.changeEvent.resourceName).toMatch(new RegExp(`^customers/${RICH}/changeEvents/\\d+~0~0$`));
      expect(r.changeEvent.userEmail).toBeTruthy();
    }
    // Seeded rows come first in the store, so a fresh store must reproduce them exactly.
    const fresh = createDemoStore({ today: TODAY });
    const seeded = fresh.account(RICH)!.changeEvents.map((e) => e.data);
    expect(seeded.length).toBeGreaterThanOrEqual(5);
    expect(
      store
        .account(RICH)!
        .changeEvents.slice(0, seeded.length)
        .map((e) => e.data),
    ).toEqual(seeded);
    expect(fresh.account(SMALL)!.changeEvents.length).toBeGreaterThan(0);
  });

  it("API writes are queryable with Google's rules", async () => {
    const rows = await search(Q("change_event.change_date_time >= '2026-11-22 00:00:00' AND change_event.change_date_time <= '2026-11-22 23:59:59'"));
    const api = rows.filter((r) => r.changeEvent.clientType === "GOOGLE_ADS_API");
    expect(api.length).toBeGreaterThan(5);
    const create = api.find((r) => r.changeEvent.changeResourceType === "AD_GROUP_CRITERION" && r.changeEvent.resourceChangeOperation === "CREATE")!;
    expect(create.changeEvent.newResource.adGroupCriterion.keyword.text).toBeTruthy();
    expect(create.changeEvent.oldResource).toEqual({ adGroupCriterion: {} });
    expect(create.changeEvent.changedFields).toContain("keyword.text");
    expect(create.changeEvent.adGroup).toMatch(/adGroups\/\d+$/);
    expect(create.changeEvent.campaign).toMatch(/campaigns\/\d+$/);
    const limited = await search(
      Q("change_event.change_date_time >= '2026-11-22 00:00:00' AND change_event.change_date_time <= '2026-11-22 23:59:59'", "LIMIT 2"),
    );
    expect(limited).toHaveLength(2);

    const noLimit = await ads(running.baseUrl, `customers/${RICH}/googleAds:search`, token, {
      body: { query: Q("change_event.change_date_time >= '2026-11-01' AND change_event.change_date_time <= '2026-11-22'", "") },
      headers: { "login-customer-id": MANAGER },
    });
    expect(errorOf(noLimit)[0].errorCode).toEqual({ changeEventError: "LIMIT_NOT_SPECIFIED" });
    const tooOld = await ads(running.baseUrl, `customers/${RICH}/googleAds:search`, token, {
      body: { query: Q("change_event.change_date_time >= '2026-09-01' AND change_event.change_date_time <= '2026-11-22'") },
      headers: { "login-customer-id": MANAGER },
    });
    expect(errorOf(tooOld)[0].errorCode).toEqual({ changeEventError: "START_DATE_TOO_OLD" });
  });
});
