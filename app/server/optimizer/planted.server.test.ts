// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { runOptimizer } from "./run.server";
import { buildContext } from "./context.server";
import { loadAccountData } from "./data.server";
import { bidAdjustments } from "./rules/bid-adjustment.server";
import { costPerTargetConversion } from "./rules/shared.server";
import { listRecommendations } from "./service.server";
import type { Recommendation, RecommendationType } from "./types.server";

// Every planted finding of the demo account (emulator/ads/demo/PLANTED.md),
// found by the engine after a real sync through the emulator, as the right
// `type`, with evidence that matches the synced rows.

const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const RICH = DEMO_RICH_CUSTOMER_ID;

let emu: RunningEmulator;
let ctx: TestContext;
let recs: Recommendation[];

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY } });
  ctx = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  const state = await syncAccount(userId, RICH, { now: () => NOW });
  // The engine runs as the job the sync queued.
  await drainJobs(ctx.db, ["engine-run"]);
  expect(state.status).toBe("ok");
  recs = (await listRecommendations(ctx.db, RICH, { now: NOW })).recommendations;
}, 300_000);

it("a second run on unchanged data gives the same recommendations (deterministic, same ids)", async () => {
  const summary = await runOptimizer(RICH, { now: NOW });
  console.info(`engine on the demo account: ${Math.round(summary.durationMs)} ms, ${summary.recommendations} recommendations`);
  const again = (await listRecommendations(ctx.db, RICH, { now: NOW })).recommendations;
  expect(again.map((r) => [r.id, r.title])).toEqual(recs.map((r) => [r.id, r.title]));
});

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const ofType = (type: RecommendationType) => recs.filter((r) => r.type === type);
/** A finding of that type about the resource: an item, or an alternative folded into an item on the same entity (issue 29 point 5). */
const about = (type: RecommendationType, resourceId: string) => ofType(type).find((r) => r.resources.some((x) => x.id === resourceId));
const aboutAny = (
  type: RecommendationType,
  resourceId: string,
): Pick<Recommendation, "type" | "title" | "confidence" | "actions" | "evidence" | "resources"> | undefined =>
  about(type, resourceId) ?? recs.flatMap((r) => r.alternatives).find((a) => a.type === type && a.resources.some((x) => x.id === resourceId));
const figure = (r: Pick<Recommendation, "evidence">, name: string) => r.evidence.figures.find((f) => f.name === name)?.value;

/** The keyword's totals straight from the synced rows, over the evidence's own date range. */
async function keywordTotals(id: string, range: { from: string; to: string }) {
  const [ag, crit] = id.split("~");
  const row = await ctx.db
    .selectFrom("ads_keyword_daily")
    .select([
      sql<number>`COALESCE(SUM(clicks), 0)`.as("clicks"),
      sql<number>`COALESCE(SUM(cost_micros), 0)`.as("cost"),
      sql<number>`COALESCE(SUM(conversions), 0)`.as("conv"),
    ])
    .where("customer_id", "=", RICH)
    .where("ad_group_id", "=", ag)
    .where("criterion_id", "=", crit)
    .where("date", ">=", range.from)
    .where("date", "<=", range.to)
    .executeTakeFirstOrThrow();
  return { clicks: Number(row.clicks), cost: Number(row.cost) / 1e6, conversions: Number(row.conv) };
}

describe("planted findings of the demo account", () => {
  it("P1: keywords that spend without converting → wasted_keyword, paused, evidence = the synced rows", async () => {
    for (const id of [
      "140000000032~300000000697",
      "140000000129~300000003683",
      "140000000164~300000004663",
      "140000000261~300000007681",
      "140000000288~300000008653",
    ]) {
      const r = about("wasted_keyword", id);
      expect(r, id).toBeDefined();
      expect(r!.confidence).toBeGreaterThanOrEqual(0.95);
      expect(r!.confidenceLabel).toBe("Strong");
      expect(r!.actions).toEqual([{ type: "status", kind: "keyword", ids: [id], status: "PAUSED" }]);
      const real = await keywordTotals(id, r!.evidence.dateRange);
      expect(figure(r!, "clicks")).toBe(real.clicks);
      expect(figure(r!, "cost")).toBeCloseTo(real.cost, 2);
      expect(figure(r!, "conversions")).toBe(0);
      // Never judged on the last 3 days.
      expect(r!.evidence.dateRange.to).toBe("2026-11-18");
      expect(r!.evidence.syncedAt).toBeTruthy();
      expect(r!.impact.kind).toBe("cost_saved");
      expect(r!.impact.monthly).toBeGreaterThan(0);
    }
  });

  it("P2: junk search terms → wasted_search_term or the failing n-gram “free” (3+ campaigns); the rest are below the significance bar", async () => {
    const grams = ofType("negative_ngram");
    const viaGram = (t: string) =>
      grams.find(
        (g) =>
          g.resources[0].id.split(" ").every((w) => t.split(" ").includes(w)) &&
          g.evidence.figures.some((f) => f.name === "examples" && String(f.value).includes(t)),
      );
    const free = grams.find((r) => r.resources[0].id === "free");
    expect(free, "the n-gram “free”").toBeDefined();
    expect(figure(free!, "conversions")).toBe(0);
    expect(Number(figure(free!, "campaignCount"))).toBeGreaterThanOrEqual(3);
    expect(free!.actions.length).toBeGreaterThanOrEqual(3);
    for (const a of free!.actions) expect(a).toMatchObject({ type: "add_negatives", level: "campaign", keywords: [{ text: "free", matchType: "PHRASE" }] });
    for (const t of ["free camping sites near me", "free tent giveaway", "free sleeping bag", "free backpack"])
      expect(viaGram(t)?.resources[0].id, t).toBe("free");
    for (const t of ["dog sleeping bag", "camp stove recall"]) {
      const r = about("wasted_search_term", t);
      expect(r, t).toBeDefined();
      expect(figure(r!, "conversions")).toBe(0);
      expect(Number(figure(r!, "clicks"))).toBeGreaterThanOrEqual(45);
      expect(r!.confidence).toBeGreaterThanOrEqual(0.9);
      expect(r!.actions).toEqual([{ type: "add_negatives", level: "ad_group", parentId: expect.any(String), keywords: [{ text: t, matchType: "EXACT" }] }]);
    }
    // The other plants are junk too; each is either excluded (with the same evidence) or spent less than
    // three target conversions without converting: the rule of three (research §0.3) cannot call that a 95 %
    // verdict. (Since issue 28 point 2 the boots campaign, which has no target, is judged against the account's
    // other Search campaigns instead of its own average, and "boot repair near me" and "cowboy boots" cross the bar.)
    const data = (await loadAccountData(ctx.db, RICH, "USD", NOW))!;
    const engine = buildContext(data);
    for (const t of ["how to set up a tent", "boot repair near me", "cowboy boots", "used climbing rope", "climbing rope swing"]) {
      const row = data.searchTerms.find((x) => x.term === t)!;
      expect(row.m.all.conversions, t).toBe(0);
      const unit = costPerTargetConversion(engine, engine.targetOf(row.campaignId)!, row.campaignId)!;
      const r = aboutAny("wasted_search_term", t) ?? viaGram(t);
      if (row.m.all.cost < 3 * unit) expect(r, t).toBeUndefined();
      else {
        expect(r, t).toBeDefined();
        expect(figure(r!, "conversions"), t).toBe(0);
        expect(r!.confidence, t).toBeGreaterThanOrEqual(0.9);
      }
    }
    expect(aboutAny("wasted_search_term", "boot repair near me")).toBeDefined();
  });

  it("P3: Search | Climbing Gear → budget_limited with a capped raise and the gain stated", () => {
    const r = about("budget_limited", "17000000035");
    expect(r).toBeDefined();
    expect(r!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(Number(figure(r!, "budgetLostImpressionShare"))).toBeGreaterThan(40);
    expect(r!.evidence.target).toMatchObject({ metric: "roas", value: 3, source: "bidding strategy" });
    const action = r!.actions[0] as { type: string; campaignId: string; amount: number };
    expect(action.type).toBe("budget");
    expect(action.campaignId).toBe("17000000035");
    const budget = Number(figure(r!, "dailyBudget"));
    expect(action.amount).toBeGreaterThan(budget);
    expect(action.amount).toBeLessThanOrEqual(budget * 1.25 + 0.01);
    expect(r!.impact.kind).toBe("value_gained");
    expect(r!.impact.monthly).toBeGreaterThan(0);
    expect(ofType("budget_limited").map((x) => x.resources[0].id)).toEqual(["17000000035"]);
  });

  it("P4: duplicate keywords → duplicate_keyword pausing one twin; layered match types are not duplicates", () => {
    const pairs = [
      ["140000000105~300000002832", "140000000121~300000003473"],
      ["140000000024~300000000280", "140000000035~300000000942"],
      ["140000000148~300000004189", "140000000156~300000004582"],
    ];
    for (const [a, b] of pairs) {
      const r = about("duplicate_keyword", a);
      expect(r, a).toBeDefined();
      expect(r!.resources.map((x) => x.id)).toContain(b);
      const paused = (r!.actions[0] as { ids: string[] }).ids;
      expect(paused).toHaveLength(1);
      expect([a, b]).toContain(paused[0]);
    }
    expect(ofType("duplicate_keyword")).toHaveLength(3);
  });

  it("P5: poor ads → weak_ad linking to the ad generator for that ad group", () => {
    for (const id of ["140000000078~650000000172", "140000000269~650000000549", "140000000288~650000000611"]) {
      const r = about("weak_ad", id);
      expect(r, id).toBeDefined();
      expect(figure(r!, "adStrength")).toBe("Poor");
      expect(Number(figure(r!, "lowAssets"))).toBeGreaterThanOrEqual(3);
      expect(r!.actions).toEqual([]);
      expect(r!.links[0].href).toBe(`/ad-generator?campaignId=${r!.resources.find((x) => x.kind === "campaign")!.id}&adGroupId=${id.split("~")[0]}`);
    }
  });

  it("P6: low quality score with spend → low_quality_score with the three components", () => {
    const boots = aboutAny("low_quality_score", "140000000137~300000003885");
    expect(boots).toBeDefined();
    expect(figure(boots!, "qualityScore")).toBe(2);
    for (const c of ["searchPredictedCtr", "creativeQualityScore", "postClickQualityScore"]) expect(figure(boots!, c)).toBe("Below average");
    for (const id of ["140000000070~300000001887", "140000000059~300000001432"]) {
      const r = aboutAny("low_quality_score", id);
      expect(r, id).toBeDefined();
      expect(figure(r!, "qualityScore")).toBe(3);
    }
  });

  it("issue 28 point 2: no bid cut for beating or missing a campaign's own average (Brand - Core earns ~29× its cost)", () => {
    const bids = ofType("bid_adjustment");
    expect(bids.find((r) => r.resources.some((x) => x.name === "Brand - Core"))).toBeUndefined();
    const cpa = (r: Recommendation) => Number(figure(r, "cost")) / Number(figure(r, "conversions"));
    for (const r of bids) {
      expect(r.evidence.target?.source, r.title).not.toBe("assumed target");
      // Against a reference, only "far above it" is a reason (1.5×), and only to cut.
      if (r.evidence.target?.source === "account reference") {
        expect(r.actions[0]).toMatchObject({ type: "bid" });
        expect(cpa(r), r.title).toBeGreaterThan(1.5 * r.evidence.target.value);
        expect(r.title, r.title).toMatch(/^Lower/);
      }
    }
  });

  it("P7: bids far off target → bid_adjustment (Trail Shoes' bid −20 %; Camp Stoves' target override −15 %)", () => {
    const trail = ofType("bid_adjustment").find((r) => r.resources[0].id === "140000000129");
    expect(trail).toBeDefined();
    expect(trail!.actions).toEqual([{ type: "bid", kind: "ad_group", items: [{ id: "140000000129", cpc: 4.64 }] }]);
    // Evidence: Trail Shoes' CPA ≈ $140 against the account reference (no target is set for its campaign).
    const cpa = (r: Recommendation) => Number(figure(r, "cost")) / Number(figure(r, "conversions"));
    expect(cpa(trail!)).toBeGreaterThan(110);
    expect(cpa(trail!)).toBeLessThan(180);
    expect(trail!.evidence.target).toMatchObject({ metric: "cpa", source: "account reference" });
    expect(cpa(trail!)).toBeGreaterThan(2 * trail!.evidence.target!.value);
    const stoves = ofType("bid_adjustment").find((r) => r.resources[0].id === "140000000277");
    expect(stoves).toBeDefined();
    // Camp Stoves' CPA ≈ $60 against the campaign's $24: its own $95 target moves one step (−15 %) toward the campaign's.
    expect(cpa(stoves!)).toBeGreaterThan(45);
    expect(cpa(stoves!)).toBeLessThan(75);
    expect(stoves!.actions).toEqual([{ type: "target_cpa", adGroupId: "140000000277", targetCpa: 80.75 }]);
    expect(figure(stoves!, "adGroupTargetCpa")).toBe(95);
    expect(figure(stoves!, "campaignTargetCpa")).toBe(24);
    expect(figure(stoves!, "proposedTargetCpa")).toBe(80.75);
  });

  it("P7: no target move within 14 days of the last change to Camp Stoves' target (here one made in Google Ads)", async () => {
    const rn = `customers/${RICH}/adGroups/140000000277`;
    const at = new Date(NOW.getTime() - 5 * 86_400_000).toISOString();
    const row = {
      id: "test-p7-rest",
      customer_id: RICH,
      change_date_time: at,
      changed_at: at,
      resource_type: "AD_GROUP",
      resource_name: rn,
      client_type: "GOOGLE_ADS_WEB_CLIENT",
    };
    await ctx.db
      .insertInto("history_imports")
      .values({ ...row, user_email: null, operation: "UPDATE", changed_fields: "target_cpa_micros", old_json: null, new_json: null, imported_at: at })
      .execute();
    try {
      const findings = bidAdjustments(buildContext((await loadAccountData(ctx.db, RICH, "USD", NOW))!));
      expect(findings.some((f) => f.key === "bid_adjustment:ad_group_target:140000000277")).toBe(false);
      // Only that ad group rests: Trail Shoes' bid is still proposed.
      expect(findings.some((f) => f.key === "bid_adjustment:ad_group:140000000129")).toBe(true);
    } finally {
      await ctx.db.deleteFrom("history_imports").where("id", "=", "test-p7-rest").execute();
    }
    const again = bidAdjustments(buildContext((await loadAccountData(ctx.db, RICH, "USD", NOW))!));
    expect(again.find((f) => f.key === "bid_adjustment:ad_group_target:140000000277")?.actions).toEqual([
      { type: "target_cpa", adGroupId: "140000000277", targetCpa: 80.75 },
    ]);
  });

  it("P8: a paused keyword that converted below target → paused_converting (enable)", () => {
    const r = about("paused_converting", "140000000156~300000004372");
    expect(r).toBeDefined();
    expect(figure(r!, "conversions")).toBe(27);
    expect(r!.actions).toEqual([{ type: "status", kind: "keyword", ids: ["140000000156~300000004372"], status: "ENABLED" }]);
  });

  it("P9: a campaign negative blocking an enabled keyword → blocked_keyword removing the negative", () => {
    const r = about("blocked_keyword", "140000000261~300000007595");
    expect(r).toBeDefined();
    expect(figure(r!, "keywordImpressions")).toBe(0);
    expect(r!.actions[0]).toMatchObject({ type: "remove_negatives", level: "campaign" });
    expect(ofType("blocked_keyword")).toHaveLength(1);
  });

  it("P10: a converting term → harvest_search_term (exact keyword in its ad group)", () => {
    const r = about("harvest_search_term", "4 person instant tent with screen room");
    expect(r).toBeDefined();
    expect(Number(figure(r!, "conversions"))).toBeGreaterThanOrEqual(5);
    expect(r!.actions[0]).toMatchObject({ type: "add_keywords", keywords: [{ text: "4 person instant tent with screen room", matchType: "EXACT" }] });
  });

  it("P11: rarely served keywords → rarely_served per campaign, listing every enabled one, nothing automatic", async () => {
    const rows = await ctx.db
      .selectFrom("ads_keywords as k")
      .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.id", "=", "k.ad_group_id").onRef("g.customer_id", "=", "k.customer_id"))
      .innerJoin("ads_campaigns as c", (j) => j.onRef("c.id", "=", "k.campaign_id").onRef("c.customer_id", "=", "k.customer_id"))
      .select(["k.ad_group_id", "k.criterion_id"])
      .where("k.customer_id", "=", RICH)
      .where("k.system_serving_status", "=", "RARELY_SERVED")
      .where("k.status", "=", "ENABLED")
      .where("k.negative", "=", 0)
      .where("g.status", "=", "ENABLED")
      .where("c.status", "=", "ENABLED")
      .where("c.advertising_channel_type", "=", "SEARCH")
      .execute();
    const expected = rows.map((r) => `${r.ad_group_id}~${r.criterion_id}`).sort();
    expect(expected.length).toBeGreaterThan(20);
    const found = ofType("rarely_served");
    expect(found.flatMap((r) => r.resources.filter((x) => x.kind === "keyword").map((x) => x.id)).sort()).toEqual(expected);
    for (const r of found) {
      const n = Number(figure(r, "keywordCount"));
      expect(r.resources.filter((x) => x.kind === "keyword")).toHaveLength(n);
      expect(figure(r, "withoutQualityScore")).toBe(n);
      // "At most a handful of impressions in 90 days" each.
      expect(Number(figure(r, "impressions"))).toBeLessThanOrEqual(5 * n);
      expect(r.actions).toEqual([]);
    }
  });

  it("P12: a term already excluded gets no negative", () => {
    expect(about("wasted_search_term", "tent rental near me")).toBeUndefined();
    expect(ofType("negative_ngram").find((r) => r.resources[0].id === "rental")).toBeUndefined();
  });

  it("every recommendation has the contract's fields, and the list is sorted by impact", () => {
    for (const r of recs) {
      expect(r.id).toMatch(/^[0-9a-f]{24}$/);
      expect(r.title.length).toBeGreaterThan(10);
      expect(r.confidence).toBeGreaterThanOrEqual(0.8);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(r.evidence.dateRange.to <= "2026-11-21").toBe(true);
      expect(r.resources.length).toBeGreaterThan(0);
      expect(r.impact.assumption.length).toBeGreaterThan(10);
    }
  });

  it("the small bakery account has no plants and gets few or no findings", async () => {
    const small = await listRecommendations(ctx.db, DEMO_SMALL_CUSTOMER_ID, { now: NOW });
    expect(small.recommendations).toEqual([]);
  });
});
