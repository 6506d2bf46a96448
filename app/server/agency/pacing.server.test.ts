// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/lib/dates";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { documented } from "../../../tests/support/api-doc";
import { routeArgs } from "../../../tests/support/route-args";
import { createSession } from "../auth/session.server";
import { action as putPlanRoute, loader as getPlanRoute } from "../../routes/api/account-budget-plan";
import { action as proposalRoute } from "../../routes/api/account-budget-proposal";
import { accountsOverview, parseOverviewQuery } from "./overview.server";
import { signedInArgs } from "../../../tests/support/route-args";
import { commitSessionCookie } from "../auth/session.server";
import { action as dashboardAction } from "../../routes/dashboard";
import { budgetPlan, pacingDays, pacingOf, proposePacingBudgets, saveBudgetPlan } from "./pacing.server";

const getPlan = documented(getPlanRoute);
const putPlan = documented(putPlanRoute);
const proposal = documented(proposalRoute);

// 17:00 UTC on 16 November 2026: in New York it is the 16th, 15 complete days gone and 15 left (today included).
const NOW = new Date("2026-11-16T17:00:00Z");
const CUSTOMER = "3000000001";
const M = 1_000_000;

let t: TestContext;
let userId: string;
let token: string;
let cookie: string;

beforeAll(async () => {
  t = await setupTestEnvironment();
  ({ userId } = await seedAgency(t.db, {
    managers: [{ customerId: "9300000001", name: "Pace MCC" }],
    clients: [
      { customerId: CUSTOMER, name: "Paced Co", manager: "9300000001" },
      { customerId: "3000000002", name: "Unplanned Co", manager: "9300000001", dailyCostMicros: 10 * M, dailyConversions: 1 },
    ],
    lastDay: "2026-11-15",
  }));
  const campaign = (id: string, name: string, budget: number, extra: Record<string, unknown> = {}) => ({
    customer_id: CUSTOMER,
    id,
    name,
    status: "ENABLED",
    advertising_channel_type: "SEARCH",
    bidding_strategy_type: "MANUAL_CPC",
    budget_resource_name: `customers/${CUSTOMER}/campaignBudgets/${id}0`,
    budget_amount_micros: budget * M,
    budget_period: "DAILY",
    budget_explicitly_shared: 0,
    ...extra,
  });
  await t.db
    .insertInto("ads_campaigns")
    .values([campaign("11", "Alpha", 60), campaign("12", "Beta", 40), campaign("13", "Gamma", 10), campaign("14", "Paused one", 50, { status: "PAUSED" })])
    .execute();
  // 45 days up to yesterday (the 15th): Alpha spends 80 a day, Beta 40, Gamma 5. Today's partial day is not counted.
  const rows = [];
  for (let i = 0; i <= 45; i++) {
    const date = addDays("2026-11-16", -i);
    for (const [id, cost] of [
      ["11", 80],
      ["12", 40],
      ["13", 5],
    ] as const) {
      rows.push({ customer_id: CUSTOMER, campaign_id: id, date, impressions: 100, clicks: 10, cost_micros: cost * M, conversions: 1, conversions_value: 0 });
    }
  }
  await t.db.insertInto("ads_campaign_daily").values(rows).execute();
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  token = session.accessToken;
  cookie = (await commitSessionCookie(session)).split(";")[0];
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
});

describe("pacingDays and pacingOf", () => {
  it("count the month in the account's time zone", () => {
    expect(pacingDays("America/New_York", NOW)).toEqual({
      month: "2026-11",
      monthStart: "2026-11-01",
      yesterday: "2026-11-15",
      daysInMonth: 30,
      daysElapsed: 15,
      daysLeft: 15,
      runRateFrom: "2026-11-09",
    });
    // 03:00 UTC on 1 December is still 30 November in New York, and 1 December in Berlin.
    const early = new Date("2026-12-01T03:00:00Z");
    expect(pacingDays("America/New_York", early)).toMatchObject({ month: "2026-11", daysElapsed: 29, daysLeft: 1 });
    expect(pacingDays("Europe/Berlin", early)).toMatchObject({ month: "2026-12", daysElapsed: 0, daysLeft: 31, yesterday: "2026-11-30" });
  });

  it("project the month-end from the run-rate and offer the daily budget that lands on plan", () => {
    const days = pacingDays("America/New_York", NOW);
    expect(pacingOf(3000 * M, 1800 * M, 7 * 120 * M, days)).toEqual({
      month: "2026-11",
      budgetMicros: 3000 * M,
      spentMicros: 1800 * M,
      planToDateMicros: 1500 * M,
      runRateMicros: 120 * M,
      daysLeft: 15,
      projectedMicros: 3600 * M,
      offPlanMicros: 600 * M,
      offPlanRatio: 0.2,
      status: "over",
      suggestedDailyMicros: 80 * M,
    });
    expect(pacingOf(3000 * M, 1500 * M, 7 * 105 * M, days).status).toBe("on_plan");
    expect(pacingOf(3000 * M, 1000 * M, 7 * 60 * M, days)).toMatchObject({ status: "under", projectedMicros: 1900 * M });
    // Already spent: nothing more a day.
    expect(pacingOf(1000 * M, 1200 * M, 0, days).suggestedDailyMicros).toBe(0);
  });
});

describe("the budget plan", () => {
  it("is empty until set; a bad plan is refused and changes nothing", async () => {
    expect(await budgetPlan(userId, CUSTOMER, NOW)).toEqual({ customerId: CUSTOMER, currencyCode: "USD", account: null, campaigns: [] });
    await expect(saveBudgetPlan(userId, CUSTOMER, { monthlyBudget: 3000, campaigns: [{ campaignId: "999", monthlyBudget: 10 }] })).rejects.toThrow(
      "Campaign 999 is not in this account",
    );
    expect((await budgetPlan(userId, CUSTOMER, NOW)).account).toBeNull();
  });

  it("paces the account and a campaign with its own plan", async () => {
    await saveBudgetPlan(userId, CUSTOMER, { monthlyBudget: 3000, campaigns: [{ campaignId: "13", monthlyBudget: 300 }] });
    const plan = await budgetPlan(userId, CUSTOMER, NOW);
    // 15 days × 125 spent, 125 a day for 15 more: 3,750 of 3,000.
    expect(plan.account).toMatchObject({
      spentMicros: 1875 * M,
      runRateMicros: 125 * M,
      projectedMicros: 3750 * M,
      offPlanRatio: 0.25,
      status: "over",
      suggestedDailyMicros: 75 * M,
    });
    expect(plan.campaigns).toEqual([
      {
        campaignId: "13",
        name: "Gamma",
        status: "ENABLED",
        dailyBudgetMicros: 10 * M,
        pacing: expect.objectContaining({ spentMicros: 75 * M, projectedMicros: 150 * M, offPlanRatio: -0.5, status: "under", suggestedDailyMicros: 15 * M }),
      },
    ]);
  });

  it("shows on the overview, where being off plan needs attention", async () => {
    const o = await accountsOverview(userId, parseOverviewQuery(new URLSearchParams("sort=pacing")).query, { now: NOW });
    expect(o.accounts.map((a) => a.name)).toEqual(["Paced Co", "Unplanned Co"]);
    expect(o.accounts[0].pacing).toMatchObject({ status: "over", projectedMicros: 3750 * M });
    expect(o.accounts[0].attention).toContain("Spending over the monthly plan");
    expect(o.accounts[1].pacing).toBeNull();
    const attention = await accountsOverview(userId, parseOverviewQuery(new URLSearchParams("status=attention")).query, { now: NOW });
    expect(attention.accounts.map((a) => a.name)).toContain("Paced Co");
  });

  it("offers the daily budgets that land on plan as a change set to review", async () => {
    const id = await proposePacingBudgets(userId, CUSTOMER, NOW);
    const set = await t.db.selectFrom("change_sets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(set).toMatchObject({ status: "proposed", source: "user", source_detail: "Budget pacing", customer_id: CUSTOMER });
    const changes = await t.db.selectFrom("changes").select(["label", "after_json", "resource_kind"]).where("change_set_id", "=", id).orderBy("seq").execute();
    // Gamma to its own 15 a day; the account's other 60 (75 − 15) shared by Alpha and Beta as 60:40; the paused campaign untouched.
    expect(changes.map((c) => [c.label, JSON.parse(c.after_json!).amountMicros])).toEqual([
      ["Daily budget of “Gamma”", 15 * M],
      ["Daily budget of “Alpha”", 36 * M],
      ["Daily budget of “Beta”", 24 * M],
    ]);
  });

  it("API: GET and PUT the plan, bad input is a 400 that changes nothing; POST proposes", async () => {
    const req = (method: string, body?: unknown, path = `/accounts/${CUSTOMER}/budget-plan`) =>
      routeArgs(
        new Request(`http://localhost:3000/api/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { customerId: path.split("/")[2] },
      );
    const got = (await getPlan(req("GET"))) as { data: { account: { budgetMicros: number } } };
    expect(got.data.account.budgetMicros).toBe(3000 * M);
    const bad = (await putPlan(req("PUT", { monthlyBudget: -5 }))) as { data: { detail: string }; init: ResponseInit };
    expect(bad.init.status).toBe(400);
    expect(JSON.stringify(bad.data)).toContain("The monthly budget must be greater than 0");
    const put = (await putPlan(req("PUT", { monthlyBudget: 4500.5, campaigns: [{ campaignId: "13", monthlyBudget: null }] }))) as {
      data: { account: { budgetMicros: number }; campaigns: unknown[] };
    };
    expect(put.data.account.budgetMicros).toBe(4500.5 * M);
    expect(put.data.campaigns).toEqual([]);
    const other = (await getPlan(req("GET", undefined, "/accounts/1100000009/budget-plan"))) as { init: ResponseInit };
    expect(other.init.status).toBe(404);
    const proposed = (await proposal(req("POST", undefined, `/accounts/${CUSTOMER}/budget-plan/proposal`))) as {
      data: { changeSetId: string };
      init: ResponseInit;
    };
    expect(proposed.init.status).toBe(201);
    expect(proposed.data.changeSetId).toMatch(/\S/);
  });
});

describe("the dashboard's forms", () => {
  const post = async (fields: Record<string, string>) =>
    dashboardAction(
      await signedInArgs(
        new Request("http://localhost:3000/dashboard", {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    );

  it("set the monthly budget of the active account; a bad value is said and changes nothing", async () => {
    await t.db.updateTable("users").set({ active_customer_id: CUSTOMER }).where("id", "=", userId).execute();
    const before = (await budgetPlan(userId, CUSTOMER, NOW)).account?.budgetMicros;
    const bad = (await post({ intent: "budget-plan", monthlyBudget: "lots" })) as { data: { pacingError: string }; init: ResponseInit };
    expect(bad.init.status).toBe(400);
    expect(bad.data.pacingError).toBe("The monthly budget must be a number");
    expect((await budgetPlan(userId, CUSTOMER, NOW)).account?.budgetMicros).toBe(before);
    const saved = (await post({ intent: "budget-plan", monthlyBudget: "2,500" })) as Response;
    expect(saved.status).toBe(302);
    expect((await budgetPlan(userId, CUSTOMER, NOW)).account?.budgetMicros).toBe(2500 * M);
  });

  it("Propose daily budgets goes to the change set's review page", async () => {
    const res = await post({ intent: "propose-pacing" }).catch((thrown: unknown) => thrown);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).headers.get("Location")).toMatch(/^\/changes\/\S+$/);
  });

  it("an empty budget removes the plan", async () => {
    await post({ intent: "budget-plan", monthlyBudget: "" });
    expect((await budgetPlan(userId, CUSTOMER, NOW)).account).toBeNull();
    const none = (await post({ intent: "propose-pacing" })) as { data: { pacingError: string } };
    expect(none.data.pacingError).toBe("Set a monthly budget first");
  });
});
