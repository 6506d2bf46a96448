// Benchmarks of the Google Ads sync and of the campaign list read model.
// `npm run bench` (bench/run.ts) runs them; see bench/README.md.
//
// Each measurement runs in a fresh worker process (this file with `worker`),
// so its peak RSS belongs to that sync alone; the emulator serves the data
// from another process (bench/emulator-process.ts), over HTTP.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { lastNDays } from "../app/lib/dates";
import { connectDemoUser } from "../tests/support/emulator-harness";
import { getAccountSummary, getDailySeries, listCampaigns } from "../app/server/ads/reports.server";
import { runSyncSchedulerTick, syncAccount, workerReady, type SyncAccountData } from "../app/server/ads/sync.server";
import { queueDepth, startJobs, stopJobs } from "../app/server/jobs/jobs.server";
import "../app/server/jobs/catalog.server";
import { runOptimizer } from "../app/server/optimizer/run.server";
import { createDb, getDb, migrateToLatest, setDbForTests } from "../app/server/db/db.server";
import { getConfig, parseConfig, setConfigForTests } from "../app/server/env.server";

export const RICH = "1112223334";
export const TODAY = "2026-11-22";
/** The sync's clock (bench/run.ts has the emulator render the answers to the queries a sync at this time makes). */
export const SYNC_AT = new Date(`${TODAY}T15:00:00Z`);

export type Dialect = "sqlite" | "postgres";

export interface WorkerInput {
  baseUrl: string;
  dialect: Dialect;
  /** Admin URL for creating a throwaway database (postgres only). */
  adminUrl?: string;
  /** Also time the read models, `listCalls` times each. */
  listCalls?: number;
  /** Skip the on-demand engine runs after the sync (a repeated sync run: timed once is enough). */
  noEngine?: boolean;
  /** After the first sync, one refresh this long after it (ADR 021's steady state): what it reads, and its time. */
  refreshAfterMs?: number;
  /**
   * Instead of the large sync: these accounts opened (their first sync), then a simulated day of
   * scheduled refreshes at the default schedule, the emulator's clock moved by `tickMinutes` per tick;
   * operations counted by the emulator.
   */
  day?: { accounts: string[]; tickMinutes: number; hours: number };
}

/** One refresh of the account after its first sync. */
export interface RefreshResult {
  status: string;
  kind: string | null;
  rows: number;
  rowCounts: Record<string, number>;
  /** Bytes of Google's answers, as the emulator sent them. */
  bytes: number;
  /** Google Ads API operations (the emulator's count). */
  operations: number;
  /** From the call until the refreshed data was switched in. */
  ms: number;
}

/** A simulated day of scheduled refreshes. */
export interface DayResult {
  /** Operations per account over the day (the ledger's, whose sum the emulator's count confirms), the first sync excluded. */
  operations: Record<string, number>;
  refreshes: Record<string, number>;
  /** Of them, those that read every entity table (the day's whole re-read). */
  wholeReads: Record<string, number>;
  hours: number;
  tickMinutes: number;
  intervalMinutes: number;
  wallMs: number;
}

export interface StepTiming {
  step: string;
  ms: number;
}

export interface TimingStats {
  name: string;
  calls: number;
  p50: number;
  p95: number;
  max: number;
}

export interface WorkerResult {
  dialect: Dialect;
  status: string;
  lastError: string | null;
  rows: number;
  rowCounts: Record<string, number>;
  /** From the call until every row is switched in (a staged first sync: both stages); the engine the job runs next is not in it. */
  wallMs: number;
  /** From the call until a staged first sync's first stage was switched in (status "ok"). */
  firstStageMs: number;
  /** CPU time of the whole process (every thread: the sync's worker too) from the call until every row was in. */
  cpuMs: number;
  /** From the last stream's end until the switch-over committed (delete + insert of every table). */
  saveMs: number;
  rowsPerSecond: number;
  /** Peak resident set size of the worker process until the data was switched in (mostly the sync). */
  peakRssMb: number;
  /** The recommendations engine after switching in: its job (queued by the sync) until it has stored its results. */
  engineInJobMs: number;
  /** Peak RSS at the end, the engine's run in the job included. */
  peakRssWithEngineMb: number;
  /** RSS just before the sync started: the app, its modules and the DB driver. */
  baselineRssMb: number;
  steps: StepTiming[];
  reads: TimingStats[];
  /** The recommendations engine run on demand over the synced account (the sync already ran it once). */
  engine: { ms: number; recommendations: number; extraRssMb: number; phases: { loadMs: number; rulesMs: number; storeMs: number } } | null;
  /**
   * The same run again with the sync's stored window totals set aside, so the
   * engine aggregates the daily rows itself (the code before them), and
   * whether both runs stored the same recommendations and score.
   */
  engineAggregating: { ms: number; phases: { loadMs: number; rulesMs: number; storeMs: number }; identical: boolean } | null;
  /** Bytes of Google's answers the first sync read. */
  bytes: number;
  refresh: RefreshResult | null;
  day: DayResult | null;
}

/**
 * Times the engine over the synced account, with the RSS growth over the RSS
 * just before it (sampled every 10 ms and right after; the rules' synchronous
 * part allocates without yielding, so the sample after it catches that).
 */
async function timeEngine(): Promise<NonNullable<WorkerResult["engine"]>> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t = performance.now();
  const summary = await runOptimizer(RICH, { now: SYNC_AT });
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, recommendations: summary.recommendations, extraRssMb: (peak - before) / 2 ** 20, phases: summary.phases };
}

/** What the engine stored for the account: every recommendation row and the score, as one string. */
async function storedResults(): Promise<string> {
  const recs = await getDb().selectFrom("recommendations").selectAll().where("customer_id", "=", RICH).orderBy("key").execute();
  const run = await getDb().selectFrom("optimizer_runs").select("score_json").where("customer_id", "=", RICH).executeTakeFirst();
  return JSON.stringify({ recs, score: run?.score_json ?? null });
}

async function timeEngineAggregating(): Promise<NonNullable<WorkerResult["engineAggregating"]>> {
  const withTotals = await storedResults();
  const state = getDb().updateTable("ads_sync_state").where("customer_id", "=", RICH);
  const marker = await getDb().selectFrom("ads_sync_state").select("window_totals_for").where("customer_id", "=", RICH).executeTakeFirstOrThrow();
  await state.set({ window_totals_for: null }).execute();
  try {
    const t = performance.now();
    const summary = await runOptimizer(RICH, { now: SYNC_AT });
    const ms = performance.now() - t;
    return { ms, phases: summary.phases, identical: (await storedResults()) === withTotals };
  } finally {
    await state.set({ window_totals_for: marker.window_totals_for }).execute();
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(name: string, calls: number, fn: () => Promise<unknown>): Promise<TimingStats> {
  for (let i = 0; i < 3; i++) await fn(); // warm caches and JIT
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { name, calls, p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1) ?? 0 };
}

const json = async <T>(url: string, init?: RequestInit): Promise<T> => (await (await fetch(url, init)).json()) as T;
const answerBytes = async (base: string) => (await json<{ bytes: number }>(`${base}/__bench/bytes`)).bytes;
const operations = async (base: string) => (await json<{ total: number }>(`${base}/__emulator/operations`)).total;

/** Waits until the account's last success is later than `after` (the refreshed data is in), polling every 20 ms. */
async function switchedIn(customerId: string, after: string | null): Promise<number> {
  for (;;) {
    const row = await getDb().selectFrom("ads_sync_state").select(["last_success_at", "status"]).where("customer_id", "=", customerId).executeTakeFirst();
    if (row && row.last_success_at !== after && row.status !== "running") return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One refresh of RICH at `at`, after its first sync: rows, bytes and time (ADR 021's steady state). */
async function timeRefresh(base: string, userId: string, at: Date): Promise<RefreshResult> {
  const before = await getDb().selectFrom("ads_sync_state").select("last_success_at").where("customer_id", "=", RICH).executeTakeFirstOrThrow();
  const bytes = await answerBytes(base);
  const t0 = performance.now();
  const done = switchedIn(RICH, before.last_success_at);
  const state = await syncAccount(userId, RICH, { now: () => at });
  const ms = (await done) - t0;
  const row = await getDb()
    .selectFrom("ads_sync_state")
    .select(["refresh_kind", "refresh_operations"])
    .where("customer_id", "=", RICH)
    .executeTakeFirstOrThrow();
  const rowCounts = state.rowCounts ?? {};
  return {
    status: state.status,
    kind: row.refresh_kind,
    rows: Object.values(rowCounts).reduce((a, b) => a + b, 0),
    rowCounts,
    bytes: (await answerBytes(base)) - bytes,
    operations: row.refresh_operations ?? 0,
    ms,
  };
}

/**
 * The accounts opened (their first sync), then `hours` of scheduled refreshes: the scheduler's tick every
 * `tickMinutes`, each refresh it queues run here (the job's code), the emulator's clock (and the app's) moved
 * forward between ticks. Operations as the emulator counts them.
 */
async function simulateDay(base: string, userId: string, day: NonNullable<WorkerInput["day"]>): Promise<DayResult> {
  let now = new Date((await json<{ now: string }>(`${base}/__emulator/clock`)).now);
  for (const cid of day.accounts) {
    const first = await syncAccount(userId, cid, { now: () => now });
    if (first.status !== "ok") throw new Error(`the first sync of ${cid} failed: ${first.lastError}`);
  }
  const operationsOf = async () => {
    const rows = await getDb()
      .selectFrom("google_ads_operations")
      .select(["customer_id", sql<number>`SUM(operations)`.as("n")])
      .groupBy("customer_id")
      .execute();
    return new Map(rows.map((r) => [r.customer_id ?? "", Number(r.n)]));
  };
  const emulatorStart = await operations(base);
  const ledgerStart = await operationsOf();
  const refreshes: Record<string, number> = Object.fromEntries(day.accounts.map((a) => [a, 0]));
  const wholeReads: Record<string, number> = Object.fromEntries(day.accounts.map((a) => [a, 0]));
  const t0 = performance.now();
  for (let minute = 0; minute < day.hours * 60; minute += day.tickMinutes) {
    now = new Date(
      (
        await json<{ now: string }>(`${base}/__emulator/clock`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ minutes: day.tickMinutes }),
        })
      ).now,
    );
    const queued: SyncAccountData[] = [];
    await runSyncSchedulerTick(now, { enqueue: async (d) => void queued.push(d) });
    for (const d of queued) {
      const at = now;
      const state = await syncAccount(d.userId, d.customerId, { purpose: "background", now: () => at });
      if (state.status !== "ok") throw new Error(`a scheduled refresh of ${d.customerId} failed: ${state.lastError}`);
      refreshes[d.customerId] = (refreshes[d.customerId] ?? 0) + 1;
      const row = await getDb().selectFrom("ads_sync_state").select("structure_read_at").where("customer_id", "=", d.customerId).executeTakeFirstOrThrow();
      if (row.structure_read_at && Date.parse(row.structure_read_at) === at.getTime()) wholeReads[d.customerId] += 1;
    }
  }
  const ledgerEnd = await operationsOf();
  // Per account from the ledger (it names the account); their sum checked against the emulator's own count.
  const perAccount = Object.fromEntries(day.accounts.map((a) => [a, (ledgerEnd.get(a) ?? 0) - (ledgerStart.get(a) ?? 0)]));
  const counted = (await operations(base)) - emulatorStart;
  const sum = Object.values(perAccount).reduce((a, b) => a + b, 0);
  if (sum !== counted) throw new Error(`the ledger counted ${sum} operations, the emulator ${counted}`);
  return {
    operations: perAccount,
    refreshes,
    wholeReads,
    hours: day.hours,
    tickMinutes: day.tickMinutes,
    intervalMinutes: getConfig().SYNC_INTERVAL_MINUTES,
    wallMs: performance.now() - t0,
  };
}

/** One sync (and optionally the read benchmarks) into a fresh database. Runs inside the worker process. */
export async function runWorker(input: WorkerInput): Promise<WorkerResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-bench-"));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (input.dialect === "postgres") {
    if (!input.adminUrl) throw new Error("postgres benchmark needs TEST_DATABASE_URL");
    const name = `app_bench_${randomBytes(5).toString("hex")}`;
    const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: input.adminUrl, max: 1 }) }) });
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
    const url = new URL(input.adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin);
      await admin.destroy();
    };
  }
  const base = input.baseUrl;
  const config = parseConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    APP_URL: "http://localhost:3000",
    LOG_LEVEL: "warn",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    GOOGLE_AUTHORIZATION_URL: `${base}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${base}/token`,
    GOOGLE_USERINFO_URL: `${base}/v1/userinfo`,
    GOOGLE_REVOKE_URL: `${base}/revoke`,
    GOOGLE_ADS_API_URL: base,
  });
  setConfigForTests(config);
  const handle = createDb({ databaseUrl: config.DATABASE_URL, dataDir });
  const { db } = handle;
  setDbForTests(handle);
  try {
    await migrateToLatest(db);
    const userId = await connectDemoUser(base);
    if (input.day) {
      const day = await simulateDay(base, userId, input.day);
      return { ...EMPTY_RESULT, dialect: input.dialect, status: "ok", day };
    }
    const firstBytes = await answerBytes(base);

    // The sync's thread started and its modules loaded first, as the server does when the Google
    // sign-in's callback calls prepareForSync: the sync's time is the sync's.
    await workerReady();
    const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
    const steps: StepTiming[] = [];
    const cpu0 = process.cpuUsage();
    let cpuAtOk: NodeJS.CpuUsage | undefined;
    const t0 = performance.now();
    let last = t0;
    let currentStep = "Loading campaigns";
    // The job switches the data in, then its engine job runs: the moment
    // of the switch (status "ok") is watched for, so the sync's own time and memory are told apart.
    let okAt: number | undefined;
    let peakAtOk = 0;
    let savingFrom = t0;
    // A first sync is staged (ADR 013): "ok" once the overview is in, then the keyword, ad and
    // search-term performance; every row is in when the detail import is done too.
    let firstStageAt: number | undefined;
    const watch = setInterval(() => {
      if (okAt !== undefined) return;
      void db
        .selectFrom("ads_sync_state")
        .select(["status", "detail_status"])
        .where("customer_id", "=", RICH)
        .executeTakeFirst()
        .then((row) => {
          if (row?.status !== "ok" || okAt !== undefined) return;
          firstStageAt ??= performance.now();
          if (row.detail_status === "running") return;
          okAt = performance.now();
          cpuAtOk = process.cpuUsage(cpu0);
          peakAtOk = process.resourceUsage().maxRSS / 1024;
        });
    }, 20);
    const state = await syncAccount(userId, RICH, {
      now: () => SYNC_AT,
      onProgress: (s) => {
        const t = performance.now();
        // A staged first sync's second stage reports its steps in `detail` (status is "ok" by then).
        const next = s.currentStep ?? (s.detail.status === "running" ? s.detail.currentStep : null) ?? "";
        if (next === "Saving") savingFrom = t;
        const label = currentStep === "Saving" && s.status === "ok" && s.detail.status === "running" ? "Saving (first stage)" : currentStep;
        steps.push({ step: label, ms: (currentStep === "Saving" && okAt !== undefined ? okAt : t) - last });
        last = t;
        currentStep = next;
      },
    });
    clearInterval(watch);
    // The sync queued the engine's job (ADR 022): this process runs it, as the server's job workers do.
    await startJobs({ db, pollMs: 20 });
    for (;;) {
      const engineJobs = (await queueDepth()).get("engine-run");
      if ((engineJobs?.queued ?? 0) + (engineJobs?.active ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stopJobs();
    const endAt = performance.now();
    okAt ??= endAt;
    const wallMs = okAt - t0;
    const peakRssMb = peakAtOk || process.resourceUsage().maxRSS / 1024;
    const peakRssWithEngineMb = process.resourceUsage().maxRSS / 1024;
    const rowCounts = state.rowCounts ?? {};
    const rows = Object.values(rowCounts).reduce((a, b) => a + b, 0);

    const reads: TimingStats[] = [];
    if (input.listCalls && state.status === "ok") {
      const n = input.listCalls;
      const range = lastNDays(30, "2026-11-21");
      reads.push(await time("listCampaigns page 1, cost desc, 30 days", n, () => listCampaigns(RICH, range, { sort: "cost", dir: "desc" })));
      reads.push(await time("listCampaigns page 1, name asc", n, () => listCampaigns(RICH, range, { sort: "name", dir: "asc" })));
      reads.push(await time("listCampaigns page 1, CTR desc", n, () => listCampaigns(RICH, range, { sort: "ctr", dir: "desc" })));
      reads.push(await time("listCampaigns page 100, cost desc", n, () => listCampaigns(RICH, range, { page: 100 })));
      reads.push(await time("listCampaigns search 'tents', PAUSED", n, () => listCampaigns(RICH, range, { q: "tents", status: "PAUSED" })));
      reads.push(await time("listCampaigns 90 days, cost desc", n, () => listCampaigns(RICH, lastNDays(90, "2026-11-21"), {})));
      reads.push(await time("getAccountSummary 30 days", n, () => getAccountSummary(RICH, range)));
      reads.push(await time("getDailySeries 30 days", n, () => getDailySeries(RICH, range)));
    }
    const bytes = (await answerBytes(base)) - firstBytes;
    const engine = !input.listCalls && !input.noEngine && state.status === "ok" ? await timeEngine() : null;
    const engineAggregating = engine ? await timeEngineAggregating() : null;
    const refresh = input.refreshAfterMs && state.status === "ok" ? await timeRefresh(base, userId, new Date(SYNC_AT.getTime() + input.refreshAfterMs)) : null;
    return {
      bytes,
      refresh,
      day: null,
      engine,
      engineAggregating,
      dialect: input.dialect,
      status: state.status,
      lastError: state.lastError,
      rows,
      rowCounts,
      wallMs,
      firstStageMs: (firstStageAt ?? okAt) - t0,
      cpuMs: ((cpuAtOk ?? process.cpuUsage(cpu0)).user + (cpuAtOk ?? process.cpuUsage(cpu0)).system) / 1000,
      saveMs: okAt - savingFrom,
      rowsPerSecond: rows / (wallMs / 1000),
      peakRssMb,
      engineInJobMs: endAt - okAt,
      peakRssWithEngineMb,
      baselineRssMb,
      steps,
      reads,
    };
  } finally {
    await db.destroy();
    setDbForTests(undefined);
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The fields a day's simulation does not measure. */
const EMPTY_RESULT: Omit<WorkerResult, "dialect" | "status" | "day"> = {
  lastError: null,
  rows: 0,
  rowCounts: {},
  wallMs: 0,
  firstStageMs: 0,
  cpuMs: 0,
  saveMs: 0,
  rowsPerSecond: 0,
  peakRssMb: 0,
  engineInJobMs: 0,
  peakRssWithEngineMb: 0,
  baselineRssMb: 0,
  steps: [],
  reads: [],
  engine: null,
  engineAggregating: null,
  bytes: 0,
  refresh: null,
};

// Worker entry: `node build/bench/sync.bench.mjs worker '<WorkerInput JSON>'` (bench/run.ts compiles it).
if (process.argv[2] === "worker") {
  runWorker(JSON.parse(process.argv[3] ?? "{}") as WorkerInput).then(
    (result) => {
      process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.warn(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
