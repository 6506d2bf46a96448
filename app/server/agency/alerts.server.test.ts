// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/lib/dates";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { seededRandom } from "../../../tests/support/seeded-random";
import { drainJobs } from "../../../tests/support/jobs";
import { queueAlertCheck } from "./alert-job.server";
import { baselineOf, checkAlerts, isHigh, isLow } from "./alerts.server";

// A simulated month of scheduled refreshes (ADR 029): five accounts, each refreshed every
// morning with the day before's figures, and the checks run after each refresh. Four carry one
// planted anomaly each; the fifth is clean. Every account's days are noisy (±8 % spend, ±20 %
// conversions, quieter weekends), and the month is preceded by nine weeks of ordinary history.

const M = 1_000_000;
const HISTORY_FROM = "2026-08-30";
const MONTH = Array.from({ length: 30 }, (_, i) => addDays("2026-11-01", i));
const CAMPAIGNS = ["1", "2", "3", "4"];

interface Plant {
  customerId: string;
  name: string;
  /** The day's multipliers of one campaign: cost (and clicks, impressions), conversions, and whether it served. */
  day: (date: string, campaign: string) => { cost: number; conversions: number; serving: boolean };
  /** A monthly budget set in the app. */
  plan?: number;
}

const normal = () => ({ cost: 1, conversions: 1, serving: true });
const dayOfMonth = (date: string) => (date.startsWith("2026-11") ? Number(date.slice(8)) : 0);

const PLANTS: Plant[] = [
  // One day of three times the spend (a budget typed with an extra zero, put right the next morning).
  { customerId: "4000000001", name: "Spike", day: (d) => (d === "2026-11-10" ? { cost: 3, conversions: 1.2, serving: true } : normal()) },
  // Conversion tracking broken for four days (the tag removed from the thank-you page): clicks as usual, no conversions.
  {
    customerId: "4000000002",
    name: "Tracking",
    day: (d) => (dayOfMonth(d) >= 12 && dayOfMonth(d) <= 15 ? { cost: 1, conversions: 0, serving: true } : normal()),
  },
  // One campaign of four disapproved on the 18th: it stops serving for the rest of the month.
  { customerId: "4000000003", name: "Stopped", day: (d, c) => (c === "3" && dayOfMonth(d) >= 18 ? { cost: 0, conversions: 0, serving: false } : normal()) },
  // Budgets raised by 35 % on the 10th against a monthly plan made for the old spend: an overrun.
  { customerId: "4000000004", name: "Pacing", day: (d) => (dayOfMonth(d) >= 10 ? { cost: 1.35, conversions: 1.35, serving: true } : normal()), plan: 0 },
  // Nothing planted; a monthly plan that the ordinary spend meets.
  { customerId: "4000000005", name: "Clean", day: normal, plan: 0 },
];

/** Per campaign and day: 25 a day on weekdays (20 at weekends), 5 conversions, 1,000 impressions. */
function dailyRows(plant: Plant, date: string, random: () => number) {
  const weekend = [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()) ? 0.8 : 1;
  return CAMPAIGNS.flatMap((campaign) => {
    const m = plant.day(date, campaign);
    if (!m.serving) return [];
    const noise = 1 + (random() - 0.5) * 0.16;
    const convNoise = 1 + (random() - 0.5) * 0.4;
    return [
      {
        customer_id: plant.customerId,
        campaign_id: campaign,
        date,
        impressions: Math.round(1000 * weekend * m.cost * noise),
        clicks: Math.round(50 * weekend * m.cost * noise),
        cost_micros: Math.round(25 * M * weekend * m.cost * noise),
        conversions: Math.round(5 * weekend * m.conversions * convNoise * 10) / 10,
        conversions_value: 0,
      },
    ];
  });
}

/** The plan that ordinary spend meets: the month's expected spend. */
function expectedMonth(): number {
  return MONTH.reduce((s, d) => s + ([0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay()) ? 0.8 : 1) * 25 * CAMPAIGNS.length, 0);
}

let t: TestContext;
/** Every alert each account got over the month, in the order raised, with the check that raised and resolved it. */
const raised = new Map<string, Array<{ rule: string; subject: string; raisedAfter: string; resolvedAfter: string | null }>>();

beforeAll(async () => {
  t = await setupTestEnvironment();
  await seedAgency(t.db, {
    managers: [{ customerId: "9400000001", name: "Sim MCC" }],
    clients: PLANTS.map((p) => ({ customerId: p.customerId, name: p.name, manager: "9400000001", lastSuccessAt: null })),
    lastDay: HISTORY_FROM,
    days: 0,
  });
  const random = seededRandom(31);
  for (const p of PLANTS) {
    await t.db
      .insertInto("ads_campaigns")
      .values(
        CAMPAIGNS.map((id) => ({
          customer_id: p.customerId,
          id,
          name: `${p.name} ${id}`,
          status: "ENABLED",
          advertising_channel_type: "SEARCH",
          bidding_strategy_type: "MANUAL_CPC",
        })),
      )
      .execute();
    if (p.plan !== undefined) {
      await t.db
        .insertInto("budget_plans")
        .values({
          customer_id: p.customerId,
          campaign_id: "",
          monthly_budget_micros: Math.round(expectedMonth() * M),
          updated_at: "2026-10-31T00:00:00Z",
          updated_by: null,
        })
        .execute();
    }
    const history = [];
    for (let d = HISTORY_FROM; d < MONTH[0]; d = addDays(d, 1)) history.push(...dailyRows(p, d, random));
    for (let i = 0; i < history.length; i += 400)
      await t.db
        .insertInto("ads_campaign_daily")
        .values(history.slice(i, i + 400))
        .execute();
  }
  // The month: each morning's refresh brings the day before, then the checks run (noon UTC is morning in New York).
  for (const date of MONTH) {
    for (const p of PLANTS) {
      const rows = dailyRows(p, date, random);
      if (rows.length) await t.db.insertInto("ads_campaign_daily").values(rows).execute();
      await checkAlerts(p.customerId, new Date(`${addDays(date, 1)}T12:00:00Z`), t.db);
    }
  }
  const all = await t.db.selectFrom("alerts").selectAll().orderBy("created_at").execute();
  for (const p of PLANTS) {
    raised.set(
      p.name,
      all
        .filter((a) => a.customer_id === p.customerId)
        .map((a) => ({ rule: a.rule, subject: a.subject, raisedAfter: a.created_at.slice(0, 10), resolvedAfter: a.resolved_at?.slice(0, 10) ?? null })),
    );
  }
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

describe("a simulated month of scheduled refreshes", () => {
  it("a clean month raises nothing", () => {
    expect(raised.get("Clean")).toEqual([]);
  });

  it("a one-day spend spike: one alert, raised the morning after and resolved the morning after that", () => {
    expect(raised.get("Spike")).toEqual([{ rule: "spend_spike", subject: "", raisedAfter: "2026-11-11", resolvedAfter: "2026-11-12" }]);
  });

  it("a conversion-tracking break: one alert once two days are missing, resolved when conversions return", () => {
    expect(raised.get("Tracking")).toEqual([{ rule: "conversions_drop", subject: "", raisedAfter: "2026-11-14", resolvedAfter: "2026-11-17" }]);
  });

  it("a campaign stopped by a disapproval: one alert for that campaign, lasting while it does not serve", () => {
    expect(raised.get("Stopped")).toEqual([{ rule: "no_impressions", subject: "3", raisedAfter: "2026-11-19", resolvedAfter: null }]);
  });

  it("a pacing overrun: one alert for the month", async () => {
    const alerts = raised.get("Pacing")!;
    expect(alerts.map((a) => [a.rule, a.subject])).toEqual([["pacing_off", "2026-11"]]);
    // Once the run-rate shows the new budgets (the 10th was the first day at them), never before.
    expect(alerts[0].raisedAfter > "2026-11-11").toBe(true);
    const row = await t.db.selectFrom("alerts").select(["figures_json", "title"]).where("customer_id", "=", "4000000004").executeTakeFirstOrThrow();
    expect(JSON.parse(row.figures_json).pacing.status).toBe("over");
    expect(row.title).toMatch(/^Projected [\d.]+ USD for 2026-11 against a budget of [\d.]+ USD \(\+\d+%\)$/);
  });

  it("each alert names its figures and baseline and links to the evidence", async () => {
    const spike = await t.db.selectFrom("alerts").selectAll().where("customer_id", "=", "4000000001").executeTakeFirstOrThrow();
    const figures = JSON.parse(spike.figures_json);
    expect(figures.day).toBe("2026-11-10");
    expect(figures.baseline.points).toBe(8);
    expect(figures.costMicros).toBeGreaterThan(2.5 * figures.baseline.median);
    expect(spike.started_on).toBe("2026-11-10");
    expect(spike.evidence_path).toBe("/dashboard?from=2026-10-14&to=2026-11-10");
    const stopped = await t.db.selectFrom("alerts").selectAll().where("customer_id", "=", "4000000003").executeTakeFirstOrThrow();
    expect(stopped).toMatchObject({ campaign_id: "3", started_on: "2026-11-18", evidence_path: "/campaigns/3", status: "open" });
    expect(stopped.title).toBe("“Stopped 3” is enabled but had no impressions on 2026-11-30");
  });
});

describe("the robust baseline", () => {
  it("is not moved by one odd day in the history", () => {
    const b = baselineOf([100, 102, 98, 101, 99, 100, 103, 900])!;
    expect(b.median).toBe(100.5);
    expect(isHigh(160, b)).toBe(true);
    expect(isHigh(140, b)).toBe(false);
    expect(isLow(40, b)).toBe(true);
    expect(isLow(60, b)).toBe(false);
  });

  it("needs four weeks of history before it judges", () => {
    expect(baselineOf([1, 2, 3])).toBeNull();
  });
});

describe("changes made elsewhere", () => {
  it("an outside change and Google's auto-applied recommendations are told once per day", async () => {
    const base = {
      customer_id: "4000000005",
      resource_type: "CAMPAIGN",
      resource_name: "customers/4000000005/campaigns/1",
      user_email: null,
      operation: "UPDATE",
      changed_fields: null,
      old_json: null,
      new_json: null,
      imported_at: "2026-12-01T12:00:00Z",
    };
    await t.db
      .insertInto("history_imports")
      .values([
        { ...base, id: "h1", change_date_time: "2026-11-30 10:00:00", changed_at: "2026-11-30T15:00:00Z", client_type: "GOOGLE_ADS_WEB_CLIENT" },
        { ...base, id: "h2", change_date_time: "2026-11-30 11:00:00", changed_at: "2026-11-30T16:00:00Z", client_type: "GOOGLE_ADS_WEB_CLIENT" },
        {
          ...base,
          id: "h3",
          change_date_time: "2026-11-30 12:00:00",
          changed_at: "2026-11-30T17:00:00Z",
          client_type: "GOOGLE_ADS_RECOMMENDATIONS_SUBSCRIPTION",
        },
        // Ours: never an alert.
        { ...base, id: "h4", change_date_time: "2026-11-30 13:00:00", changed_at: "2026-11-30T18:00:00Z", client_type: "GOOGLE_ADS_API" },
      ])
      .execute();
    for (let i = 0; i < 2; i++) await checkAlerts("4000000005", new Date(`2026-12-01T1${2 + i}:00:00Z`), t.db);
    const alerts = await t.db.selectFrom("alerts").select(["rule", "title", "evidence_path"]).where("customer_id", "=", "4000000005").orderBy("rule").execute();
    expect(alerts).toEqual([
      { rule: "auto_applied", title: "Google applied 1 recommendation change by itself on 2026-11-30", evidence_path: "/history" },
      { rule: "outside_change", title: "2 changes made outside Ads AI Manager on 2026-11-30", evidence_path: "/history" },
    ]);
  });
});

describe("the job after a refresh", () => {
  it("a sync's new data is checked by the alert-check job, in the background", async () => {
    const spike = PLANTS[0];
    const rows = dailyRows({ ...spike, day: () => ({ cost: 4, conversions: 1, serving: true }) }, "2026-12-01", seededRandom(7));
    await t.db.insertInto("ads_campaign_daily").values(rows).execute();
    await queueAlertCheck(t.db, spike.customerId, new Date("2026-12-02T12:00:00Z"));
    await drainJobs(t.db, ["alert-check"]);
    const alerts = await t.db
      .selectFrom("alerts")
      .select(["rule", "started_on", "status"])
      .where("customer_id", "=", spike.customerId)
      .orderBy("created_at")
      .execute();
    expect(alerts).toEqual([
      { rule: "spend_spike", started_on: "2026-11-10", status: "resolved" },
      { rule: "spend_spike", started_on: "2026-12-01", status: "open" },
    ]);
  });
});
