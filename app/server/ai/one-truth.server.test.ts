// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import { ENGINE_TODAY, healthyAccount, ruleAccount, RULE_PLANTS } from "../../../emulator/fixtures/engine";
import { formatDateRange } from "~/lib/format";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { drainJobs } from "../../../tests/support/jobs";
import { approved, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { requireAccountOf } from "../account-access.server";
import { syncAccount } from "../ads/sync.server";
import { applyChangeSet } from "../changes/pipeline.server";
import { applyRecommendation, countRecommendations, listRecommendations } from "../optimizer/service.server";
import { recommendationsPanel } from "../optimizer/pages.server";
import { analystAnswer } from "./analyst.server";
import { toolRunners, type ToolContext } from "./tools.server";

// One source of truth (issue 29, point 3): the chat's advice and figures are
// the rules engine's; every figure names its window; an applied change shows
// at once in what the chat and the recommendations read; zero spend is never
// waste. Engine fixture accounts: one with a keyword and a search term that
// spend without converting, one with a budget-limited campaign.

const ID = "2100000001";
const NOW = new Date(`${ENGINE_TODAY}T15:00:00Z`);
let emu: WritableEmulator;
let ctx: TestContext;
let chat: ToolContext;
let budgetChat: ToolContext;
const BUDGET_ID = "2100000002";

beforeAll(async () => {
  const account = healthyAccount(ID, "One truth");
  RULE_PLANTS.wasted_keyword(account);
  RULE_PLANTS.wasted_search_term(account);

  // A keyword that never spent: no conversions, and no waste either.
  account.campaigns![0].adGroups![0].keywords!.push({ text: "tent stakes", matchType: "PHRASE" });
  // The budget plant on an account of its own (the wasted keyword raises its campaign's cost per conversion).
  const customers = [account, ruleAccount("budget_limited", BUDGET_ID)];
  emu = await startWritableEmulator({ store: createFixtureStore({ customers }, { today: ENGINE_TODAY, source: "one truth" }) });
  ctx = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  for (const id of [ID, BUDGET_ID]) expect((await syncAccount(userId, id, { now: () => NOW })).status).toBe("ok");
  // The engine's run over the new data is a job the sync queued.
  await drainJobs(ctx.db, ["engine-run"]);
  chat = { userId, account: await requireAccountOf(userId, ID), chatId: "one-truth", now: NOW };
  budgetChat = { ...chat, account: await requireAccountOf(userId, BUDGET_ID) };
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const open = async (id = ID) => (await listRecommendations(ctx.db, id, { now: NOW })).recommendations;
const drafted = (a: Awaited<ReturnType<typeof analystAnswer>>) =>
  a.steps.find((s) => s.toolName === "propose_changes")?.input as { title: string; actions: unknown[] } | undefined;

describe("the chat's advice is the engine's", () => {
  it("“Should I raise any budgets?” drafts the engine's budget recommendation with its figures and window", async () => {
    const budget = (await open(BUDGET_ID)).find((r) => r.type === "budget_limited")!;
    expect(budget).toBeDefined();
    const answer = await analystAnswer(budgetChat, "Should I raise any budgets?");
    expect(drafted(answer)).toEqual({ title: budget.title, actions: budget.actions });
    expect(answer.text).toContain(budget.title);
    expect(answer.text).toContain(`(figures for ${formatDateRange(budget.evidence.dateRange)})`);
  });

  it("“what should I do next” lists the engine's recommendations, each with its window, and drafts the first", async () => {
    const recs = await open();
    const answer = await analystAnswer(chat, "what should i do next?", { notice: false });
    for (const r of recs.slice(0, 3)) expect(answer.text).toContain(`**${r.title}**`);
    expect(answer.text).toContain(`(figures for ${formatDateRange(recs[0].evidence.dateRange)})`);
    expect(drafted(answer)).toEqual({ title: recs[0].title, actions: recs[0].actions });
  });

  it("zero spend is never waste: a keyword that cost nothing is not listed as spending without converting", async () => {
    const rows = (await toolRunners(chat).get_keywords({ nonConvertingOnly: true, limit: 100 })).rows;
    expect(rows.map((r) => r.keyword)).toContain("tent footprint");
    expect(rows.map((r) => r.keyword)).not.toContain("tent stakes");
    expect(rows.every((r) => Number(r.cost) > 0)).toBe(true);
  });
});

describe("an applied change shows at once", () => {
  it("a recommendation applied through its change set: counted as applied at once, and its keyword is no longer listed as waste", async () => {
    const wasted = (await open()).find((r) => r.type === "wasted_keyword")!;
    const before = await countRecommendations(ctx.db, ID, NOW);
    const waste = await analystAnswer(chat, "What is wasting money?", { notice: false });
    expect(waste.text).toContain("“tent footprint”");

    const { changeSet } = await applyRecommendation(chat.userId, wasted.id);
    await applyChangeSet(chat.userId, changeSet.id, await approved(chat.userId, changeSet.id));
    // The panel's counts read right after Apply, before any list marks it.
    expect(await countRecommendations(ctx.db, ID, NOW)).toMatchObject({ open: before.open - 1, applied: before.applied + 1 });
    const after = await analystAnswer(chat, "What is wasting money?", { notice: false });
    expect(after.text).not.toContain("“tent footprint”");
    expect((await toolRunners(chat).get_recommendations({ limit: 20 })).recommendations.map((r) => r.id)).not.toContain(wasted.id);
  });

  it("advice carried out by another change (the chat's own proposal) leaves the chat's list at once", async () => {
    const term = (await open()).find((r) => r.type === "wasted_search_term")!;
    expect(term.actions.length).toBeGreaterThan(0);
    const proposal = await toolRunners(chat).propose_changes({ title: "Exclude the wasted search term", actions: term.actions as never });
    await applyChangeSet(chat.userId, proposal.changeSetId, await approved(chat.userId, proposal.changeSetId));
    const out = await toolRunners(chat).get_recommendations({ limit: 20 });
    expect(out.recommendations.map((r) => r.id)).not.toContain(term.id);
    expect(out.alreadyCarriedOut).toBe(1);
    // The panel agrees at once: the item leaves its list and its count, with a line saying why.
    await ctx.db.updateTable("users").set({ active_customer_id: ID }).where("id", "=", chat.userId).execute();
    const user = await ctx.db.selectFrom("users").selectAll().where("id", "=", chat.userId).executeTakeFirstOrThrow();
    const panel = (await recommendationsPanel(user, new URL("http://localhost:3000/ai-optimizer")))!;
    expect(panel.recommendations.map((r) => r.id)).not.toContain(term.id);
    expect(panel.carriedOut).toBe(1);
    expect(panel.counts.open).toBe(panel.recommendations.length);
    expect(panel.window).toEqual(panel.recommendations[0]?.evidence.dateRange ?? null);
    const answer = await analystAnswer(chat, "Add the worst non-converting search term as a negative keyword", { notice: false });
    expect(drafted(answer)).toBeUndefined();
    expect(answer.text).toMatch(/no open search term to exclude \(1 carried out since its last run\)/);
  });
});
