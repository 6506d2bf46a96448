// `npm run bench`: the sync and read-model benchmarks (bench/README.md).
//
//   BENCH_KEYWORDS=100000   keywords in the sync benchmark's account
//   BENCH_CAMPAIGNS=10000   campaigns in the read benchmark's account
//   BENCH_CALLS=50          timed calls per read query
//   TEST_DATABASE_URL=postgres://…   also run everything on PostgreSQL
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { DemoStoreOptions } from "../emulator/ads";
import { TODAY, type Dialect, type WorkerInput, type WorkerResult } from "./sync.bench";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
};

const KEYWORDS = env("BENCH_KEYWORDS", 100_000);
const CAMPAIGNS = env("BENCH_CAMPAIGNS", 10_000);
const CALLS = env("BENCH_CALLS", 50);
const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

interface EmulatorInfo {
  port: number;
  generationMs: number;
  account?: { campaigns: number; adGroups: number; keywords: number; ads: number; searchTerms: number };
}

function startEmulator(options: DemoStoreOptions): Promise<{ child: ChildProcess; info: EmulatorInfo }> {
  const child = spawn(process.execPath, ["--import", "tsx", here("./emulator-process.ts"), JSON.stringify(options)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("READY ")) resolve({ child, info: JSON.parse(line.slice(6)) as EmulatorInfo });
    });
  });
}

function stopEmulator(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function runWorker(input: WorkerInput): Promise<WorkerResult> {
  const child = spawn(process.execPath, ["--import", "tsx", here("./sync.bench.ts"), "worker", JSON.stringify(input)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let result: WorkerResult | undefined;
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("RESULT ")) result = JSON.parse(line.slice(7)) as WorkerResult;
      else process.stdout.write(`  ${line}\n`);
    });
    child.once("exit", (code) => (result ? resolve(result) : reject(new Error(`benchmark worker exited with ${code}`))));
  });
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(headers: string[], rows: string[][]) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

function printSync(title: string, info: EmulatorInfo, results: WorkerResult[]) {
  const a = info.account;
  console.log(`\n### ${title}`);
  if (a) {
    console.log(
      `Account: ${fmt(a.campaigns)} campaigns, ${fmt(a.adGroups)} ad groups, ${fmt(a.keywords)} keywords, ${fmt(a.ads)} ads, ` +
        `${fmt(a.searchTerms)} search terms, 90 days (generated in ${fmt(info.generationMs / 1000, 1)} s)\n`,
    );
  }
  table(
    ["database", "status", "rows", "wall s", "save s", "rows/s", "peak RSS MB", "baseline RSS MB"],
    results.map((r) => [
      r.dialect,
      r.status,
      fmt(r.rows),
      fmt(r.wallMs / 1000, 1),
      fmt(r.saveMs / 1000, 1),
      fmt(r.rowsPerSecond),
      fmt(r.peakRssMb),
      fmt(r.baselineRssMb),
    ]),
  );
  for (const r of results) {
    if (r.lastError) console.log(`\n${r.dialect}: ${r.lastError}`);
    console.log(`\n${r.dialect}, per step (fetch + validate + stage; "Saving" is the one transaction):\n`);
    table(
      ["step", "rows", "s"],
      r.steps.map((s) => [s.step, stepRows(s.step, r.rowCounts), fmt(s.ms / 1000, 2)]),
    );
  }
}

const STEP_TABLE: Record<string, string> = {
  "Loading campaigns": "ads_campaigns",
  "Loading campaign performance": "ads_campaign_daily",
  "Loading ad groups": "ads_ad_groups",
  "Loading ad group performance": "ads_ad_group_daily",
  "Loading keywords": "ads_keywords",
  "Loading keyword performance": "ads_keyword_daily",
  "Loading negative keywords": "ads_campaign_negative_keywords",
  "Loading ads": "ads_ads",
  "Loading ad performance": "ads_ad_daily",
  "Loading ad asset performance": "ads_ad_assets",
  "Loading search terms": "ads_search_term_daily",
};
function stepRows(step: string, counts: Record<string, number>): string {
  if (step === "Saving") return fmt(Object.values(counts).reduce((a, b) => a + b, 0));
  const table = STEP_TABLE[step];
  return table ? fmt(counts[table] ?? 0) : "";
}

async function main() {
  console.log(`# Benchmarks (${new Date().toISOString()}, Node ${process.version}, ${dialects.join(" + ")})`);

  // 1. Sync of a large account.
  const big = await startEmulator({ today: TODAY, scale: { campaigns: 200, adGroupsPerCampaign: 10, totalKeywords: KEYWORDS, days: 90 } });
  const syncResults: WorkerResult[] = [];
  try {
    for (const dialect of dialects) {
      console.error(`sync benchmark on ${dialect}…`);
      syncResults.push(await runWorker({ baseUrl: `http://127.0.0.1:${big.info.port}`, dialect, adminUrl: process.env.TEST_DATABASE_URL }));
    }
  } finally {
    await stopEmulator(big.child);
  }
  printSync(`Sync: ${fmt(KEYWORDS)} keywords`, big.info, syncResults);

  // 2. Reads on an account with many campaigns.
  const wide = await startEmulator({ today: TODAY, scale: { campaigns: CAMPAIGNS, adGroupsPerCampaign: 1, keywordsPerAdGroup: 2, days: 90 } });
  const listResults: WorkerResult[] = [];
  try {
    for (const dialect of dialects) {
      console.error(`read benchmark on ${dialect}…`);
      listResults.push(
        await runWorker({ baseUrl: `http://127.0.0.1:${wide.info.port}`, dialect, adminUrl: process.env.TEST_DATABASE_URL, listCalls: CALLS }),
      );
    }
  } finally {
    await stopEmulator(wide.child);
  }
  printSync(`Sync: ${fmt(CAMPAIGNS)} campaigns`, wide.info, listResults);
  console.log(`\n### Reads on ${fmt(CAMPAIGNS)} campaigns (${CALLS} calls each after 3 warm-up calls, ms)\n`);
  table(
    ["query", ...listResults.flatMap((r) => [`${r.dialect} p50`, `${r.dialect} p95`, `${r.dialect} max`])],
    (listResults[0]?.reads ?? []).map((read, i) => [
      read.name,
      ...listResults.flatMap((r) => [fmt(r.reads[i]?.p50 ?? 0, 1), fmt(r.reads[i]?.p95 ?? 0, 1), fmt(r.reads[i]?.max ?? 0, 1)]),
    ]),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
