// `npm run eval:optimizer`: runs the recommendations engine on the labelled
// archetype accounts of eval/optimizer-accounts.ts and prints precision and
// recall per rule type and overall, and every false positive and miss with
// its reason. The accounts are served by the project's Google emulator and
// synced into a temporary SQLite database through the app's real code (OAuth,
// account discovery, sync, engine); nothing outside this machine is touched.
// EVAL_JSON=path also writes the results as JSON.
import fs from "node:fs";
import { createFixtureStore } from "../emulator/ads";
import { ENGINE_TODAY } from "../emulator/fixtures/engine";
import { setupTestEnvironment } from "../tests/setup/test-db";
import { connectDemoUser } from "../tests/support/emulator-harness";
import { startWritableEmulator } from "../tests/support/writable-emulator";
import { syncAccount } from "../app/server/ads/sync.server";
import { runOptimizer } from "../app/server/optimizer/run.server";
import { listRecommendations } from "../app/server/optimizer/service.server";
import type { Recommendation } from "../app/server/optimizer/types.server";
import { EVAL_ACCOUNTS, EVAL_CUSTOMERS, type EvalAccount, type Label } from "./optimizer-accounts";
import { scoreEval, type Finding } from "./optimizer-score";

const NOW = new Date(`${ENGINE_TODAY}T15:00:00Z`);

async function main() {
  const started = performance.now();
  const emulator = await startWritableEmulator({
    store: createFixtureStore({ customers: EVAL_CUSTOMERS }, { today: ENGINE_TODAY, source: "eval:optimizer" }),
  });
  const env = await setupTestEnvironment({ ...emulator.env, LOG_LEVEL: "warn" });
  try {
    const userId = await connectDemoUser(emulator.baseUrl);
    const found = new Map<string, Finding[]>();
    for (const account of EVAL_ACCOUNTS) {
      const state = await syncAccount(userId, account.id, { now: () => NOW });
      if (state.status !== "ok") throw new Error(`sync of ${account.id} (${account.archetype}) ended ${state.status}`);
      // The engine runs in this process (the sync's queued job is not waited for).
      await runOptimizer(account.id, { now: NOW });
      const list: Recommendation[] = (await listRecommendations(env.db, account.id, { now: NOW })).recommendations;
      found.set(
        account.id,
        list.map((r) => ({ type: r.type, title: r.title, names: r.resources.flatMap((x) => [x.name, x.id]) })),
      );
    }
    const result = scoreEval(EVAL_ACCOUNTS, found);
    const seconds = (performance.now() - started) / 1000;
    print(result, EVAL_ACCOUNTS, seconds);
    if (process.env.EVAL_JSON) fs.writeFileSync(process.env.EVAL_JSON, JSON.stringify({ ...result, seconds }, null, 2));
  } finally {
    await env.cleanup();
    await emulator.close();
  }
}

const pct = (n: number | null) => (n === null ? "  —  " : n.toFixed(2));

function print(result: ReturnType<typeof scoreEval>, accounts: EvalAccount[], seconds: number) {
  const lines: string[] = [];
  lines.push(`eval:optimizer — ${accounts.length} labelled accounts, ${ENGINE_TODAY} data, ${seconds.toFixed(1)} s`);
  lines.push("");
  lines.push("| Rule | Labelled | Found | TP | FP | Missed | Precision | Recall |");
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of result.perRule)
    lines.push(`| ${r.type} | ${r.labelled} | ${r.found} | ${r.tp} | ${r.fp} | ${r.fn} | ${pct(r.precision)} | ${pct(r.recall)} |`);
  const o = result.overall;
  lines.push(`| **overall** | ${o.labelled} | ${o.found} | ${o.tp} | ${o.fp} | ${o.fn} | ${pct(o.precision)} | ${pct(o.recall)} |`);
  lines.push("");
  lines.push(`Clean accounts: ${result.clean.map((c) => `${c.archetype} → ${c.findings} finding${c.findings === 1 ? "" : "s"}`).join("; ")}`);
  lines.push("");
  lines.push(result.falsePositives.length ? "False positives:" : "False positives: none");
  for (const f of result.falsePositives) lines.push(`  - [${f.archetype}] ${f.type}: ${f.title} — ${f.reason}`);
  lines.push(result.misses.length ? "Misses:" : "Misses: none");
  for (const m of result.misses) lines.push(`  - [${m.archetype}] ${m.type} “${m.entity}” — expected because ${m.reason}; ${m.instead}`);
  console.log(lines.join("\n"));
}

export type { Label };

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
