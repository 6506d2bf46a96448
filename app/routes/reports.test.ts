// @vitest-environment node
// Loaders and actions of the report pages and the report API, called with real
// Requests against a real database filled by a real sync from the emulator.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../tests/setup/test-db";
import routes from "../routes";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../tests/support/emulator-harness";
import { getSyncState, syncAccount } from "../server/ads/sync.server";
import { SYNC_NOW_LIMIT, startFirstSync } from "../server/sync-status.server";
import { consumeLimit } from "../server/limits/limiter.server";
import { commitSessionCookie, createSession } from "../server/auth/session.server";
import { documented } from "../../tests/support/api-doc";
import { loader as campaignsRoute } from "./api/account-campaigns";
import { loader as summaryRoute } from "./api/account-summary";
import { action as syncApiRoute, loader as syncStateRoute } from "./api/account-sync";
import { loader as openApi } from "./api/openapi";
import { loader as detailLoader } from "./campaign-detail";
import { loader as campaignTabCsv } from "./export/campaign-tab";
import { loader as campaignsCsv } from "./export/campaigns";
import { action as campaignsAction, loader as campaignsLoader } from "./campaigns";
import { loader as dashboardLoader } from "./dashboard";
import { action as syncAction, loader as syncLoader } from "./sync";
import { routeArgs, signedInArgs } from "../../tests/support/route-args";

// Every API response these tests read is checked against the OpenAPI document.
const campaignsApi = documented(campaignsRoute);
const summaryApi = documented(summaryRoute);
const syncApiAction = documented(syncApiRoute);
const syncApi = documented(syncStateRoute);

let emu: RunningEmulator;
let t: TestContext;
let demoUserId: string;
let demo: { cookie: string; token: string };
let stranger: { cookie: string; token: string };
let firstVisit: Awaited<ReturnType<typeof campaignsLoader>>;

async function sessionFor(userId: string) {
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  const cookie = (await commitSessionCookie(session)).split(";")[0];
  return { cookie, token: session.accessToken };
}

const args = routeArgs;
// A screen's loader or action, after the signed-in layout's middleware.
const pageArgs = signedInArgs;
const page = (path: string, who = demo) => new Request(`http://localhost:3000${path}`, { headers: { Cookie: who.cookie } });
const api = (path: string, who: { token: string } | null = demo, init: RequestInit = {}) =>
  new Request(`http://localhost:3000/api/v1${path}`, { ...init, headers: who ? { Authorization: `Bearer ${who.token}` } : {} });

/** A route's result as a client sees it: status and body. */
async function read(result: unknown): Promise<{ status: number; body: unknown; headers: Headers }> {
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, body: text ? JSON.parse(text) : null, headers: result.headers };
  }
  const r = result as { data: unknown; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
}

/** The status of what a loader throws (a redirect Response or a data() 404). */
async function thrownStatus(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    return (thrown as { init?: { status?: number } }).init?.status ?? -1;
  }
  throw new Error("expected the loader to throw");
}

beforeAll(async () => {
  emu = await startEmulator();
  t = await setupTestEnvironment(emu.env);
  demoUserId = await connectDemoUser(emu.baseUrl);
  demo = await sessionFor(demoUserId);
  const strangerId = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
  stranger = await sessionFor(strangerId);
  // The Google callback starts the first sync (pages never do); the first page view shows its progress.
  await startFirstSync(demoUserId);
  firstVisit = await campaignsLoader(await pageArgs(page("/campaigns")));
  await syncAccount(demoUserId, DEMO_RICH_CUSTOMER_ID);
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("first visit", () => {
  it("shows the import in progress instead of an empty table", () => {
    expect(firstVisit.connected).toBe(true);
    if (!firstVisit.connected) return;
    expect(firstVisit.firstSync).toBe(true);
    expect(firstVisit.sync.status).toBe("running");
    expect(firstVisit.sync.progressTotal).toBeGreaterThan(0);
    expect(firstVisit.list.rows).toEqual([]);
  });
});

describe("unconnected user", () => {
  it("gets the seed's screens and no campaign pages", async () => {
    expect(await dashboardLoader(await pageArgs(page("/dashboard", stranger)))).toEqual({ connected: false });
    expect(await campaignsLoader(await pageArgs(page("/campaigns", stranger)))).toEqual({ connected: false });
    expect(await thrownStatus(async () => detailLoader(await pageArgs(page("/campaigns/17000000008", stranger), { campaignId: "17000000008" })))).toBe(404);
  });

  it("is sent to /login when signed out", async () => {
    expect(await thrownStatus(async () => campaignsLoader(await pageArgs(new Request("http://localhost:3000/campaigns"))))).toBe(302);
  });
});

describe("campaigns page", () => {
  async function load(query = "") {
    const result = await campaignsLoader(await pageArgs(page(`/campaigns${query}`)));
    if (!result.connected) throw new Error("expected a connected page");
    return result;
  }

  it("lists every campaign for the last 30 days ending yesterday, costliest first, with totals", async () => {
    const p = await load();
    expect(p.firstSync).toBe(false);
    expect(p.sync.status).toBe("ok");
    expect(p.account).toMatchObject({ customerId: DEMO_RICH_CUSTOMER_ID, currencyCode: "USD", timeZone: "America/New_York" });
    expect(p.presetId).toBe("30d");
    expect(p.list.total).toBe(14);
    expect(p.list.rows).toHaveLength(14);
    const costs = p.list.rows.map((r) => r.metrics.costMicros);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(p.list.totals.clicks).toBe(p.list.rows.reduce((s, r) => s + r.metrics.clicks, 0));
    expect(p.query).toEqual({ sort: "cost", dir: "desc", status: "all", q: "", page: 1, pageSize: 50 });
    expect(p.queryNotice).toBeNull();
    expect(p.rangeNotice).toBeNull();
  });

  it("filters by status and name, sorts, and pages", async () => {
    const paused = await load("?status=paused");
    expect(paused.list.rows.map((r) => r.name).sort()).toEqual(["Search | Ski & Snow", "Search | Trail Running"]);
    const tents = await load("?q=TENTS");
    expect(tents.list.rows.map((r) => r.name)).toEqual(["Search | Tents"]);
    const byName = await load("?sort=name");
    const names = byName.list.rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const second = await load("?sort=name&pageSize=10&page=2");
    expect(second.list.rows.map((r) => r.name)).toEqual(byName.list.rows.slice(10).map((r) => r.name));
    expect(second.list.totals).toEqual(byName.list.totals);
    const past = await load("?pageSize=10&page=7");
    expect(past.query.page).toBe(2);
  });

  it("narrows the numbers to a preset or custom range", async () => {
    const all = await load();
    const week = await load("?range=7d");
    expect(week.presetId).toBe("7d");
    expect(week.list.totals.impressions).toBeLessThan(all.list.totals.impressions);
    const day = await load(`?from=${week.range.to}&to=${week.range.to}`);
    expect(day.presetId).toBeNull();
    expect(day.range).toEqual({ from: week.range.to, to: week.range.to });
    expect(day.list.totals.impressions).toBeLessThan(week.list.totals.impressions);
  });

  it("falls back with a message for bad query values, never a 500", async () => {
    const p = await load("?sort=%3Bdrop&dir=sideways&status=x&page=abc&pageSize=3&from=2026-02-30&to=2026-03-01");
    expect(p.list.total).toBe(14);
    expect(p.queryNotice).toMatch(/sort column, sort direction, status filter, page number, page size/);
    expect(p.rangeNotice).toMatch(/Showing the last 30 days/);
    expect(p.presetId).toBe("30d");
  });
});

describe("campaigns column chooser", () => {
  const post = (fields: Array<[string, string]>, who = demo) => {
    const body = new URLSearchParams(fields);
    return new Request("http://localhost:3000/campaigns", {
      method: "POST",
      headers: { Cookie: who.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
  };

  it("keeps the chosen columns per user on the server and comes back to the same view", async () => {
    const res = (await campaignsAction(
      await pageArgs(
        post([
          ["intent", "columns"],
          ["returnTo", "/campaigns?status=paused&range=7d"],
          ...["status", "cost", "conversions", "costPerConversion"].map((c) => ["column", c] as [string, string]),
        ]),
      ),
    )) as Response;
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/campaigns?status=paused&range=7d");
    const after = await campaignsLoader(await pageArgs(page("/campaigns")));
    if (!after.connected) throw new Error("expected connected");
    expect(after.hiddenColumns).toEqual([
      "channelType",
      "budget",
      "biddingStrategyType",
      "impressions",
      "clicks",
      "ctr",
      "averageCpc",
      "conversionValuePerCost",
    ]);
    // The download holds the same columns as the table.
    const csv = (await campaignsCsv(await pageArgs(page("/export/campaigns?range=7d")))) as Response;
    expect((await csv.text()).replace(/^\uFEFF/, "").split("\n")[0]).toBe("Campaign ID,Campaign,Status,Cost (USD),Conversions,Cost/conv. (USD)");
    // Another user's view is untouched.
    const theirs = await campaignsLoader(await pageArgs(page("/campaigns", stranger)));
    expect("hiddenColumns" in theirs ? theirs.hiddenColumns : []).toEqual([]);
    // Never an off-site redirect; unknown column names are ignored.
    const evil = (await campaignsAction(
      await pageArgs(
        post([
          ["intent", "columns"],
          ["returnTo", "//evil.example/x"],
          ["column", "nope"],
        ]),
      ),
    )) as Response;
    expect(evil.headers.get("Location")).toBe("/campaigns");
    const all = (await campaignsAction(
      await pageArgs(
        post([
          ["intent", "columns"],
          ...[
            "status",
            "channelType",
            "budget",
            "biddingStrategyType",
            "impressions",
            "clicks",
            "ctr",
            "averageCpc",
            "cost",
            "conversions",
            "costPerConversion",
            "conversionValuePerCost",
          ].map((c) => ["column", c] as [string, string]),
        ]),
      ),
    )) as Response;
    expect(all.status).toBe(303);
    const reset = await campaignsLoader(await pageArgs(page("/campaigns")));
    expect(reset.connected && reset.hiddenColumns).toEqual([]);
  });
});

describe("dashboard", () => {
  it("summarises the account and draws one point per day of the range", async () => {
    const d = await dashboardLoader(await pageArgs(page("/dashboard")));
    if (!d.connected) throw new Error("expected connected");
    const enabled = (await campaignsLoader(await pageArgs(page("/campaigns?status=enabled")))) as Extract<
      Awaited<ReturnType<typeof campaignsLoader>>,
      { connected: true }
    >;
    expect(d.summary.activeCampaigns).toBe(enabled.list.total);
    expect(d.series).toHaveLength(30);
    expect(d.series[29].date).toBe(d.range.to);
    expect(d.series.reduce((s, p) => s + p.costMicros, 0)).toBe(d.summary.metrics.costMicros);
    const q = await dashboardLoader(await pageArgs(page("/dashboard?range=90d")));
    if (!q.connected) throw new Error("expected connected");
    expect(q.series).toHaveLength(90);
    expect(q.previous).toBeNull();
  });

  it("compares with the previous period of the same length on request", async () => {
    const d = await dashboardLoader(await pageArgs(page("/dashboard?range=7d&compare=previous")));
    if (!d.connected || !d.previous) throw new Error("expected a comparison");
    expect(d.compare).toBe(true);
    expect(d.previous.series).toHaveLength(7);
    expect(d.previous.range.to < d.range.from).toBe(true);
    expect(d.previous.series[6].date).toBe(d.previous.range.to);
    expect(d.previous.series.reduce((s, p) => s + p.costMicros, 0)).toBe(d.previous.metrics.costMicros);
    expect(d.previous.metrics.costMicros).toBeGreaterThan(0);
  });
});

describe("campaign detail", () => {
  const tents = "17000000008";
  const detail = async (query: string, who = demo, id = tents) => detailLoader(await pageArgs(page(`/campaigns/${id}${query}`, who), { campaignId: id }));

  const rowsOf = <T extends string>(d: Awaited<ReturnType<typeof detail>>, tab: T) => {
    if (d.opened.tab !== tab) throw new Error(`expected the ${tab} tab, got ${d.opened.tab}`);
    return d.opened.list;
  };

  it("shows the campaign and only the open tab's rows", async () => {
    const d = await detail("");
    expect(d.detail.campaign.name).toBe("Search | Tents");
    expect(d.tab).toBe("adgroups");
    expect(d.opened.tab).toBe("adgroups");
    if (d.opened.tab !== "adgroups") return;
    expect(d.opened.list.rows.map((g) => g.name)).toContain("Family Tents");
    expect(d.detail.counts.keywords).toBeGreaterThan(0);

    const k = await detail("?tab=keywords&range=90d&pageSize=100");
    if (k.opened.tab !== "keywords") throw new Error("keywords");
    expect(k.opened.list.total).toBe(k.detail.counts.keywords);
    const all = [...k.opened.list.rows];
    for (let p = 2; p <= Math.ceil(k.opened.list.total / 100); p++) {
      const next = await detail(`?tab=keywords&range=90d&pageSize=100&page=${p}`);
      if (next.opened.tab === "keywords") all.push(...next.opened.list.rows);
    }
    // The pages together are every keyword exactly once.
    expect(new Set(all.map((kw) => `${kw.adGroupId}~${kw.criterionId}`)).size).toBe(k.detail.counts.keywords);
    const cheap = all.find((kw) => kw.text === "cheap camping tents");
    expect(cheap).toMatchObject({ matchType: "BROAD", adGroupName: "Family Tents" });
    expect(all.some((kw) => kw.qualityScore !== null)).toBe(true);
    // Totals cover every filtered row, not only the page.
    expect(k.opened.list.totals.costMicros).toBe(all.reduce((s, kw) => s + kw.metrics.costMicros, 0));

    const ads = await detail("?tab=ads");
    if (ads.opened.tab !== "ads") throw new Error("ads");
    expect(ads.opened.list.rows.length).toBeGreaterThan(0);
    expect(ads.opened.list.rows[0].headlines.length).toBeGreaterThanOrEqual(3);
    expect(ads.opened.list.rows[0].finalUrls[0]).toMatch(/^https:\/\//);

    const terms = await detail("?tab=searchterms&range=90d&q=free+camping");
    if (terms.opened.tab !== "searchterms") throw new Error("terms");
    expect(terms.opened.list.rows.map((s) => s.searchTerm)).toContain("free camping sites near me");
    expect(terms.opened.list.rows.every((s) => s.searchTerm.includes("free camping"))).toBe(true);
    // The standard metric columns: clicks and cost summed per term.
    expect(terms.opened.list.rows[0].metrics.clicks).toBeGreaterThan(0);

    const bad = await detail("?tab=nope");
    expect(bad.tab).toBe("adgroups");
    expect(bad.tabNotice).toMatch(/Unknown tab/);
  });

  it("sorts, filters and pages each tab in SQL; bad values fall back with a notice", async () => {
    const byText = await detail("?tab=keywords&range=90d&sort=text&pageSize=25");
    const texts = rowsOf(byText, "keywords").rows.map((k) => (k as { text: string }).text.toLowerCase());
    expect(texts).toEqual([...texts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(texts).toHaveLength(25);

    const clicks = await detail("?tab=searchterms&range=90d&sort=clicks&dir=asc");
    const c = rowsOf(clicks, "searchterms").rows.map((t) => (t as { metrics: { clicks: number } }).metrics.clicks);
    expect(c).toEqual([...c].sort((a, b) => a - b));

    const paused = await detail("?tab=keywords&range=90d&status=paused");
    const pausedRows = rowsOf(paused, "keywords").rows as Array<{ status: string }>;
    expect(pausedRows.length).toBeGreaterThan(0);
    expect(pausedRows.every((k) => k.status === "PAUSED")).toBe(true);

    const excluded = await detail("?tab=searchterms&range=90d&status=excluded");
    const ex = rowsOf(excluded, "searchterms").rows as Array<{ status: string }>;
    expect(ex.every((t) => t.status === "EXCLUDED" || t.status === "ADDED_EXCLUDED")).toBe(true);

    // Past the last page: the last page.
    const far = await detail("?tab=keywords&page=999");
    const farList = rowsOf(far, "keywords");
    expect(farList.page).toBe(Math.ceil(farList.total / farList.pageSize));
    expect(far.query.page).toBe(farList.page);

    const wrong = await detail("?tab=searchterms&sort=budget&status=paused&pageSize=7");
    expect(wrong.query).toMatchObject({ sort: "cost", status: "all", pageSize: 50 });
    expect(wrong.tabNotice).toMatch(/Ignored an invalid sort column, status filter, page size/);
  });

  it("downloads the current view as CSV: every page, same filters and order", async () => {
    const parse = (text: string) =>
      text
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n");
    const list = await campaignsLoader(await pageArgs(page("/campaigns?status=paused&range=90d&pageSize=10")));
    if (!list.connected) throw new Error("expected connected");
    const res = (await campaignsCsv(await pageArgs(page("/export/campaigns?status=paused&range=90d")))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="campaigns-1112223334-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = parse(await res.text());
    expect(lines[0]).toBe(
      "Campaign ID,Campaign,Status,Type,Daily budget (USD),Bidding,Impressions,Clicks,CTR (%),Avg. CPC (USD),Cost (USD),Conversions,Cost/conv. (USD),Conv. value/cost",
    );
    expect(lines).toHaveLength(list.list.total + 1);
    expect(lines.slice(1).every((l) => l.split(",")[2] === "Paused")).toBe(true);

    // A tab of 190-odd keywords: every page in one file, filtered and sorted like the page.
    const k = await detail("?tab=keywords&range=90d&sort=text&q=tent");
    if (k.opened.tab !== "keywords") throw new Error("keywords");
    const tab = (await campaignTabCsv(
      await pageArgs(page(`/export/campaigns/${tents}?tab=keywords&range=90d&sort=text&q=tent&page=3`), { campaignId: tents }),
    )) as Response;
    const rows = parse(await tab.text());
    expect(rows).toHaveLength(k.opened.list.total + 1);
    expect(k.opened.list.total).toBeGreaterThan(50);
    expect(rows[1].split(",")[0]).toBe(k.opened.list.rows[0].text);
    expect(rows.slice(1).every((r) => r.toLowerCase().split(",")[0].includes("tent"))).toBe(true);
    expect(await thrownStatus(async () => campaignTabCsv(await pageArgs(page("/export/campaigns/999999?tab=keywords"), { campaignId: "999999" })))).toBe(404);
  });

  it("is a 404 for unknown campaigns, malformed ids and campaigns of an account that is not active", async () => {
    expect(await thrownStatus(() => detail("", demo, "999999"))).toBe(404);
    expect(await thrownStatus(() => detail("", demo, "abc"))).toBe(404);
    expect(await thrownStatus(() => detail("", stranger))).toBe(404);
  });
});

describe("sync endpoints", () => {
  it("GET /sync reports the active account's state to the page that polls", async () => {
    const res = await read(await syncLoader(args(page("/sync"))));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", progressDone: expect.any(Number), progressTotal: expect.any(Number) });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect((await read(await syncLoader(args(page("/sync", stranger))))).status).toBe(404);
    expect((await read(await syncLoader(args(new Request("http://localhost:3000/sync"))))).status).toBe(401);
  });

  it("while a first sync's detail import runs: both status documents say so, and the detail tabs' CSV is refused rather than zeros", async () => {
    const rich = DEMO_RICH_CUSTOMER_ID;
    const tents = "17000000008";
    const done = await getSyncState(rich);
    expect(done.detail.status).toBe("ok");
    // The state stage 1's switch-over leaves while stage 2 beats (the sync tests drive the real thing).
    await t.db
      .updateTable("ads_sync_state")
      .set({ detail_status: "running", detail_step: "Loading search terms", detail_done: 2, heartbeat_at: new Date().toISOString() })
      .where("customer_id", "=", rich)
      .execute();
    try {
      const detail = { status: "running", currentStep: "Loading search terms", lastError: null, progressDone: 2, progressTotal: 4 };
      expect((await read(await syncLoader(args(page("/sync"))))).body).toMatchObject({ status: "ok", lastError: null, detail });
      // documented(): the answer matches the OpenAPI schema.
      expect((await read(await syncApi(args(api(`/accounts/${rich}/sync`), { customerId: rich })))).body).toMatchObject({ status: "ok", detail });
      const csv = (await campaignTabCsv(await pageArgs(page(`/export/campaigns/${tents}?tab=searchterms`), { campaignId: tents }))) as Response;
      expect(csv.status).toBe(409);
      expect(await csv.text()).toMatch(/^Keyword, ad and search-term performance is still importing/);
      const adGroups = (await campaignTabCsv(await pageArgs(page(`/export/campaigns/${tents}?tab=adgroups`), { campaignId: tents }))) as Response;
      expect(adGroups.status).toBe(200);
    } finally {
      await t.db.updateTable("ads_sync_state").set({ detail_status: "ok", detail_step: null, detail_done: 4 }).where("customer_id", "=", rich).execute();
    }
  });

  it("POST /sync starts a sync and returns to a safe local path only", async () => {
    const form = (returnTo: string) =>
      new Request("http://localhost:3000/sync", {
        method: "POST",
        headers: { Cookie: demo.cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ returnTo }),
      });
    const res = (await syncAction(args(form("/campaigns?range=7d")))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/campaigns?range=7d");
    expect(["running", "ok"]).toContain((await getSyncState(DEMO_RICH_CUSTOMER_ID)).status);
    const evil = (await syncAction(args(form("//evil.example/x")))) as Response;
    expect(evil.headers.get("Location")).toBe("/campaigns");
    // Let it finish so the tests below read settled data.
    await syncAccount(demoUserId, DEMO_RICH_CUSTOMER_ID);
  }, 120_000);

  it("Sync now says why it cannot start: Google Ads calls paused (503 and Retry-After in the API), or used up for the hour (429)", async () => {
    const form = new Request("http://localhost:3000/sync", {
      method: "POST",
      headers: { Cookie: demo.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ returnTo: "/campaigns" }),
    });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await t.db
      .insertInto("google_ads_pause")
      .values({ kind: "daily", until, reason: "Google Ads says the daily operations are used up", set_at: new Date().toISOString() })
      .execute();
    try {
      const page = (await syncAction(args(form))) as Response;
      expect(page.status).toBe(302);
      expect(page.headers.get("Location")).toBe("/campaigns");
      expect(page.headers.get("Set-Cookie")).toMatch(/toast=/);
      expect((await getSyncState(DEMO_RICH_CUSTOMER_ID)).status).toBe("ok");
      const paused = await read(
        await syncApiAction(args(api(`/accounts/${DEMO_RICH_CUSTOMER_ID}/sync`, demo, { method: "POST" }), { customerId: DEMO_RICH_CUSTOMER_ID })),
      );
      expect(paused.status).toBe(503);
      expect(Number(paused.headers.get("Retry-After"))).toBeGreaterThan(3000);
      expect((paused.body as { detail: string }).detail).toMatch(/daily operations are used up\. Google Ads calls resume at/);
      // The status document says it too: pages show why nothing is refreshed.
      expect((await read(await syncApi(args(api(`/accounts/${DEMO_RICH_CUSTOMER_ID}/sync`), { customerId: DEMO_RICH_CUSTOMER_ID })))).body).toMatchObject({
        googlePausedUntil: until,
      });
    } finally {
      await t.db.deleteFrom("google_ads_pause").execute();
    }
    // The hour's Sync nows used up (the test above used some already).
    await consumeLimit(SYNC_NOW_LIMIT, DEMO_RICH_CUSTOMER_ID, SYNC_NOW_LIMIT.points).catch(() => undefined);
    const limited = await read(
      await syncApiAction(args(api(`/accounts/${DEMO_RICH_CUSTOMER_ID}/sync`, demo, { method: "POST" }), { customerId: DEMO_RICH_CUSTOMER_ID })),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((limited.body as { detail: string }).detail).toMatch(/Sync now was used 6 times in the last hour/);
    expect((await getSyncState(DEMO_RICH_CUSTOMER_ID)).status).toBe("ok");
  });
});

describe("JSON API", () => {
  const rich = `/accounts/${DEMO_RICH_CUSTOMER_ID}`;

  it("campaigns: every campaign with numeric metrics for the range", async () => {
    const res = await read(await campaignsApi(args(api(`${rich}/campaigns`), { customerId: DEMO_RICH_CUSTOMER_ID })));
    expect(res.status).toBe(200);
    const { campaigns } = res.body as { campaigns: Array<Record<string, unknown>> };
    expect(campaigns).toHaveLength(14);
    expect(campaigns.find((c) => c.name === "Search | Tents")).toEqual({
      id: "17000000008",
      name: "Search | Tents",
      status: "ENABLED",
      channelType: "SEARCH",
      biddingStrategyType: expect.any(String),
      budgetMicros: expect.any(Number),
      metrics: {
        impressions: expect.any(Number),
        clicks: expect.any(Number),
        costMicros: expect.any(Number),
        conversions: expect.any(Number),
        conversionsValue: expect.any(Number),
      },
    });
  });

  it("summary: enabled campaigns and account totals; a range with no data is zeros", async () => {
    const res = await read(await summaryApi(args(api(`${rich}/summary`), { customerId: DEMO_RICH_CUSTOMER_ID })));
    expect(res.status).toBe(200);
    const body = res.body as { activeCampaigns: number; metrics: { clicks: number } };
    expect(body.activeCampaigns).toBeGreaterThan(5);
    expect(body.metrics.clicks).toBeGreaterThan(0);
    const old = await read(await summaryApi(args(api(`${rich}/summary?from=2020-01-01&to=2020-01-31`), { customerId: DEMO_RICH_CUSTOMER_ID })));
    expect(old.body).toEqual({
      activeCampaigns: body.activeCampaigns,
      metrics: { impressions: 0, clicks: 0, costMicros: 0, conversions: 0, conversionsValue: 0 },
    });
  });

  it("400 {detail} for bad or half ranges", async () => {
    for (const q of [
      "from=2026-01-40&to=2026-02-01",
      "from=2026-02-01&to=2026-01-01",
      "to=2026-01-01",
      "from=&to=",
      "from=2020-01-01&to=2022-01-01",
      "from=2999-01-01&to=2999-01-02",
    ]) {
      for (const [handler, path] of [
        [campaignsApi, "campaigns"],
        [summaryApi, "summary"],
      ] as const) {
        const res = await read(await handler(args(api(`${rich}/${path}?${q}`), { customerId: DEMO_RICH_CUSTOMER_ID })));
        expect(res.status, `${path}?${q}`).toBe(400);
        expect(Object.keys(res.body as object)).toEqual(["detail"]);
      }
    }
  });

  it("404 {detail} for another user's account, 401 without a token", async () => {
    for (const [handler, path] of [
      [campaignsApi, "campaigns"],
      [summaryApi, "summary"],
      [syncApi, "sync"],
    ] as const) {
      const res = await read(await handler(args(api(`${rich}/${path}`, stranger), { customerId: DEMO_RICH_CUSTOMER_ID })));
      expect(res).toMatchObject({ status: 404, body: { detail: expect.any(String) } });
      expect((await read(await handler(args(api(`${rich}/${path}`, null), { customerId: DEMO_RICH_CUSTOMER_ID })))).status).toBe(401);
    }
    const post = await read(await syncApiAction(args(api(`${rich}/sync`, stranger, { method: "POST" }), { customerId: DEMO_RICH_CUSTOMER_ID })));
    expect(post.status).toBe(404);
    const bogus = await read(await campaignsApi(args(api(`/accounts/12/campaigns`), { customerId: "12" })));
    expect(bogus.status).toBe(404);
  });

  it("sync: state, and a manager account cannot be synced", async () => {
    const res = await read(await syncApi(args(api(`${rich}/sync`), { customerId: DEMO_RICH_CUSTOMER_ID })));
    expect(res.body).toMatchObject({ status: "ok", lastError: null });
    const manager = await read(await syncApiAction(args(api(`/accounts/1234567890/sync`, demo, { method: "POST" }), { customerId: "1234567890" })));
    expect(manager.status).toBe(400);
  });

  it("syncs an account on its first API request, then answers with its data", async () => {
    expect((await getSyncState(DEMO_SMALL_CUSTOMER_ID)).status).toBe("never");
    const res = await read(await campaignsApi(args(api(`/accounts/${DEMO_SMALL_CUSTOMER_ID}/campaigns`), { customerId: DEMO_SMALL_CUSTOMER_ID })));
    expect(res.status).toBe(200);
    expect((res.body as { campaigns: unknown[] }).campaigns).toHaveLength(3);
  }, 120_000);
});

describe("openapi.json", () => {
  type RouteEntry = { path?: string; children?: RouteEntry[] };
  function apiPaths(entries: RouteEntry[]): string[] {
    return entries.flatMap((e) => [...(e.path?.startsWith("api/v1/") ? [e.path] : []), ...apiPaths(e.children ?? [])]);
  }

  it("describes every /api/v1 route in app/routes.ts, with the bearer scheme", async () => {
    const doc = (await (openApi() as Response).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    const routed = apiPaths(routes as RouteEntry[])
      .filter((p) => p !== "api/v1/*")
      .map((p) => p.replace(/^api\/v1/, "").replace(/:(\w+)/g, "{$1}"));
    expect(routed.length).toBeGreaterThanOrEqual(11);
    expect(Object.keys(doc.paths).sort()).toEqual(routed.sort());
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
  });
});
