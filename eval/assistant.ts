// `npm run eval:assistant`: asks the assistant the questions in
// eval/assistant-cases.ts about the demo account and scores each answer on the
// tools it used and the facts it contains; prints a table and the totals.
//
// It runs against whatever AI_MODEL (AI_BASE_URL, AI_API_KEY) points at; with
// no AI_MODEL, against the built-in analyst. The demo account comes from the
// project's Google emulator, synced into a temporary SQLite database through
// the app's real code, so nothing outside this machine is touched except the
// model. EVAL_ONLY=1,5,9 runs a subset; EVAL_JSON=path writes the results.
import fs from "node:fs";
import { DEMO_RICH_CUSTOMER_ID } from "../emulator/ads";
import { setupTestEnvironment } from "../tests/setup/test-db";
import { setActiveAccount } from "../app/server/ads/accounts.server";
import { connectDemoUser } from "../tests/support/emulator-harness";
import { startWritableEmulator } from "../tests/support/writable-emulator";
import { syncAccount } from "../app/server/ads/sync.server";
import { runTurn } from "../app/server/ai/chat.server";
import { describeModel } from "../app/server/ai/model.server";
import { toolRunners } from "../app/server/ai/tools.server";
import type { DB } from "../app/server/db/db.server";
import { runOptimizer } from "../app/server/optimizer/run.server";
import { listRecommendations } from "../app/server/optimizer/service.server";
import { requireAccountOf } from "../app/server/account-access.server";
import { CASES, type Truth } from "./assistant-cases";
import { addDays, todayIn } from "../app/lib/dates";
import { formatDate, formatDateRange } from "../app/lib/format";

const AI_VARIABLES = ["AI_MODEL", "AI_BASE_URL", "AI_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"];

async function truthOf(env: { db: DB }, userId: string, account: Awaited<ReturnType<typeof requireAccountOf>>): Promise<Truth> {
  const run = toolRunners({ userId, account, chatId: "eval" });
  const campaigns = await run.list_campaigns({ status: "all", sort: "cost", limit: 50 });
  const enabled = campaigns.rows.filter((r) => r.status === "ENABLED");
  const converting = enabled.filter((r) => typeof r.costPerConversion === "number" && Number(r.conversions) >= 5);
  const limited = [...enabled].sort((a, b) => Number(b.budgetLostIS ?? 0) - Number(a.budgetLostIS ?? 0));
  // Waste is what still spends: terms not excluded yet, keywords that can serve.
  const wastedTerms = await run.get_search_terms({ nonConvertingOnly: true, activeOnly: true, limit: 1 });
  const wastedKeywords = await run.get_keywords({ nonConvertingOnly: true, activeOnly: true, limit: 1 });
  const terms = await run.get_search_terms({ limit: 1 });
  const keywords = await run.get_keywords({ limit: 100 });
  const byConversions = await run.get_keywords({ sort: "conversions", limit: 1 });
  const overview = await run.get_account_overview({});
  const recs = await run.get_recommendations({ limit: 1 });
  const lowQs = keywords.rows.find((k) => typeof k.qualityScore === "number" && k.qualityScore <= 3);
  // Calendar periods, worked out here on their own (not with the analyst's code).
  const today = todayIn(account.timeZone);
  const yesterday = addDays(today, -1);
  const dow = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const lastWeek = { from: addDays(today, -dow - 7), to: addDays(today, -dow - 1) };
  const weekBefore = { from: addDays(lastWeek.from, -7), to: addDays(lastWeek.from, -1) };
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonth = { from: `${addDays(monthStart, -1).slice(0, 7)}-01`, to: addDays(monthStart, -1) };
  const totals = async (r: { from: string; to: string }) => (await run.list_campaigns({ ...r, status: "all", limit: 50 })).totals!;
  return {
    topCampaign: String(enabled[0]?.name ?? ""),
    bestCpaCampaign: String(converting.sort((a, b) => Number(a.costPerConversion) - Number(b.costPerConversion))[0]?.name ?? ""),
    budgetLimited: String(limited[0]?.name ?? ""),
    topWastedTerm: String(wastedTerms.rows[0]?.searchTerm ?? ""),
    topWastedKeyword: String(wastedKeywords.rows[0]?.keyword ?? ""),
    topTerm: String(terms.rows[0]?.searchTerm ?? ""),
    lowQsKeyword: String(lowQs?.keyword ?? ""),
    topConvKeyword: String(byConversions.rows[0]?.keyword ?? ""),
    pausedCampaign: String(campaigns.rows.find((r) => r.status === "PAUSED")?.name ?? ""),
    accountCost: Number(overview.rows[0].cost),
    accountConversions: Number(overview.rows[0].conversions),
    tentsCampaignId: String(campaigns.rows.find((r) => /Tents/.test(String(r.name)))?.id ?? ""),
    yesterday: formatDateRange({ from: yesterday, to: yesterday }),
    lastWeek: formatDateRange(lastWeek),
    lastWeekConversions: Number((await totals(lastWeek)).conversions),
    weekBeforeConversions: Number((await totals(weekBefore)).conversions),
    monthStart: today === monthStart ? "" : formatDate(monthStart, { short: true }),
    lastMonth: formatDateRange(lastMonth),
    lastMonthCost: Number((await totals(lastMonth)).cost),
    topRecommendationSubject: recs.recommendations[0]
      ? String((await listRecommendations(env.db, account.customerId)).recommendations[0]?.resources[0]?.name ?? recs.recommendations[0].title)
      : String(wastedTerms.rows[0]?.searchTerm ?? ""),
  };
}

interface Result {
  n: number;
  question: string;
  answer: string;
  expected: string[];
  used: string[];
  toolScore: number;
  factScore: number;
  missed: string[];
  pass: boolean;
  tokens: number;
  ms: number;
  error: string | null;
}

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

async function main() {
  // With its write side, so proposals get Google's dry run as in the app.
  const emulator = await startWritableEmulator();
  const passthrough = Object.fromEntries(AI_VARIABLES.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
  const env = await setupTestEnvironment({ ...emulator.env, ...passthrough, AI_DAILY_MESSAGE_LIMIT: "100000", LOG_LEVEL: "warn" });
  const model = describeModel();
  console.log(`Model: ${model.configured ? model.summary : "none (the built-in analyst)"}`);
  console.log("Syncing the demo account…");
  const userId = await connectDemoUser(emulator.baseUrl);
  await syncAccount(userId, DEMO_RICH_CUSTOMER_ID);
  // The app runs the engine after each sync as a job (engine-run, ADR 022); no job runner is started
  // here, so it runs in process, as that job would: the analyst's recommendations are the engine's.
  await runOptimizer(DEMO_RICH_CUSTOMER_ID);
  await setActiveAccount(userId, DEMO_RICH_CUSTOMER_ID);
  const account = await requireAccountOf(userId, DEMO_RICH_CUSTOMER_ID);
  const truth = await truthOf(env, userId, account);

  const only = process.env.EVAL_ONLY?.split(",").map(Number);
  const results: Result[] = [];
  for (const [i, c] of CASES.entries()) {
    if (only && !only.includes(i + 1)) continue;
    const question = c.question(truth);
    // Each question starts clean: earlier questions' open proposals would be linked instead of drafted again.
    await env.db
      .updateTable("change_sets")
      .set({ status: "discarded" })
      .where("user_id", "=", userId)
      .where("status", "in", ["proposed", "validated", "invalid"])
      .execute();
    const started = performance.now();
    let text = "";
    let used: string[] = [];
    let tokens = 0;
    let error: string | null = null;
    try {
      const { message } = await runTurn({ userId, account }, { message: question });
      const parts = (message?.parts ?? []) as Array<{ type: string; text?: string; toolName?: string; state?: string }>;
      text = parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("\n");
      used = parts
        .filter((p) => (p.type.startsWith("tool-") || p.type === "dynamic-tool") && p.state === "output-available")
        .map((p) => (p.type === "dynamic-tool" ? String(p.toolName) : p.type.slice(5)));
      tokens = message?.metadata?.usage?.totalTokens ?? 0;
      error = message?.metadata?.error ?? null;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const toolHits = c.tools.filter((group) => group.some((t) => used.includes(t))).length;
    const factHits = c.facts.filter((f) => f.pattern(truth).test(text) !== Boolean(f.absent)).length;
    const missed = c.facts.filter((f) => f.pattern(truth).test(text) === Boolean(f.absent)).map((f) => f.label);
    const toolScore = c.tools.length ? toolHits / c.tools.length : 1;
    const factScore = c.facts.length ? factHits / c.facts.length : 1;
    results.push({
      n: i + 1,
      question,
      answer: text,
      expected: c.tools.map((g) => g.join("|")),
      used: [...new Set(used)],
      toolScore,
      factScore,
      missed,
      pass: !error && toolScore === 1 && factScore === 1,
      tokens,
      ms: Math.round(performance.now() - started),
      error,
    });
    const r = results.at(-1)!;
    console.log(
      `${String(r.n).padStart(2)} ${pad(question, 52)} tools ${toolHits}/${c.tools.length}  facts ${factHits}/${c.facts.length}  ${r.pass ? "PASS" : "FAIL"}  ${pad(r.used.join(",") || "-", 44)} ${String(r.tokens).padStart(6)} tok ${(r.ms / 1000).toFixed(1)}s${error ? `  error: ${error.slice(0, 80)}` : ""}${missed.length ? `  missing: ${missed.join("; ")}` : ""}`,
    );
  }
  const n = results.length;
  const mean = (f: (r: Result) => number) => results.reduce((s, r) => s + f(r), 0) / Math.max(1, n);
  const summary = {
    model: model.configured ? model.summary : "built-in analyst (no AI_MODEL)",
    questions: n,
    passed: results.filter((r) => r.pass).length,
    toolScore: Math.round(mean((r) => r.toolScore) * 1000) / 10,
    factScore: Math.round(mean((r) => r.factScore) * 1000) / 10,
    errors: results.filter((r) => r.error).length,
    tokens: results.reduce((s, r) => s + r.tokens, 0),
    seconds: Math.round(results.reduce((s, r) => s + r.ms, 0) / 100) / 10,
  };
  console.log("");
  console.log("| Model | Questions | Passed | Tools used right | Facts found | Errors | Tokens | Time |");
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${summary.model} | ${summary.questions} | ${summary.passed} | ${summary.toolScore}% | ${summary.factScore}% | ${summary.errors} | ${summary.tokens.toLocaleString("en-US")} | ${summary.seconds} s |`,
  );
  if (process.env.EVAL_JSON) fs.writeFileSync(process.env.EVAL_JSON, JSON.stringify({ summary, truth, results }, null, 2));
  await env.cleanup();
  await emulator.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
