import { describe, expect, it } from "vitest";
import { parseCampaignListQuery, parseDetailTab, parseRangeQuery, presetLinks, rangeFormHidden, rangeOnly, resolveRange } from "./report-query";

const Y = "2026-11-21";
const q = (s: string) => new URLSearchParams(s);

describe("resolveRange", () => {
  it("defaults to the last 30 days ending yesterday", () => {
    expect(resolveRange(q(""), Y)).toEqual({ range: { from: "2026-10-23", to: Y }, presetId: "30d", notice: null });
  });
  it("reads presets and custom ranges, recognising a custom range that equals a preset", () => {
    expect(resolveRange(q("range=7d"), Y)).toEqual({ range: { from: "2026-11-15", to: Y }, presetId: "7d", notice: null });
    expect(resolveRange(q("range=90d"), Y).range.from).toBe("2026-08-24");
    expect(resolveRange(q("from=2026-11-01&to=2026-11-10"), Y)).toEqual({
      range: { from: "2026-11-01", to: "2026-11-10" },
      presetId: null,
      notice: null,
    });
    expect(resolveRange(q("from=2026-11-15&to=2026-11-21"), Y).presetId).toBe("7d");
    // Today is allowed (partial), tomorrow is not.
    expect(resolveRange(q("from=2026-11-20&to=2026-11-22"), Y).notice).toBeNull();
  });
  it("falls back to the default with a notice for anything malformed", () => {
    for (const bad of [
      "from=2026-11-10",
      "to=2026-11-10",
      "from=2026-11-10&to=2026-11-01",
      "from=nope&to=2026-11-01",
      "from=2026-02-30&to=2026-03-01",
      "from=2026-11-20&to=2026-11-23",
      "from=2020-01-01&to=2026-11-01",
      "range=14d",
    ]) {
      const r = resolveRange(q(bad), Y);
      expect(r.range, bad).toEqual({ from: "2026-10-23", to: Y });
      expect(r.notice, bad).toMatch(/showing the last 30 days/i);
    }
    expect(resolveRange(q("from=2026-11-10&to=2026-11-01"), Y).notice).toMatch(/start date must be on or before/);
  });
});

describe("parseRangeQuery (the API's strict reading)", () => {
  it("says what is wrong instead of falling back", () => {
    expect(parseRangeQuery(q("from=2026-11-01"), Y)).toEqual({ ok: false, error: "Choose both a start and an end date (YYYY-MM-DD)." });
    expect(parseRangeQuery(q("from=2026-11-01&to=2026-11-30"), Y)).toEqual({ ok: false, error: "The date range cannot end in the future." });
    expect(parseRangeQuery(q("from=x&to=2026-11-01"), Y)).toEqual({ ok: false, error: "Enter a date as YYYY-MM-DD." });
    expect(parseRangeQuery(q(""), Y)).toEqual({ ok: true, range: { from: "2026-10-23", to: Y }, presetId: "30d" });
  });
});

describe("range links", () => {
  it("keeps the rest of the query, drops the page and the old range", () => {
    const links = presetLinks("/campaigns", "sort=cost&page=3&from=2026-11-01&to=2026-11-02", null);
    expect(links.map((l) => [l.label, l.href, l.current])).toEqual([
      ["Last 7 days", "/campaigns?sort=cost&range=7d", false],
      ["Last 30 days", "/campaigns?sort=cost", false],
      ["Last 90 days", "/campaigns?sort=cost&range=90d", false],
    ]);
    expect(rangeOnly("sort=cost&range=7d&token=t").toString()).toBe("range=7d");
    expect(rangeFormHidden("sort=cost&page=3&range=7d&q=tent")).toEqual([
      ["sort", "cost"],
      ["q", "tent"],
    ]);
  });
});

describe("parseCampaignListQuery", () => {
  it("has defaults: cost, biggest first, all statuses, page 1 of 50", () => {
    expect(parseCampaignListQuery(q(""))).toEqual({
      query: { sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50 },
      ignored: [],
    });
  });
  it("reads every field; text columns sort A→Z by default", () => {
    expect(parseCampaignListQuery(q("sort=name&status=PAUSED&q=%20tent%20&page=2&pageSize=10")).query).toEqual({
      sort: "name",
      dir: "asc",
      status: "paused",
      q: "tent",
      page: 2,
      pageSize: 10,
    });
    expect(parseCampaignListQuery(q("sort=ctr&dir=asc")).query).toMatchObject({ sort: "ctr", dir: "asc" });
  });
  it("ignores bad values one by one and names them", () => {
    const { query, ignored } = parseCampaignListQuery(q(`sort=drop+table&dir=up&status=zombie&page=-1&pageSize=7&q=${"x".repeat(101)}`));
    expect(query).toEqual({ sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50 });
    expect(ignored).toEqual(["sort column", "sort direction", "status filter", "search (at most 100 characters)", "page number", "page size"]);
    expect(parseCampaignListQuery(q("page=1.5")).ignored).toEqual(["page number"]);
  });
});

describe("parseDetailTab", () => {
  it("defaults to ad groups and ignores unknown tabs", () => {
    expect(parseDetailTab(q(""))).toEqual({ tab: "adgroups", ignored: false });
    expect(parseDetailTab(q("tab=ads"))).toEqual({ tab: "ads", ignored: false });
    expect(parseDetailTab(q("tab=x"))).toEqual({ tab: "adgroups", ignored: true });
  });
});
