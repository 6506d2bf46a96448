import { describe, it, expect } from "vitest";
import type { AdsDataSource } from "../contract";
import { queryBatches, STREAM_BATCH_SIZE } from "./datasource";
import { demoSource, failure, RICH, type Row } from "../test/helpers";

const ds = demoSource();
const KW =
  "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, metrics.clicks FROM keyword_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.clicks DESC, ad_group_criterion.criterion_id";
const BIG = "SELECT ad_group_criterion.criterion_id, segments.date, metrics.impressions FROM keyword_view WHERE segments.date DURING LAST_30_DAYS";

describe("search paging", () => {
  it("defaults to 10,000-row pages and omits nextPageToken on the last page", () => {
    const first = ds.query(RICH, BIG);
    expect(first.results).toHaveLength(10_000);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const small = ds.query(RICH, "SELECT campaign.id FROM campaign");
    expect(small.nextPageToken).toBeUndefined();
    expect(small.queryResourceConsumption).toMatch(/^\d+$/);
  });

  it("pages concatenate to the full result in order", () => {
    const full = ds.query(RICH, KW).results;
    const paged: Row[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const p = ds.query(RICH, KW, { pageSize: 250, pageToken: token });
      paged.push(...(p.results as Row[]));
      token = p.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(Math.ceil(full.length / 250));
    expect(paged).toEqual(full);
  });

  it("page tokens are opaque but stable", () => {
    const a = ds.query(RICH, KW, { pageSize: 100 });
    const b = ds.query(RICH, KW, { pageSize: 100 });
    expect(a.nextPageToken).toBe(b.nextPageToken);
    expect(a.nextPageToken).not.toContain("SELECT");
    const next = ds.query(RICH, KW, { pageSize: 100, pageToken: a.nextPageToken });
    expect(next.results[0]).toEqual(ds.query(RICH, KW).results[100]);
  });

  it("rejects malformed tokens and tokens from another query", () => {
    expect(failure(() => ds.query(RICH, KW, { pageToken: "garbage" })).errorCode).toEqual({ requestError: "INVALID_PAGE_TOKEN" });
    const t = ds.query(RICH, KW, { pageSize: 10 }).nextPageToken;
    expect(failure(() => ds.query(RICH, "SELECT campaign.id FROM campaign", { pageToken: t })).errorCode).toEqual({ requestError: "INVALID_PAGE_TOKEN" });
  });

  it("returns totalResultsCount (ignoring LIMIT) only when asked", () => {
    const all = ds.query(RICH, "SELECT ad_group.id FROM ad_group").results.length;
    const p = ds.query(RICH, "SELECT ad_group.id FROM ad_group LIMIT 5", { returnTotalResultsCount: true });
    expect(p.results).toHaveLength(5);
    expect(p.totalResultsCount).toBe(String(all));
    expect(ds.query(RICH, "SELECT ad_group.id FROM ad_group LIMIT 5").totalResultsCount).toBeUndefined();
  });

  it("an empty result has no results rows but keeps the field mask", () => {
    const p = ds.query(RICH, "SELECT campaign.id FROM campaign WHERE campaign.name = 'nope'");
    expect(p.results).toEqual([]);
    expect(p.fieldMask).toBe("campaign.id");
    expect(p.nextPageToken).toBeUndefined();
  });

  it("sees writes: cached results are keyed by the store version", () => {
    const q = "SELECT campaign.id, campaign.status FROM campaign WHERE campaign.name = 'Search | Tents'";
    const before = ds.query(RICH, q).results[0] as Row;
    expect(before.campaign.status).toBe("ENABLED");
    const store = ds.store;
    expect(store.update(before.campaign.resourceName, { status: "PAUSED" })).toBe(true);
    expect((ds.query(RICH, q).results[0] as Row).campaign.status).toBe("PAUSED");
    store.update(before.campaign.resourceName, { status: "ENABLED" });
    expect((ds.query(RICH, q).results[0] as Row).campaign.status).toBe("ENABLED");
  });
});

describe("searchStream batches", () => {
  it("splits into batches of at most 10,000 rows; consumption only on the last", () => {
    const batches = [...ds.queryBatches(RICH, BIG)];
    const total = ds.query(RICH, BIG, { returnTotalResultsCount: true }).totalResultsCount;
    expect(batches.length).toBe(Math.ceil(Number(total) / STREAM_BATCH_SIZE));
    expect(batches.length).toBeGreaterThan(1);
    batches.forEach((b, i) => {
      expect(b.fieldMask).toBe("adGroupCriterion.criterionId,segments.date,metrics.impressions");
      expect(b.results?.length).toBeLessThanOrEqual(STREAM_BATCH_SIZE);
      if (i < batches.length - 1) {
        expect(b.results).toHaveLength(STREAM_BATCH_SIZE);
        expect(b.queryResourceConsumption).toBeUndefined();
      } else expect(b.queryResourceConsumption).toMatch(/^\d+$/);
    });
    const streamed = batches.flatMap((b) => b.results ?? []);
    const paged = [...ds.query(RICH, BIG).results, ...ds.query(RICH, BIG, { pageToken: ds.query(RICH, BIG).nextPageToken }).results];
    expect(streamed.slice(0, paged.length)).toEqual(paged);
  });

  it("validates eagerly: errors are thrown before any batch is consumed", () => {
    expect(failure(() => ds.queryBatches(RICH, "SELECT campaign.nope FROM campaign")).errorCode).toEqual({ queryError: "UNRECOGNIZED_FIELD" });
    expect(failure(() => queryBatches(ds, RICH, "SELECT campaign.id FROM campaign WHERE segments.date DURING LAST_90_DAYS")).errorCode).toEqual({
      queryError: "INVALID_VALUE_WITH_DURING_OPERATOR",
    });
  });

  it("an empty stream is one batch with the field mask and no results", () => {
    expect([...ds.queryBatches(RICH, "SELECT campaign.id FROM campaign WHERE campaign.id = 1")]).toEqual([
      { fieldMask: "campaign.id", queryResourceConsumption: expect.any(String) },
    ]);
  });

  it("queryBatches() also streams any plain AdsDataSource by paging it", () => {
    const plain: AdsDataSource = {
      accessibleCustomerIds: (e) => ds.accessibleCustomerIds(e),
      canAccess: (e, c, l) => ds.canAccess(e, c, l),
      customerExists: (c) => ds.customerExists(c),
      query: (c, g, o) => ds.query(c, g, o),
    };
    const viaPages = [...queryBatches(plain, RICH, BIG)];
    const native = [...ds.queryBatches(RICH, BIG)];
    expect(viaPages.map((b) => b.results?.length)).toEqual(native.map((b) => b.results?.length));
    expect(viaPages.flatMap((b) => b.results ?? [])).toEqual(native.flatMap((b) => b.results ?? []));
  });
});
