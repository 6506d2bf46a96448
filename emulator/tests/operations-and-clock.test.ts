import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_RICH_CUSTOMER_ID, DEMO_MANAGER_CUSTOMER_ID } from "../ads";
import { ads, signIn, startDemoEmulator, type Running } from "./helpers";
import type { AdsStore } from "../ads/store/store";
import { formatDay, parseDay } from "../ads/util/dates";

// Operations counted as Google counts them, Google's daily cap, the clock that moves on with new
// days of metrics, and change_status drawn from the same journal as change_event.

const FAILURE = "type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure";
const TODAY = "2026-11-22";

const CID = DEMO_RICH_CUSTOMER_ID;
const LOGIN = { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID };

let emu: Running & { store: AdsStore };
let token: string;
beforeAll(async () => {
  emu = await startDemoEmulator({ today: TODAY, options: { enableAdmin: true } });
  token = (await signIn(emu.baseUrl)).tokens.access_token;
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.emulator.state.resetOperations();
  emu.emulator.state.setDailyOperations(undefined);
});

const stream = (query: string) => ads(emu.baseUrl, `customers/${CID}/googleAds:searchStream`, token, { body: { query }, headers: LOGIN });
const search = (query: string, pageToken?: string) =>
  ads(emu.baseUrl, `customers/${CID}/googleAds:search`, token, { body: { query, ...(pageToken ? { pageToken } : {}) }, headers: LOGIN });
const mutate = (operations: unknown[]) => ads(emu.baseUrl, `customers/${CID}/campaigns:mutate`, token, { body: { operations }, headers: LOGIN });
const campaigns = async () =>
  (await stream("SELECT campaign.id, campaign.status FROM campaign")).json[0].results as Array<{ campaign: { id: string; status: string } }>;

describe("operations, as Google counts them", () => {
  it("one per search or searchStream request however many rows, one per mutate operation, refused requests too", async () => {
    const big = await stream("SELECT ad_group_criterion.criterion_id FROM ad_group_criterion");
    expect(big.status).toBe(200);
    expect(big.json[0].results.length).toBeGreaterThan(100);
    expect(emu.emulator.state.operations()).toMatchObject({ last24h: 1, total: 1 });

    // search pages: one request (and operation) per page.
    const q = "SELECT keyword_view.resource_name, segments.date, metrics.clicks FROM keyword_view WHERE segments.date DURING LAST_30_DAYS";
    const first = await search(q);
    expect(first.json.nextPageToken).toBeTruthy();
    await search(q, first.json.nextPageToken as string);
    expect(emu.emulator.state.operations().operations.search).toBe(2);

    const [a, b] = await campaigns();
    const ops = [a, b, a].map((c) => ({
      update: { resourceName: `customers/${CID}/campaigns/${c.campaign.id}`, name: `Renamed ${c.campaign.id}` },
      updateMask: "name",
    }));
    expect((await mutate(ops)).status).toBe(200);
    expect(emu.emulator.state.operations().operations.mutate).toBe(3);

    // A bad query is refused and still counts.
    expect((await stream("SELECT campaign.nope FROM campaign")).status).toBe(400);
    expect((await ads(emu.baseUrl, "customers:listAccessibleCustomers", token)).status).toBe(200);
    expect(emu.emulator.state.operations()).toMatchObject({
      last24h: 1 + 2 + 1 + 3 + 1 + 1,
      requests: { searchStream: 3, search: 2, mutate: 1, listAccessibleCustomers: 1 },
    });
    // Unauthenticated requests never reach the API: not counted.
    expect((await ads(emu.baseUrl, `customers/${CID}/googleAds:search`, "not-a-token", { body: { query: q } })).status).toBe(401);
    expect(emu.emulator.state.operations().total).toBe(9);
  });

  it("EMULATOR_DAILY_OPERATIONS: Google's daily-cap error once the rolling 24 h are full, with the delay until room frees", async () => {
    emu.emulator.state.setDailyOperations(4);
    for (let i = 0; i < 3; i++) expect((await stream("SELECT campaign.id FROM campaign")).status).toBe(200);
    emu.store.clock.advance(3_600_000);
    const [c] = await campaigns(); // the 4th: fits exactly
    // A mutate of two operations does not fit in what is left (none).
    const refused = await mutate([{ update: { resourceName: `customers/${CID}/campaigns/${c.campaign.id}`, name: "x" }, updateMask: "name" }]);
    expect(refused.status).toBe(429);
    // 23 h after the first three requests the window frees them: Google says when.
    const seconds = 23 * 3600;
    expect(refused.json).toEqual({
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": FAILURE,
            errors: [
              {
                errorCode: { quotaError: "RESOURCE_EXHAUSTED" },
                message: `Too many requests. Retry in ${seconds} seconds.`,
                details: { quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Number of operations for explorer access", retryDelay: `${seconds}s` } },
              },
            ],
            requestId: refused.headers.get("request-id"),
          },
        ],
      },
    });
    // searchStream errors are array-wrapped; the refused requests counted too.
    const wrapped = await stream("SELECT campaign.id FROM campaign");
    expect(wrapped.status).toBe(429);
    expect(wrapped.json[0].error.details[0].errors[0].errorCode).toEqual({ quotaError: "RESOURCE_EXHAUSTED" });
    expect(emu.emulator.state.operations().last24h).toBe(6);
    // A day later the window is empty again.
    emu.store.clock.advance(24 * 3_600_000);
    expect((await stream("SELECT campaign.id FROM campaign")).status).toBe(200);
  });

  it("GET and DELETE /__emulator/operations (admin)", async () => {
    await stream("SELECT campaign.id FROM campaign");
    const report = await fetch(`${emu.baseUrl}/__emulator/operations`).then((r) => r.json());
    expect(report).toMatchObject({ last24h: 1, total: 1, dailyLimit: null, requests: { searchStream: 1 } });
    const cleared = await fetch(`${emu.baseUrl}/__emulator/operations`, { method: "DELETE" }).then((r) => r.json());
    expect(cleared).toMatchObject({ last24h: 0, total: 0 });
  });
});

describe("the clock", () => {
  const daily = (from: string, to: string) =>
    stream(
      `SELECT campaign.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM campaign WHERE segments.date BETWEEN '${from}' AND '${to}'`,
    );
  const byDay = (rows: Array<{ campaign: { id: string }; segments: { date: string }; metrics: Record<string, string> }>) =>
    new Map(rows.map((r) => [`${r.campaign.id} ${r.segments.date}`, r.metrics]));

  it("moves forward by POST /__emulator/clock; new days of metrics appear, repeating the weekday before; past days stay", async () => {
    const day = (offset: number) => formatDay(emu.store.todayFor(CID) + offset);
    const [from, to] = [day(-20), day(5)];
    const yesterday = day(-1);
    const before = byDay((await daily(from, to)).json[0].results);
    expect([...before.keys()].some((k) => k.endsWith(yesterday))).toBe(true);
    expect([...before.keys()].some((k) => k.endsWith(day(0)))).toBe(false);

    const moved = await fetch(`${emu.baseUrl}/__emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ days: 2 }),
    });
    expect(moved.status).toBe(200);
    expect(day(-1)).toBe(formatDay(parseDay(yesterday)! + 2));
    const after = byDay((await daily(from, to)).json[0].results);
    for (const [key, metrics] of before) expect(after.get(key), key).toEqual(metrics);
    const newDays = [...after.keys()].filter((k) => !before.has(k));
    expect(newDays.length).toBeGreaterThan(0);
    expect(new Set(newDays.map((k) => k.slice(-10)))).toEqual(new Set([day(-2), day(-1)]));
    // Each repeats the same weekday a week before; today is never in the data.
    for (const key of newDays) {
      const date = key.slice(-10);
      expect(after.get(key), key).toEqual(before.get(`${key.slice(0, -10)}${formatDay(parseDay(date)! - 7)}`));
    }
    expect([...after.keys()].some((k) => k.endsWith(day(0)))).toBe(false);
  });

  it("refuses to move backwards or without a clock-able store", async () => {
    const back = await fetch(`${emu.baseUrl}/__emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ to: "2020-01-01T00:00:00Z" }),
    });
    expect(back.status).toBe(400);
    const bad = await fetch(`${emu.baseUrl}/__emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ days: -1 }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("change_status", () => {
  const statusQuery = (from: string, to: string, limit = 10_000) =>
    `SELECT change_status.resource_name, change_status.last_change_date_time, change_status.resource_type, change_status.resource_status,
      change_status.campaign, change_status.ad_group, change_status.ad_group_criterion, change_status.ad_group_ad,
      change_status.campaign_budget, change_status.campaign_criterion
     FROM change_status WHERE change_status.last_change_date_time BETWEEN '${from}' AND '${to}' LIMIT ${limit}`;
  const eventsQuery = (from: string, to: string) =>
    `SELECT change_event.change_date_time, change_event.change_resource_name, change_event.change_resource_type
     FROM change_event WHERE change_event.change_date_time BETWEEN '${from}' AND '${to}' LIMIT 10000`;

  it("one row per changed resource, its latest change_event, consistent with the journal", async () => {
    const now = emu.store.now();
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const [a, b] = await campaigns();
    const rename = (c: { campaign: { id: string } }, name: string) => ({
      update: { resourceName: `customers/${CID}/campaigns/${c.campaign.id}`, name },
      updateMask: "name",
    });
    expect((await mutate([rename(a, "First"), rename(b, "Second")])).status).toBe(200);
    expect((await mutate([{ update: { resourceName: `customers/${CID}/campaigns/${a.campaign.id}`, status: "PAUSED" }, updateMask: "status" }])).status).toBe(
      200,
    );

    const status = await stream(statusQuery(day(-29), day(1)));
    expect(status.status).toBe(200);
    const rows = status.json[0].results as Array<{ changeStatus: Record<string, string> }>;
    const events = (await stream(eventsQuery(day(-29), day(1)))).json[0].results as Array<{ changeEvent: Record<string, string> }>;
    // Every resource change_event names appears once, with its latest time.
    const latest = new Map<string, string>();
    for (const { changeEvent: e } of events)
      if ((latest.get(e.changeResourceName) ?? "") < e.changeDateTime) latest.set(e.changeResourceName, e.changeDateTime);
    // The field named after the resource type holds the resource's name (AD_GROUP_AD → adGroupAd).
    const named = (s: Record<string, string>) => s[s.resourceType.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
    expect(new Map(rows.map(({ changeStatus: s }) => [named(s), s.lastChangeDateTime]))).toEqual(latest);
    const first = rows.find(({ changeStatus: s }) => s.resourceType === "CAMPAIGN" && s.campaign === `customers/${CID}/campaigns/${a.campaign.id}`);
    expect(first?.changeStatus).toMatchObject({ resourceStatus: "CHANGED" });

    // Only changes after a time: what an incremental refresh asks for.
    const since = latest.get(`customers/${CID}/campaigns/${b.campaign.id}`)!;
    const recent = await stream(statusQuery(since.slice(0, 19), day(1)));
    expect((recent.json[0].results as Array<{ changeStatus: Record<string, string> }>).map((r) => named(r.changeStatus)).sort()).toEqual(
      [...latest]
        .filter(([, at]) => at >= since.slice(0, 19))
        .map(([name]) => name)
        .sort(),
    );
  });

  it("Google's rules: a LIMIT up to 10,000 and a finite range", async () => {
    const noLimit = await stream("SELECT change_status.resource_name FROM change_status WHERE change_status.last_change_date_time >= '2026-11-20'");
    expect(noLimit.status).toBe(400);
    expect(noLimit.json[0].error.details[0].errors[0].errorCode).toEqual({ changeStatusError: "LIMIT_NOT_SPECIFIED" });
    const open = await stream("SELECT change_status.resource_name FROM change_status WHERE change_status.last_change_date_time >= '2026-11-20' LIMIT 10");
    expect(open.json[0].error.details[0].errors[0].errorCode).toEqual({ changeStatusError: "CHANGE_DATE_RANGE_INFINITE" });
    const tooMany = await stream(statusQuery("2026-11-20", "2026-11-23", 10_001));
    expect(tooMany.json[0].error.details[0].errors[0].errorCode).toEqual({ changeStatusError: "INVALID_LIMIT_CLAUSE" });
  });
});
