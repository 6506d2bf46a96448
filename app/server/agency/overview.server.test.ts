// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency, type ClientSpec } from "../../../tests/support/agency-fixture";
import { routeArgs, signedInArgs } from "../../../tests/support/route-args";
import { documented } from "../../../tests/support/api-doc";
import { commitSessionCookie, createSession } from "../auth/session.server";
import { loader as overviewRoute } from "../../routes/api/accounts-overview";
import { action as accountsAction, loader as accountsLoader } from "../../routes/accounts";
import { loader as accountsCsvLoader } from "../../routes/export/accounts";
import { loader as homeLoader } from "../../routes/home";
import { loader as layoutLoader } from "../../routes/app-layout";
import { accountsOverview, parseOverviewQuery } from "./overview.server";
import { addDays, todayIn, yesterdayIn } from "~/lib/dates";

const overviewApi = documented(overviewRoute);

// The routes read the real clock, so the data ends tomorrow (UTC) and runs 45 days back: every
// time zone's last 30 complete days are inside it.
const NOW = new Date();
const LAST_DAY = addDays(todayIn("UTC", NOW), 1);
const NY_TO = yesterdayIn("America/New_York", NOW);
const HOUR = 3600_000;
const iso = (msAgo: number) => new Date(NOW.getTime() - msAgo).toISOString();

const MANAGERS = [
  { customerId: "9000000001", name: "Alpha Agency (MCC)" },
  { customerId: "9000000002", name: "Beta Agency (MCC)" },
];
const CLIENTS: ClientSpec[] = [
  // CPA 10 vs target 10: on target.
  {
    customerId: "1000000001",
    name: "Acme Shoes",
    manager: "9000000001",
    dailyCostMicros: 100_000_000,
    dailyConversions: 10,
    target: { cpaMicros: 10_000_000 },
    score: 80,
    recommendations: [120, 30],
    lastSuccessAt: iso(HOUR),
  },
  // CPA 50 vs target 20: needs attention.
  {
    customerId: "1000000002",
    name: "Bolt Bikes",
    manager: "9000000001",
    dailyCostMicros: 200_000_000,
    dailyConversions: 4,
    target: { cpaMicros: 20_000_000 },
    score: 45,
    recommendations: [500],
    lastSuccessAt: iso(HOUR),
  },
  // ROAS 4 vs target 3: fine; in Berlin, in euros.
  {
    customerId: "1000000003",
    name: "Café Crème",
    manager: "9000000002",
    timeZone: "Europe/Berlin",
    currency: "EUR",
    dailyCostMicros: 50_000_000,
    dailyConversions: 10,
    dailyValue: 200,
    target: { roas: 3 },
    score: 92,
    lastSuccessAt: iso(2 * HOUR),
  },
  // Data three days old: needs attention.
  { customerId: "1000000004", name: "Delta Dental", manager: "9000000002", dailyCostMicros: 10_000_000, dailyConversions: 1, lastSuccessAt: iso(72 * HOUR) },
  // Never refreshed, reached directly (no manager).
  { customerId: "1000000005", name: "Echo Events", manager: null, lastSuccessAt: null },
];

let t: TestContext;
let userId: string;
let other: string;
let cookie: string;
let token: string;

beforeAll(async () => {
  t = await setupTestEnvironment();
  ({ userId } = await seedAgency(t.db, { managers: MANAGERS, clients: CLIENTS, lastDay: LAST_DAY, days: 45 }));
  // Someone else's agency: never in this user's overview.
  ({ userId: other } = await seedAgency(t.db, {
    managers: [{ customerId: "9100000001", name: "Other MCC" }],
    clients: [{ customerId: "1100000001", name: "Not Yours", manager: "9100000001", dailyCostMicros: 1 }],
    lastDay: LAST_DAY,
  }));
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  cookie = (await commitSessionCookie(session)).split(";")[0];
  token = session.accessToken;
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
});

const q = (search: string) => parseOverviewQuery(new URLSearchParams(search)).query;
const names = async (search: string) => (await accountsOverview(userId, q(search), { now: NOW })).accounts.map((a) => a.name);

describe("accountsOverview", () => {
  it("lists every client account of the user (no manager, nobody else's) with the last 30 complete days' figures", async () => {
    const o = await accountsOverview(userId, q(""), { now: NOW });
    expect(o.total).toBe(5);
    expect(o.accounts.map((a) => a.customerId)).toEqual(["1000000001", "1000000002", "1000000003", "1000000004", "1000000005"]);
    const acme = o.accounts[0];
    // 45 days seeded, 30 counted.
    expect(acme).toMatchObject({
      period: { from: addDays(NY_TO, -29), to: NY_TO },
      costMicros: 3_000_000_000,
      conversions: 300,
      cpaMicros: 10_000_000,
      target: { cpaMicros: 10_000_000, roas: null },
      score: 80,
      openRecommendations: 2,
      recommendationsImpact: 150,
      manager: { customerId: "9000000001", name: "Alpha Agency (MCC)" },
      syncStatus: "ok",
      attention: [],
    });
    expect(o.accounts[2]).toMatchObject({ currencyCode: "EUR", roas: 4, target: { roas: 3, cpaMicros: null }, attention: [] });
    expect(o.accounts[4]).toMatchObject({
      manager: null,
      costMicros: 0,
      cpaMicros: null,
      roas: null,
      score: null,
      dataAsOf: null,
      attention: ["Never refreshed"],
    });
    expect(o.managers).toEqual([
      { customerId: "9000000001", name: "Alpha Agency (MCC)", clients: 2 },
      { customerId: "9000000002", name: "Beta Agency (MCC)", clients: 2 },
    ]);
  });

  it("says why an account needs attention, and the filter keeps exactly those", async () => {
    const o = await accountsOverview(userId, q("status=attention"), { now: NOW });
    expect(o.accounts.map((a) => [a.name, a.attention])).toEqual([
      ["Bolt Bikes", ["Cost per conversion above target"]],
      ["Delta Dental", ["Data more than two days old"]],
      ["Echo Events", ["Never refreshed"]],
    ]);
    expect(o.total).toBe(3);
  });

  it("sorts in SQL by each figure, empty values last either way", async () => {
    expect(await names("sort=spend")).toEqual(["Bolt Bikes", "Acme Shoes", "Café Crème", "Delta Dental", "Echo Events"]);
    // Acme and Delta both cost 10 a conversion: the name decides.
    expect(await names("sort=cpa&dir=asc")).toEqual(["Café Crème", "Acme Shoes", "Delta Dental", "Bolt Bikes", "Echo Events"]);
    expect(await names("sort=cpa&dir=desc")).toEqual(["Bolt Bikes", "Acme Shoes", "Delta Dental", "Café Crème", "Echo Events"]);
    expect(await names("sort=score")).toEqual(["Café Crème", "Acme Shoes", "Bolt Bikes", "Delta Dental", "Echo Events"]);
    expect(await names("sort=score&dir=asc")).toEqual(["Bolt Bikes", "Acme Shoes", "Café Crème", "Delta Dental", "Echo Events"]);
    expect(await names("sort=impact")).toEqual(["Bolt Bikes", "Acme Shoes", "Café Crème", "Delta Dental", "Echo Events"]);
    expect(await names("sort=roas")).toEqual(["Café Crème", "Acme Shoes", "Bolt Bikes", "Delta Dental", "Echo Events"]);
    expect(await names("sort=dataAge&dir=asc")).toEqual(["Delta Dental", "Café Crème", "Acme Shoes", "Bolt Bikes", "Echo Events"]);
    expect(await names("sort=manager&dir=desc")).toEqual(["Café Crème", "Delta Dental", "Acme Shoes", "Bolt Bikes", "Echo Events"]);
  });

  it("filters by manager and by name or customer id, and pages", async () => {
    expect(await names("manager=900-000-0002")).toEqual(["Café Crème", "Delta Dental"]);
    expect(await names("q=bolt")).toEqual(["Bolt Bikes"]);
    expect(await names("q=1000000004")).toEqual(["Delta Dental"]);
    // LIKE's wildcards are plain characters in a search.
    expect(await names("q=%25")).toEqual([]);
    const page2 = await accountsOverview(userId, q("pageSize=10&page=1&sort=spend&dir=asc"), { now: NOW });
    expect(page2.accounts).toHaveLength(5);
    const paged = await accountsOverview(userId, { ...q("sort=name"), pageSize: 2, page: 3 }, { now: NOW });
    expect(paged.accounts.map((a) => a.name)).toEqual(["Echo Events"]);
    expect(paged.total).toBe(5);
  });

  it("names the query values it ignored", () => {
    expect(parseOverviewQuery(new URLSearchParams("sort=bogus&manager=12&pageSize=7")).ignored).toEqual(["sort column", "page size", "manager"]);
  });

  it("renders 100 accounts in well under a second of server time (the issue's bench)", async () => {
    const clients: ClientSpec[] = Array.from({ length: 100 }, (_, i) => ({
      customerId: String(2_000_000_000 + i),
      name: `Client ${String(i).padStart(3, "0")}`,
      manager: "9200000001",
      dailyCostMicros: 1_000_000 * (i + 1),
      dailyConversions: i % 7,
      target: { cpaMicros: 5_000_000 },
      score: i,
      recommendations: [i],
      lastSuccessAt: iso(HOUR),
    }));
    const big = await seedAgency(t.db, { managers: [{ customerId: "9200000001", name: "Big MCC" }], clients, lastDay: LAST_DAY, days: 60 });
    await accountsOverview(big.userId, q("pageSize=100"), { now: NOW });
    const started = performance.now();
    const o = await accountsOverview(big.userId, q("pageSize=100&sort=cpa"), { now: NOW });
    const ms = performance.now() - started;
    expect(o.accounts).toHaveLength(100);
    expect(ms).toBeLessThan(1000);
  });
});

describe("the routes", () => {
  const page = (path: string, init: RequestInit = {}) =>
    new Request(`http://localhost:3000${path}`, { ...init, headers: { Cookie: cookie, ...(init.headers ?? {}) } });

  it("GET /api/v1/accounts/overview answers the documented page, and a bad value is a 400", async () => {
    const ok = (await overviewApi(routeArgs(apiRequest("/accounts/overview?sort=spend&pageSize=10")))) as {
      data: { accounts: Array<{ name: string }>; total: number };
    };
    expect(ok.data.total).toBe(5);
    expect(ok.data.accounts[0].name).toBe("Bolt Bikes");
    const bad = (await overviewApi(routeArgs(apiRequest("/accounts/overview?sort=nope")))) as { data: unknown; init: ResponseInit };
    expect(bad.init.status).toBe(400);
    expect(bad.data).toEqual({ detail: "Invalid sort column" });
    const anonymous = (await overviewApi(routeArgs(new Request("http://localhost:3000/api/v1/accounts/overview")))) as { init: ResponseInit };
    expect(anonymous.init.status).toBe(401);
  });

  it("the page loads the overview; Open makes the account active and goes to the dashboard", async () => {
    const data = await accountsLoader(await signedInArgs(page("/accounts?status=attention")));
    expect(data.accounts.map((a: { name: string }) => a.name)).toEqual(["Bolt Bikes", "Delta Dental", "Echo Events"]);
    const form = new URLSearchParams({ intent: "select-account", customerId: "1000000002" });
    const res = (await accountsAction(
      await signedInArgs(page("/accounts", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } })),
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    const user = await t.db.selectFrom("users").select("active_customer_id").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user.active_customer_id).toBe("1000000002");
  });

  it("refuses an account that is not one of the user's, changing nothing", async () => {
    const form = new URLSearchParams({ intent: "select-account", customerId: "1100000001" });
    const res = (await accountsAction(
      await signedInArgs(page("/accounts", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } })),
    )) as { data: { error: string }; init: ResponseInit };
    expect(res.init.status).toBe(400);
    expect(res.data.error).toBe("That account is not one of your client accounts");
    const user = await t.db.selectFrom("users").select("active_customer_id").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user.active_customer_id).toBe("1000000002");
    expect(other).not.toBe(userId);
  });

  it("the switcher returns to the screen the person was on, never off the site", async () => {
    for (const [returnTo, location] of [
      ["/campaigns", "/campaigns"],
      ["https://evil.example/x", "/dashboard"],
    ]) {
      const form = new URLSearchParams({ intent: "select-account", customerId: "1000000001", returnTo });
      const res = (await accountsAction(
        await signedInArgs(page("/accounts", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } })),
      )) as Response;
      expect(res.headers.get("Location")).toBe(location);
    }
  });

  it("CSV: every matching account, in the page's order", async () => {
    const res = (await accountsCsvLoader(await signedInArgs(page("/export/accounts?sort=spend&pageSize=10&page=2")))) as Response;
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toMatch(/^Account,Customer ID,Manager,Currency,From,To,Cost,Conversions,Cost \/ conv\.,Target CPA,ROAS/);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["Bolt Bikes", "Acme Shoes", "Café Crème", "Delta Dental", "Echo Events"]);
    expect(lines[1]).toContain("Bolt Bikes,100-000-0002,Alpha Agency (MCC),USD,");
  });

  it("/ lands on the overview with several client accounts; the layout offers the switcher and the Accounts item", async () => {
    const res = (await homeLoader(await signedInArgs(page("/"))).catch((r: unknown) => r)) as Response;
    expect(res.headers.get("Location")).toBe("/accounts");
    const layout = await layoutLoader(await signedInArgs(page("/dashboard")));
    // Grouped under their managers (by name), the directly reached ones last.
    expect(layout.switcher?.map((a) => a.name)).toEqual(["Acme Shoes", "Bolt Bikes", "Café Crème", "Delta Dental", "Echo Events"]);
    expect(layout.switcher?.find((a) => a.customerId === "1000000001")?.manager).toBe("Alpha Agency (MCC)");
  });
});

function apiRequest(path: string) {
  return new Request(`http://localhost:3000/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
}
