// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import {
  IMPACT_CAMPAIGNS,
  IMPACT_CUSTOMER_ID,
  IMPACT_TODAY,
  impactFixture,
  SEASON,
  SEASON_DAYS_AGO,
  TRUE_COST_EFFECT,
} from "../../../emulator/fixtures/impact";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { recordAppliedChangeSet } from "../../../tests/support/applied-change";
import { addDays, zonedToUtc } from "~/lib/dates";
import type { ImpactRecord, MetricEffect } from "~/lib/impact";
import { syncAccount } from "../ads/sync.server";
import { changeSetImpact, impactRecords } from "./store.server";
import { createSession } from "../auth/session.server";
import { documented, responseOf } from "../../../tests/support/api-doc";
import { routeArgs } from "../../../tests/support/route-args";
import { loader as impactRoute } from "../../routes/api/change-set-impact";
import { changeSetPage, historyPage } from "../change-pages.server";
import { calibration, measuredMoneyThisMonth } from "./service.server";
import { analystAnswer, classify } from "../ai/analyst.server";
import { buildTools, toolRunners } from "../ai/tools.server";
import { requireAccountOf } from "../account-access.server";
import { startJobs, stopJobs } from "../jobs/jobs.server";

// The impact records over an account whose truth is known (emulator/fixtures/
// impact.ts), through the real path: fixture → emulator → the app's sync →
// the synced tables → the record. The whole account rises 20 % on the day of
// the changes, so before/after is wrong; the record must not be.

const NOW = new Date(`${IMPACT_TODAY}T15:00:00Z`);
const CID = IMPACT_CUSTOMER_ID;
const at = (daysAgo: number) => zonedToUtc(`${addDays(IMPACT_TODAY, -daysAgo)} 11:00:00`, "America/New_York");
const campaignRn = (id: string) => `customers/${CID}/campaigns/${id}`;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
const sets: Record<string, string> = {};
let records: Map<string, ImpactRecord>;

const metric = (r: ImpactRecord, m: MetricEffect["metric"]) => r.periods[r.periods.length - 1].metrics.find((e) => e.metric === m)!;

async function recommendation(id: string, type: string, impact: { kind: string; monthly: number }) {
  await ctx.db
    .insertInto("recommendations")
    .values({
      id,
      customer_id: CID,
      key: `${type}:${id}`,
      type,
      title: id,
      status: "applied",
      present: 0,
      confidence: 0.95,
      impact_amount: impact.monthly,
      impact_json: JSON.stringify({ ...impact, riskConversions: null, assumption: "test" }),
      evidence_json: "{}",
      actions_json: "[]",
      resources_json: "[]",
      dismissed_reason: null,
      snoozed_until: null,
      status_changed_at: null,
      first_seen_at: NOW.toISOString(),
      last_seen_at: NOW.toISOString(),
    })
    .execute();
}

async function budgetOf(campaignId: string) {
  const row = await ctx.db
    .selectFrom("ads_campaigns")
    .select("budget_resource_name")
    .where("customer_id", "=", CID)
    .where("id", "=", campaignId)
    .executeTakeFirstOrThrow();
  return row.budget_resource_name!;
}

beforeAll(async () => {
  emu = await startEmulator({ store: createFixtureStore(impactFixture(), { source: "impact fixture" }) });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  expect((await syncAccount(userId, CID, { now: () => NOW })).status).toBe("ok");
  // Fixed ids: each record's resamples are seeded by its change set's id, so the figures are the same on every run.
  let n = 0;
  const record = (key: string, title: string, daysAgo: number, changes: Parameters<typeof recordAppliedChangeSet>[1]["changes"], extra = {}) =>
    recordAppliedChangeSet(ctx.db, {
      id: `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
      userId,
      customerId: CID,
      title,
      appliedAt: at(daysAgo),
      changes,
      ...extra,
    }).then((id) => (sets[key] = id));
  await record(
    "tents",
    "Exclude junk searches from Search | Tents",
    SEASON_DAYS_AGO,
    [{ kind: "campaign_negative_keyword", operation: "create", resourceName: `customers/${CID}/campaignCriteria/${IMPACT_CAMPAIGNS.tents}~990001` }],
    { source: "assistant" },
  );
  // Both budget raises came from the engine, which expected 12 more conversions a month from each.
  for (const id of ["rec-stoves", "rec-lanterns"]) await recommendation(id, "budget_limited", { kind: "conversions_gained", monthly: 12 });
  await record(
    "stoves",
    "Budget of Search | Stoves",
    SEASON_DAYS_AGO,
    [
      {
        kind: "campaign_budget",
        operation: "update",
        resourceName: await budgetOf(IMPACT_CAMPAIGNS.stoves),
        before: { amountMicros: 180e6 },
        after: { amountMicros: 200e6 },
      },
    ],
    { source: "rule", recommendationId: "rec-stoves" },
  );
  await record(
    "lanterns",
    "Budget of Search | Lanterns",
    3,
    [{ kind: "campaign_budget", operation: "update", resourceName: await budgetOf(IMPACT_CAMPAIGNS.lanterns) }],
    {
      source: "rule",
      recommendationId: "rec-lanterns",
    },
  );
  await record("ropes1", "Pause and enable Search | Ropes", 40, [{ kind: "campaign", operation: "update", resourceName: campaignRn(IMPACT_CAMPAIGNS.ropes) }]);
  await record("ropes2", "Budget of Search | Ropes", 36, [
    { kind: "campaign_budget", operation: "update", resourceName: await budgetOf(IMPACT_CAMPAIGNS.ropes) },
  ]);
  records = await impactRecords(CID, { now: NOW });
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("a change applied 30 days ago while the whole account rose 20 %", () => {
  it("recovers the planted effect within its interval, where before/after is wrong", () => {
    const r = records.get(`cs:${sets.tents}`)!;
    expect(r.verdict).toBe("effect");
    expect(r.level).toBe("campaign");
    expect(r.treated).toEqual([{ id: IMPACT_CAMPAIGNS.tents, name: "Search | Tents" }]);
    // 30 days ago: the 7- and 14-day post-periods have mature figures; the 30-day one not yet.
    expect(r.periods.map((p) => p.days)).toEqual([7, 14]);
    const cost = metric(r, "cost");
    expect(cost.significant).toBe(true);
    expect(cost.interval![0]).toBeLessThan(TRUE_COST_EFFECT);
    expect(cost.interval![1]).toBeGreaterThan(TRUE_COST_EFFECT);
    expect(Math.abs(cost.relative! - TRUE_COST_EFFECT)).toBeLessThan(0.05);
    // Before/after: cost (1.2 × 0.7 − 1) ≈ −16 %, outside the interval.
    expect(cost.naive!).toBeCloseTo((1 + SEASON) * (1 + TRUE_COST_EFFECT) - 1, 1);
    expect(cost.naive!).toBeGreaterThan(cost.interval![1]);
    // Conversions: before/after says +20 %; the record says unchanged.
    const conversions = metric(r, "conversions");
    expect(conversions.naive!).toBeGreaterThan(0.12);
    expect(conversions.significant).toBe(false);
    expect(conversions.interval![0]).toBeLessThan(0);
    expect(conversions.interval![1]).toBeGreaterThan(0);
    expect(r.headline).toMatch(
      /^Over 14 days: cost −\$\d[\d,]* a month \(−\d+ %, 90 % interval −\d+ % to −\d+ %\); conversions unchanged; conversion value unchanged; ROAS \+\d+ % \(90 % interval \+\d+ % to \+\d+ %\)$/,
    );
  });

  it("compares with the untouched search campaigns only, and says how they were chosen", () => {
    const r = records.get(`cs:${sets.tents}`)!;
    // The peers, and Lanterns: changed 3 days ago, after the 14 days measured here.
    expect(r.control.count).toBe(IMPACT_CAMPAIGNS.peers.length + 1);
    expect(r.control.names).toContain("Search | Lanterns");
    expect(r.control.names).not.toContain("Display | Remarketing");
    for (const changed of ["Search | Stoves", "Search | Ropes"]) expect(r.control.names).not.toContain(changed);
    expect(r.control.rule).toMatch(/^Search campaigns of this account with clicks in the 28 days before, that no change touched/);
    expect(r.pre).toEqual({ from: addDays(IMPACT_TODAY, -SEASON_DAYS_AGO - 28), to: addDays(IMPACT_TODAY, -SEASON_DAYS_AGO - 1), days: 28 });
    expect(r.series[0].date).toBe(r.pre!.from);
    expect(r.series.at(-1)!.date).toBe(addDays(IMPACT_TODAY, -SEASON_DAYS_AGO + 14));
  });

  it("gives a change with no true effect “no measurable effect”", () => {
    const r = records.get(`cs:${sets.stoves}`)!;
    expect(r.verdict).toBe("no_effect");
    expect(r.headline).toMatch(/^No measurable effect over 14 days: cost /);
    const cost = metric(r, "cost");
    expect(cost.interval![0]).toBeLessThan(0);
    expect(cost.interval![1]).toBeGreaterThan(0);
    // Before/after would have credited it with the season.
    expect(cost.naive!).toBeGreaterThan(0.12);
  });

  it("calls a change 3 days ago too early, and says when it will be measured", () => {
    const r = records.get(`cs:${sets.lanterns}`)!;
    expect(r.verdict).toBe("too_early");
    expect(r.periods).toEqual([]);
    // 7 post days after the change day, then the 3 lag days, then the day their figures arrive.
    expect(r.nextMeasureOn).toBe(addDays(IMPACT_TODAY, -3 + 7 + 3 + 1));
    expect(r.headline).toMatch(/^Too early: fewer than 7 days of complete figures since the change .* It is measured from Nov 30, 2026\.$/);
  });

  it("measures changes on the same campaign together, and says so", () => {
    const first = records.get(`cs:${sets.ropes1}`)!;
    const second = records.get(`cs:${sets.ropes2}`)!;
    expect(first.together.map((t) => t.changeSetId)).toEqual([sets.ropes2]);
    expect(second.together.map((t) => t.changeSetId)).toEqual([sets.ropes1]);
    expect(first.changeDay).toBe(addDays(IMPACT_TODAY, -40));
    expect(first.lastChangeDay).toBe(addDays(IMPACT_TODAY, -36));
    expect(first.periods[0].from).toBe(addDays(IMPACT_TODAY, -35));
    expect(first.periods.map((p) => p.metrics)).toEqual(second.periods.map((p) => p.metrics));
  });
});

describe("stored per data version", () => {
  it("is reproducible: computed again from scratch, the same intervals", async () => {
    await ctx.db.deleteFrom("impact_records").execute();
    const again = await changeSetImpact(CID, sets.tents, { now: NOW });
    expect(again!.periods).toEqual(records.get(`cs:${sets.tents}`)!.periods);
  });

  it("is read, not computed again, until the data changes", async () => {
    const later = new Date(NOW.getTime() + 60_000);
    expect((await changeSetImpact(CID, sets.tents, { now: later }))!.computedAt).not.toBe(later.toISOString());
    await ctx.db
      .updateTable("ads_sync_state")
      .set((eb) => ({ data_version: eb("data_version", "+", 1) }))
      .where("customer_id", "=", CID)
      .execute();
    expect((await changeSetImpact(CID, sets.tents, { now: later }))!.computedAt).toBe(later.toISOString());
  });

  it("has no record for a change set that was never applied, or another account's", async () => {
    expect(await changeSetImpact(CID, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await changeSetImpact("1234567890", sets.tents)).toBeNull();
  });
});

describe("GET /api/v1/change-sets/{id}/impact", () => {
  const impactLoader = documented(impactRoute);
  const get = async (id: string, token: string | null) => {
    const request = new Request(`http://localhost:3000/api/v1/change-sets/${id}/impact`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return responseOf(await impactLoader(routeArgs(request, { changeSetId: id })));
  };
  const tokenOf = async (id: string) => (await createSession(id, new Request("http://localhost:3000/login"))).accessToken;

  it("answers the record, as the OpenAPI document describes it", async () => {
    const res = await get(sets.tents, await tokenOf(userId));
    expect(res.status).toBe(200);
    const impact = (res.body as { impact: ImpactRecord }).impact;
    expect(impact.verdict).toBe("effect");
    expect(impact.subject).toBe(`cs:${sets.tents}`);
    expect(impact.headline).toBe(records.get(`cs:${sets.tents}`)!.headline);
  });

  it("is a 404 for another user's change set or a malformed id, a 409 for one never applied, a 401 without a token", async () => {
    const now = new Date().toISOString();
    const strangerId = crypto.randomUUID();
    await ctx.db
      .insertInto("users")
      .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
      .execute();
    expect((await get(sets.tents, await tokenOf(strangerId))).status).toBe(404);
    const token = await tokenOf(userId);
    expect((await get("not-a-uuid", token)).status).toBe(404);
    const proposed = await recordAppliedChangeSet(ctx.db, {
      userId,
      customerId: CID,
      title: "Never applied",
      appliedAt: at(20),
      changes: [{ kind: "campaign", operation: "update", resourceName: campaignRn(IMPACT_CAMPAIGNS.peers[0]) }],
    });
    await ctx.db.updateTable("change_sets").set({ status: "proposed", applied_at: null, approved_at: null }).where("id", "=", proposed).execute();
    const refused = await get(proposed, token);
    expect(refused.status).toBe(409);
    expect((refused.body as { detail: string }).detail).toBe("This change set is proposed: only changes Google applied have a measured effect");
    expect((await get(sets.tents, null)).status).toBe(401);
  });
});

describe("where people look", () => {
  const user = () => ctx.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();

  it("history carries each applied change set's record", async () => {
    await ctx.db.updateTable("users").set({ active_customer_id: CID }).where("id", "=", userId).execute();
    const page = await historyPage(await user(), new URL("http://localhost:3000/history"));
    if (!page.connected) throw new Error("not connected");
    expect(page.impact[`cs:${sets.tents}`].verdict).toBe("effect");
    expect(page.impact[`cs:${sets.stoves}`].verdict).toBe("no_effect");
    expect(page.impact[`cs:${sets.lanterns}`].verdict).toBe("too_early");
  });

  it("the change set's page has the whole record", async () => {
    const page = await changeSetPage(await user(), sets.tents);
    expect(page.impact?.headline).toBe(records.get(`cs:${sets.tents}`)!.headline);
    expect(page.impact?.control.count).toBe(7);
  });
});

describe("the Dashboard's AI Optimizations card", () => {
  it("counts the money measured on this month's days from recommendations and proposals, not applies", async () => {
    const money = await measuredMoneyThisMonth(CID, "America/New_York", NOW);
    // Tents (the assistant's, 30 days ago): its 14 measured days run to 16 days ago, 6 of them in November.
    const tents = records.get(`cs:${sets.tents}`)!;
    const period = tents.periods.at(-1)!;
    expect(period.to).toBe("2026-11-06");
    expect(money.saved).toBeCloseTo((-metric(tents, "cost").monthly! / 30) * 6, 6);
    expect(money.saved).toBeGreaterThan(100);
    // Its conversion value did not move measurably; Stoves is a person's change; Lanterns (a recommendation's) is too early.
    expect(money.earned).toBe(0);
    expect(money.measured).toBe(1);
    expect(money.applied).toBe(1);
  });
});

describe("the score page's calibration table", () => {
  it("sets the engine's estimates beside the measured effects, per rule type: a raise that changed nothing runs hot", async () => {
    const [row, ...others] = await calibration(CID);
    const stoves = metric(records.get(`cs:${sets.stoves}`)!, "conversions");
    // Stoves is measured; Lanterns (3 days ago) is not yet.
    expect(others).toEqual([]);
    expect(row).toEqual({
      type: "budget_limited",
      kind: "conversions_gained",
      applied: 2,
      measured: 1,
      estimated: 12,
      actual: stoves.monthly,
      ratio: stoves.monthly! / 12,
    });
    expect(Math.abs(row.ratio!)).toBeLessThan(0.67);
  });
});

describe("the assistant", () => {
  const toolContext = async () => ({ userId, account: await requireAccountOf(userId, CID), chatId: "c", now: NOW });

  it("has a read tool get_change_impact: the latest applied change sets' records, or one by id", async () => {
    const context = await toolContext();
    expect(Object.keys(buildTools(context))).toContain("get_change_impact");
    const run = toolRunners(context);
    const latest = await run.get_change_impact({});
    // Newest first (Tents and Stoves were applied at the same time).
    expect(latest.changes.map((c) => c.changeSetId)).toEqual([sets.lanterns, sets.tents, sets.stoves, sets.ropes2, sets.ropes1]);
    expect(latest.summary).toBe("Read the measured effect of 5 applied change sets");
    const one = await run.get_change_impact({ changeSetId: sets.tents });
    expect(one.changes).toHaveLength(1);
    expect(one.changes[0]).toMatchObject({ verdict: "effect", effect: records.get(`cs:${sets.tents}`)!.headline, url: `/changes/${sets.tents}#impact` });
    await expect(run.get_change_impact({ changeSetId: "00000000-0000-4000-8000-00000000ffff" })).rejects.toThrow(/not a change set applied in this account/);
  });

  it("the built-in analyst answers “did my last changes work?” with each change's measured effect", async () => {
    for (const q of [
      "did my last changes work?",
      "Did the changes I made last month help?",
      "what was the impact of my recent changes",
      "did my last change work",
    ]) {
      expect(classify(q), q).toBe("impact");
    }
    expect(classify("what changed recently?")).toBe("history");
    const answer = await analystAnswer(await toolContext(), "Did my last changes work?", { notice: false });
    expect(answer.intent).toBe("impact");
    expect(answer.steps.map((s) => s.toolName)).toEqual(["get_change_impact"]);
    expect(answer.text).toContain(`**Exclude junk searches from Search | Tents** (applied Oct 23, 2026): ${records.get(`cs:${sets.tents}`)!.headline}.`);
    expect(answer.text).toMatch(/\*\*Budget of Search \| Lanterns\*\* \(applied Nov 19, 2026\): Too early: /);
    expect(answer.text).toContain("Measured together with “Budget of Search | Ropes”.");
    expect(answer.text).toContain("1 change moved money or conversions measurably; 3 changes had no measurable effect; 1 change is too recent to tell.");
  });
});

describe("computed in the background after each sync", () => {
  it("a sync queues the account's records, and a job computes them under the new data version without a reader asking", async () => {
    const stale = await ctx.db.selectFrom("impact_records").select(["subject", "stamp"]).where("customer_id", "=", CID).execute();
    expect(stale.length).toBeGreaterThanOrEqual(5);
    await startJobs({ pollMs: 100 });
    try {
      expect((await syncAccount(userId, CID, { now: () => NOW })).status).toBe("ok");
      await expect
        .poll(
          async () => {
            const rows = await ctx.db.selectFrom("impact_records").select(["subject", "stamp"]).where("customer_id", "=", CID).execute();
            return rows.filter((r) => !stale.some((s) => s.stamp === r.stamp)).length;
          },
          { timeout: 60_000, interval: 200 },
        )
        .toBe(stale.length);
    } finally {
      await stopJobs(5_000);
    }
  }, 90_000);
});
