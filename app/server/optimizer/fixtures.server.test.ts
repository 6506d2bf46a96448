// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import {
  campaignOf,
  ENGINE_ACCOUNT_IDS,
  ENGINE_TODAY,
  healthyAccount,
  noTargetAccount,
  RULE_PLANTS,
  ruleAccount,
  SAFETY_EDGES,
  type CustomerInput,
  type PlantedRule,
} from "../../../emulator/fixtures/engine";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { buildContext } from "./context.server";
import { loadAccountData } from "./data.server";
import { enforceSafety } from "./safety.server";
import { runOptimizer } from "./run.server";
import { listRecommendations } from "./service.server";
import { hasAnyTarget, setAccountTargets } from "./targets.server";
import { RECOMMENDATION_TYPES, type Finding, type Recommendation } from "./types.server";

// The engine over accounts described as fixtures, through the real path:
// fixture → emulator store → the app's OAuth, account discovery and sync →
// engine → stored recommendations. A healthy account gives nothing; each
// rule's fixture plants one finding and gets exactly that one.

const NOW = new Date(`${ENGINE_TODAY}T15:00:00Z`);
const CLEAN = ENGINE_ACCOUNT_IDS.healthy;
const RULES = Object.keys(RULE_PLANTS) as PlantedRule[];
const ruleId = ENGINE_ACCOUNT_IDS.rule;
const EDGE = {
  lagCostOnly: "3000000001",
  lagConversions: "3000000002",
  lagConversionsControl: "3000000003",
  ngramLagConvertingTerm: "3000000004",
  ngramConvertingAddedTerm: "3000000005",
  ngramBlocksEnabledKeyword: "3000000006",
  youngKeyword: "3000000007",
  convertingAboveTargetRoas: "3000000008",
  convertingAboveTargetRoasControl: "3000000009",
  manyKeywords: "3000000010",
  fewKeywords: "3000000011",
  ngramProductWord: "3000000012",
  noTarget: "3000000013",
  noTargetWithSetting: "3000000014",
  overlaps: "3000000015",
  learning: "3000000016",
};
const edges: CustomerInput[] = [
  SAFETY_EDGES.lagCostOnly(EDGE.lagCostOnly),
  SAFETY_EDGES.lagConversions(EDGE.lagConversions),
  SAFETY_EDGES.lagConversions(EDGE.lagConversionsControl, false),
  SAFETY_EDGES.ngramLagConvertingTerm(EDGE.ngramLagConvertingTerm),
  SAFETY_EDGES.ngramConvertingAddedTerm(EDGE.ngramConvertingAddedTerm),
  SAFETY_EDGES.ngramBlocksEnabledKeyword(EDGE.ngramBlocksEnabledKeyword),
  SAFETY_EDGES.youngKeyword(EDGE.youngKeyword),
  SAFETY_EDGES.convertingAboveTargetRoas(EDGE.convertingAboveTargetRoas),
  SAFETY_EDGES.convertingAboveTargetRoas(EDGE.convertingAboveTargetRoasControl, 500),
  SAFETY_EDGES.manyKeywords(EDGE.manyKeywords),
  SAFETY_EDGES.fewKeywords(EDGE.fewKeywords),
  SAFETY_EDGES.ngramProductWord(EDGE.ngramProductWord),
  SAFETY_EDGES.overlaps(EDGE.overlaps),
  learningAccount(EDGE.learning),
  noTargetAccount(EDGE.noTarget),
  noTargetAccount(EDGE.noTargetWithSetting, "Edge: no campaign target, $20 set in Settings"),
];

/** The budget_limited plant with its strategy still learning (Google's primary status LEARNING). */
function learningAccount(id: string): CustomerInput {
  const c = ruleAccount("budget_limited", id);
  c.name = "Edge: budget-limited while its strategy learns";
  campaignOf(c, "Search | Tents").learning = true;
  return c;
}

let emu: RunningEmulator;
let ctx: TestContext;
const recs = new Map<string, Recommendation[]>();

beforeAll(async () => {
  const customers: CustomerInput[] = [healthyAccount(CLEAN), ...RULES.map((t) => ruleAccount(t, ruleId(t))), ...edges];
  emu = await startEmulator({ store: createFixtureStore({ customers }, { today: ENGINE_TODAY, source: "engine fixtures" }) });
  ctx = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  for (const c of customers) {
    const id = String(c.id);
    const state = await syncAccount(userId, id, { now: () => NOW });
    // The engine runs as the job the sync queued.
    await drainJobs(ctx.db, ["engine-run"]);
    expect(state.status, c.name).toBe("ok");
    recs.set(id, (await listRecommendations(ctx.db, id, { now: NOW })).recommendations);
  }
  // The same account with a target CPA of $20 set in Settings (stored in account_targets), analysed again.
  await setAccountTargets(ctx.db, EDGE.noTargetWithSetting, userId, { targetCpa: 20, targetRoasPercent: null });
  await runOptimizer(EDGE.noTargetWithSetting, { now: NOW });
  recs.set(EDGE.noTargetWithSetting, (await listRecommendations(ctx.db, EDGE.noTargetWithSetting, { now: NOW })).recommendations);
}, 300_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const of = (customerId: string) => recs.get(customerId)!;
const figure = (r: Recommendation, name: string) => r.evidence.figures.find((f) => f.name === name)?.value;
const summary = (list: Recommendation[]) => list.map((r) => `${r.type}: ${r.title}`).join("\n");

/** Ids the emulator assigned, read back from the synced tables. */
async function keywordKey(customerId: string, text: string, adGroup?: string): Promise<string> {
  let q = ctx.db
    .selectFrom("ads_keywords")
    .innerJoin("ads_ad_groups", (j) =>
      j.onRef("ads_ad_groups.id", "=", "ads_keywords.ad_group_id").onRef("ads_ad_groups.customer_id", "=", "ads_keywords.customer_id"),
    )
    .select(["ads_keywords.ad_group_id", "ads_keywords.criterion_id"])
    .where("ads_keywords.customer_id", "=", customerId)
    .where("ads_keywords.text", "=", text)
    .where("ads_keywords.negative", "=", 0);
  if (adGroup) q = q.where("ads_ad_groups.name", "=", adGroup);
  const row = await q.executeTakeFirstOrThrow();
  return `${row.ad_group_id}~${row.criterion_id}`;
}
async function idOf(customerId: string, table: "ads_campaigns" | "ads_ad_groups", name: string): Promise<string> {
  return (await ctx.db.selectFrom(table).select("id").where("customer_id", "=", customerId).where("name", "=", name).executeTakeFirstOrThrow()).id;
}

describe("fixtures through sync and engine", () => {
  it("the healthy account gets no recommendation", () => {
    expect(summary(of(CLEAN))).toBe("");
  });

  it("each rule's fixture gets exactly its one finding", () => {
    expect(RULES.slice().sort()).toEqual([...RECOMMENDATION_TYPES].sort());
    for (const type of RULES) {
      const list = of(ruleId(type));
      expect(
        list.map((r) => r.type),
        `${type}:\n${summary(list)}`,
      ).toEqual([type]);
    }
  });

  it("wasted_keyword: pause, on the 30 judged days' figures, Strong", async () => {
    const [r] = of(ruleId("wasted_keyword"));
    const id = await keywordKey(ruleId("wasted_keyword"), "tent footprint");
    expect(id).toMatch(/~300000009001$/);
    expect(r.resources[0]).toMatchObject({ kind: "keyword", id });
    expect(r.actions).toEqual([{ type: "status", kind: "keyword", ids: [id], status: "PAUSED" }]);
    expect(r.evidence.dateRange).toEqual({ from: "2026-10-20", to: "2026-11-18" });
    expect([figure(r, "clicks"), figure(r, "cost"), figure(r, "conversions")]).toEqual([300, 360, 0]);
    expect(figure(r, "breakEvenRate")).toBe(4);
    expect(r.evidence.target).toMatchObject({ metric: "cpa", value: 30, source: "bidding strategy" });
    expect(r.confidenceLabel).toBe("Strong");
    // Impact: the spend of the last 30 days of data (27 of the 30 days the keyword ran).
    expect(r.impact).toMatchObject({ kind: "cost_saved", monthly: 324 });
  });

  it("wasted_search_term: an exact negative in its ad group", async () => {
    const c = ruleId("wasted_search_term");
    const [r] = of(c);
    const adGroup = await idOf(c, "ads_ad_groups", "Family Tents");
    expect(r.resources[0]).toMatchObject({ kind: "search_term", id: "family tent repair kit" });
    expect(r.actions).toEqual([
      { type: "add_negatives", level: "ad_group", parentId: adGroup, keywords: [{ text: "family tent repair kit", matchType: "EXACT" }] },
    ]);
    expect([figure(r, "clicks"), figure(r, "cost"), figure(r, "conversions")]).toEqual([120, 120, 0]);
    expect(figure(r, "matchedKeywords")).toBe("family tent");
    expect(r.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it("negative_ngram: “free” as a phrase negative on the campaign, its four terms as evidence", async () => {
    const c = ruleId("negative_ngram");
    const [r] = of(c);
    const campaign = await idOf(c, "ads_campaigns", "Search | Tents");
    expect(r.resources[0]).toMatchObject({ kind: "search_term", id: "free" });
    expect(r.actions).toEqual([{ type: "add_negatives", level: "campaign", parentId: campaign, keywords: [{ text: "free", matchType: "PHRASE" }] }]);
    expect([figure(r, "termCount"), figure(r, "clicks"), figure(r, "cost"), figure(r, "conversions")]).toEqual([4, 112, 112, 0]);
    expect(String(figure(r, "examples")).split(" · ").sort()).toEqual(["free camping gear", "free dome tent", "free family tent giveaway", "free tent"]);
    expect(r.confidenceLabel).toBe("Strong");
  });

  it("harvest_search_term: the converting term as an exact keyword of its ad group", async () => {
    const c = ruleId("harvest_search_term");
    const [r] = of(c);
    const adGroup = await idOf(c, "ads_ad_groups", "Family Tents");
    // Maximize Conversions: no bid of its own.
    expect(r.actions).toEqual([{ type: "add_keywords", adGroupId: adGroup, keywords: [{ text: "large family tent with porch", matchType: "EXACT" }] }]);
    expect(Number(figure(r, "conversions"))).toBeGreaterThanOrEqual(5);
    expect(figure(r, "matchedKeyword")).toBe("family tent");
    expect(r.impact.kind).toBe("conversions_gained");
  });

  it("budget_limited: +25 % (the cap), with the impression shares it rests on", async () => {
    const c = ruleId("budget_limited");
    const [r] = of(c);
    const campaign = await idOf(c, "ads_campaigns", "Search | Tents");
    expect(r.actions).toEqual([{ type: "budget", campaignId: campaign, amount: 37.5 }]);
    expect(figure(r, "dailyBudget")).toBe(30);
    expect(figure(r, "searchImpressionShare")).toBeCloseTo(50, 1);
    expect(figure(r, "budgetLostImpressionShare")).toBeCloseTo(40, 1);
    expect(r.impact.kind).toBe("conversions_gained");
    expect(r.impact.monthly).toBeGreaterThan(0);
  });

  it("bid_adjustment: the costly ad group's default bid −20 % (the cap)", async () => {
    const c = ruleId("bid_adjustment");
    const [r] = of(c);
    expect(r.actions).toEqual([{ type: "bid", kind: "ad_group", items: [{ id: "140000009001", cpc: 1.6 }] }]);
    expect(figure(r, "bid")).toBe(2);
    // No target on the manual-CPC campaign: the other campaign's blend ($25) is the reference, and $67 is far above it.
    expect(r.evidence.target).toMatchObject({ metric: "cpa", source: "account reference" });
    expect(r.evidence.target!.value).toBeCloseTo(25, 0);
    expect(r.evidence.target!.label).toContain("setting one in Settings sharpens this advice");
    expect(r.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it("low_quality_score: the three components, nothing automatic", () => {
    const [r] = of(ruleId("low_quality_score"));
    expect(r.resources[0].id).toMatch(/~300000009002$/);
    expect(figure(r, "qualityScore")).toBe(2);
    for (const name of ["searchPredictedCtr", "creativeQualityScore", "postClickQualityScore"]) expect(figure(r, name)).toBe("Below average");
    expect(r.actions).toEqual([]);
  });

  it("weak_ad: poor strength and the low assets, linked to the ad generator", async () => {
    const c = ruleId("weak_ad");
    const [r] = of(c);
    const [campaign, adGroup] = [await idOf(c, "ads_campaigns", "Search | Tents"), await idOf(c, "ads_ad_groups", "Dome Tents")];
    expect(r.resources[0]).toMatchObject({ kind: "ad", id: `${adGroup}~650000009001` });
    expect(figure(r, "adStrength")).toBe("Poor");
    expect(figure(r, "lowAssets")).toBe(4);
    expect(r.actions).toEqual([]);
    expect(r.links[0].href).toBe(`/ad-generator?campaignId=${campaign}&adGroupId=${adGroup}`);
  });

  it("duplicate_keyword: pauses the twin that converts worse", async () => {
    const c = ruleId("duplicate_keyword");
    const [r] = of(c);
    const [weak, strong] = [await keywordKey(c, "dome tent", "Family Tents"), await keywordKey(c, "dome tent", "Dome Tents")];
    expect(r.resources.filter((x) => x.kind === "keyword").map((x) => x.id)).toEqual([strong, weak]);
    expect(r.actions).toEqual([{ type: "status", kind: "keyword", ids: [weak], status: "PAUSED" }]);
  });

  it("paused_converting: enable, with its conversions while live", async () => {
    const c = ruleId("paused_converting");
    const [r] = of(c);
    const id = await keywordKey(c, "tent with vestibule");
    expect(r.actions).toEqual([{ type: "status", kind: "keyword", ids: [id], status: "ENABLED" }]);
    expect([figure(r, "conversions"), figure(r, "cost"), figure(r, "cpa")]).toEqual([18, 270, 15]);
    expect(figure(r, "lastActive")).toBe("2026-10-27");
  });

  it("rarely_served: one finding for the campaign, naming both keywords, nothing automatic", async () => {
    const c = ruleId("rarely_served");
    const [r] = of(c);
    const campaign = await idOf(c, "ads_campaigns", "Search | Tents");
    const ids = [await keywordKey(c, "12 person cabin tent with porch"), await keywordKey(c, "2 person canvas bell tent")];
    expect(r.resources.map((x) => x.id)).toEqual([...ids, campaign]);
    expect([figure(r, "keywordCount"), figure(r, "impressions"), figure(r, "withoutQualityScore")]).toEqual([2, 2, 2]);
    expect(r.actions).toEqual([]);
    expect(r.impact.kind).toBe("none");
  });

  it("blocked_keyword: removes the campaign negative that silences the keyword", async () => {
    const c = ruleId("blocked_keyword");
    const [r] = of(c);
    const campaign = await idOf(c, "ads_campaigns", "Search | Tents");
    expect(r.resources[0].id).toBe(await keywordKey(c, "instant tent"));
    expect(r.actions).toEqual([{ type: "remove_negatives", level: "campaign", ids: [`${campaign}~500000009001`] }]);
    expect(figure(r, "keywordImpressions")).toBe(0);
  });
});

/** The keyword texts a list proposes to pause. */
const pausedTexts = (list: Recommendation[]) =>
  list
    .filter((r) => r.type === "wasted_keyword" && r.actions.some((a) => a.type === "status" && a.status === "PAUSED"))
    .map((r) => r.resources[0].name.replace(/ \(.*\)$/, ""));
const negativesOf = (list: Recommendation[]) =>
  list.flatMap((r) => r.actions.flatMap((a) => (a.type === "add_negatives" ? a.keywords.map((k) => `${k.text} (${k.matchType})`) : [])));

describe("the safety rules, on accounts at their edge (each with a control that is flagged)", () => {
  it("the last 3 days are never judged: spend there alone flags nothing", () => {
    expect(summary(of(EDGE.lagCostOnly))).toBe("");
    // The control is the wasted_keyword plant: the same spend in judged days is paused.
    expect(pausedTexts(of(ruleId("wasted_keyword")))).toEqual(["tent footprint"]);
  });

  it("but conversions that already arrived in them count: a keyword converting at target there is never paused", () => {
    expect(pausedTexts(of(EDGE.lagConversionsControl))).toEqual(["tent lantern"]);
    expect(pausedTexts(of(EDGE.lagConversions))).toEqual([]);
    expect(summary(of(EDGE.lagConversions))).toBe("");
  });

  it("entities younger than 7 days are never judged", () => {
    expect(summary(of(EDGE.youngKeyword))).toBe("");
  });

  it("never a negative that blocks an enabled keyword", () => {
    expect(negativesOf(of(ruleId("negative_ngram")))).toEqual(["free (PHRASE)"]);
    expect(negativesOf(of(EDGE.ngramBlocksEnabledKeyword))).toEqual([]);
  });

  it("never a negative made of the ad group's own product words (plural/singular included): the distinctive words instead", async () => {
    const list = of(EDGE.ngramProductWord);
    const adGroup = await idOf(EDGE.ngramProductWord, "ads_ad_groups", "Kids Toys");
    expect(negativesOf(list).sort()).toEqual(["diy (PHRASE)", "free (PHRASE)"]);
    for (const r of list.filter((x) => x.type === "negative_ngram"))
      expect(r.actions).toEqual([expect.objectContaining({ level: "ad_group", parentId: adGroup })]);
    // The final gate refuses it too, whichever rule would propose it (an n-gram or a search term).
    const data = await loadAccountData(ctx.db, EDGE.ngramProductWord, "USD", NOW);
    const c = buildContext(data!);
    const neg = (key: string, text: string, matchType: string) =>
      ({
        key,
        type: "negative_ngram",
        actions: [{ type: "add_negatives", level: "ad_group", parentId: adGroup, keywords: [{ text, matchType }] }],
      }) as unknown as Finding;
    const { kept, dropped } = enforceSafety(c, [neg("toy", "toy", "PHRASE"), neg("wooden toy", "wooden toy", "EXACT"), neg("toy box", "toy box", "PHRASE")]);
    expect(kept.map((f) => f.key)).toEqual(["toy box"]);
    expect(dropped.map((d) => d.reason)).toEqual([
      "“toy” is the ad group's own product (a word of its keywords)",
      "“wooden toy” is the ad group's own product (a word of its keywords)",
    ]);
  });

  it("never a negative that blocks a search term that converted, even when it converted in the last 3 days", () => {
    expect(negativesOf(of(EDGE.ngramConvertingAddedTerm))).toEqual([]);
    expect(negativesOf(of(EDGE.ngramLagConvertingTerm))).toEqual([]);
  });

  it("no budget advice while a bidding strategy learns (the rule's own plant, above, is the control)", async () => {
    const learning = of(EDGE.learning);
    expect(
      learning.filter((r) => r.type === "budget_limited"),
      summary(learning),
    ).toEqual([]);
    const status = await ctx.db
      .selectFrom("ads_campaigns")
      .select(["primary_status", "primary_status_reasons"])
      .where("customer_id", "=", EDGE.learning)
      .where("name", "=", "Search | Tents")
      .executeTakeFirstOrThrow();
    expect(status).toEqual({ primary_status: "LEARNING", primary_status_reasons: JSON.stringify(["BIDDING_STRATEGY_LEARNING"]) });
    expect(of(ruleId("budget_limited")).filter((r) => r.type === "budget_limited")).toHaveLength(1);
  });

  it("never pauses what converts at or above target ROAS, however rarely it converts", () => {
    expect(pausedTexts(of(EDGE.convertingAboveTargetRoasControl))).toEqual(["premium tent"]);
    expect(pausedTexts(of(EDGE.convertingAboveTargetRoas))).toEqual([]);
  });

  it("controls false discoveries across many keywords (Benjamini–Hochberg)", () => {
    const three = ["tent accessory 1", "tent accessory 2", "tent accessory 3"];
    expect(pausedTexts(of(EDGE.fewKeywords)).sort()).toEqual(three);
    // Among 40 tested, three p-values of 1–3 % are what chance alone gives.
    expect(pausedTexts(of(EDGE.manyKeywords))).toEqual([]);
  });

  it("the final gate drops any finding whose actions break a rule, whatever rule made it", async () => {
    const data = await loadAccountData(ctx.db, CLEAN, "USD", NOW);
    const c = buildContext(data!);
    const campaign = data!.campaigns.find((x) => x.name === "Search | Tents")!.id;
    const family = data!.adGroups.find((g) => g.name === "Family Tents")!.id;
    const familyTent = data!.keywords.find((k) => k.text === "family tent")!;
    const finding = (key: string, actions: Finding["actions"]) => ({ key, actions, type: "wasted_search_term" }) as unknown as Finding;
    const { kept, dropped } = enforceSafety(c, [
      finding("blocks-keyword", [{ type: "add_negatives", level: "campaign", parentId: campaign, keywords: [{ text: "tent", matchType: "PHRASE" }] }]),
      finding("blocks-converting-term", [
        { type: "add_negatives", level: "ad_group", parentId: family, keywords: [{ text: "big family tent", matchType: "EXACT" }] },
      ]),
      {
        ...finding("pauses-converting", [{ type: "status", kind: "keyword", ids: [`${family}~${familyTent.criterionId}`], status: "PAUSED" }]),
        type: "wasted_keyword",
      },
      finding("safe", [{ type: "add_negatives", level: "ad_group", parentId: family, keywords: [{ text: "tent rental", matchType: "EXACT" }] }]),
    ]);
    expect(kept.map((f) => f.key)).toEqual(["safe"]);
    expect(dropped).toEqual([
      { key: "blocks-keyword", reason: "it would block the enabled keyword “family tent”" },
      { key: "blocks-converting-term", reason: "it would block the converting search term “big family tent”" },
      { key: "pauses-converting", reason: "“family tent” converts at or below target" },
    ]);
  });
});

describe("no self-referential targets (issue 28 point 2)", () => {
  const titles = (list: Recommendation[], type: string) => list.filter((r) => r.type === type).map((r) => r.resources[0].name);

  it("without any target, campaigns are compared with the account's other campaigns of their channel, and the evidence says so", () => {
    const list = of(EDGE.noTarget);
    // Budget-limited at half the others' cost per conversion: flagged (against its own average it never could be).
    const [budget] = list.filter((r) => r.type === "budget_limited");
    expect(budget?.resources[0].name, summary(list)).toBe("Search | Tents");
    expect(budget.evidence.target).toMatchObject({ metric: "cpa", source: "account reference" });
    // The other two campaigns' blend over the judged window: ≈ $13,390 / 410 conversions.
    expect(budget.evidence.target!.value).toBeCloseTo(13390 / 410, 0);
    expect(budget.evidence.target!.label).toMatch(/2 other Search campaigns.*setting one in Settings sharpens this advice/);
    // The paused keyword with 40 conversions near its campaign's average, below the reference: enable it.
    expect(titles(list, "paused_converting")).toEqual(["leather boots (phrase)"]);
    // Above its campaign's average but not far from the account's: no bid cut. Twice the account's: cut.
    expect(titles(list, "bid_adjustment")).toEqual(["Camp Stoves"]);
    const [cut] = list.filter((r) => r.type === "bid_adjustment");
    expect(cut.actions).toEqual([{ type: "bid", kind: "ad_group", items: [{ id: cut.resources[0].id, cpc: 2 }] }]);
    expect(cut.evidence.notes.join(" ")).toContain("No target is set");
    expect(list.map((r) => r.type).sort(), summary(list)).toEqual(["bid_adjustment", "budget_limited", "paused_converting"]);
  });

  it("the panel knows whether any target exists: a campaign's bidding strategy or the account's setting", async () => {
    expect(await hasAnyTarget(ctx.db, EDGE.noTarget)).toBe(false);
    expect(await hasAnyTarget(ctx.db, EDGE.noTargetWithSetting)).toBe(true);
    expect(await hasAnyTarget(ctx.db, CLEAN)).toBe(true);
  });

  it("a target set in Settings wins over the reference: the $30 ad group is cut against it, the $15 campaign still gets budget", () => {
    const list = of(EDGE.noTargetWithSetting);
    for (const r of list.filter((x) => x.evidence.target))
      expect(r.evidence.target, r.title).toMatchObject({ metric: "cpa", value: 20, source: "account setting" });
    expect(titles(list, "budget_limited")).toEqual(["Search | Tents"]);
    expect(titles(list, "bid_adjustment").sort()).toEqual(["Camp Stoves", "Trail Boots"]);
    // $26 a conversion misses a $20 target: the paused keyword stays paused.
    expect(titles(list, "paused_converting")).toEqual([]);
  });
});

describe("overlapping findings on one entity (issue 29 point 5)", () => {
  it("become one item with the best action and the others as alternatives, their impact counted once", async () => {
    const list = of(EDGE.overlaps);
    expect(
      list
        .map(
          (r) =>
            `${r.type}: ${r.resources[0].name} [${r.alternatives
              .map((a) => a.type)
              .sort()
              .join(", ")}]`,
        )
        .sort(),
      summary(list),
    ).toEqual([
      // "free tent" (ad group) sits inside the campaign's "free"; "free tent rental" fails on its own too.
      "negative_ngram: free [negative_ngram, wasted_search_term]",
      "wasted_keyword: tent footprint (broad) [low_quality_score, wasted_search_term]",
    ]);
    const pause = list.find((r) => r.type === "wasted_keyword")!;
    // The alternatives keep their own evidence and actions (one can be chosen instead), in the account's currency.
    const qs = pause.alternatives.find((a) => a.type === "low_quality_score")!;
    expect(qs.evidence.figures.find((f) => f.name === "qualityScore")?.value).toBe(2);
    const term = pause.alternatives.find((a) => a.type === "wasted_search_term")!;
    expect(term.actions[0]).toMatchObject({ type: "add_negatives", keywords: [{ text: "tent footprint ground sheet", matchType: "EXACT" }] });
    expect(term.currencyCode).toBe("USD");
    // Counted once: the score lists only the items, never an alternative.
    const { score } = await listRecommendations(ctx.db, EDGE.overlaps, { now: NOW });
    const scored = score.breakdown.flatMap((c) => c.items.map((i) => i.recommendationId));
    expect(scored.sort()).toEqual(list.map((r) => r.id).sort());
  });
});
