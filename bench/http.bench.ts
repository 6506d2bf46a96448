// HTTP benchmarks of the built app (`npm run build` first; `npm run bench` runs these).
// Everything is measured against real servers started here: the product
// (`node build/server.js`, as in production) and, side by side in the same
// run, a bare React Router 7 app (bench/bare) served the way react-router-serve
// serves one. Figures are ratios where the machine's own speed would otherwise
// decide the result.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { signUpAndConnect } from "./http-client";
import { CAMPAIGN_SORT_KEYS } from "../app/lib/report-query";
import { METRIC_SORT_KEYS } from "../app/lib/detail-query";

const root = fileURLToPath(new URL("..", import.meta.url));
const bareDir = path.join(root, "bench/bare");
// The app build to measure: this checkout, or another (an earlier commit, for before/after figures).
const appRoot = path.resolve(process.env.BENCH_APP_ROOT ?? root);

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  /** Non-2xx answers and socket errors. */
  bad: number;
  /**
   * The server process's CPU time (user + system, all its threads) per request
   * served: what a request costs, much less swayed by other processes on a
   * shared machine than req/s (which measures the CPU share the server got).
   */
  cpuMsPerRequest: number | null;
}

export interface TimingResult {
  name: string;
  p50: number;
  p95: number;
  max: number;
  calls: number;
}

export interface HttpBenchResult {
  pages: Array<{ page: LoadResult; bare: LoadResult }>;
  loginJs: { gzipKb: number; files: number; zod: boolean; serverOnly: string[] };
  demoFirstSyncMs: number;
  duringSync?: { syncMs: number; idle: LoadResult[]; busy: LoadResult[]; serverPeakRssAtSyncedMb: number | null; serverPeakRssMb: number | null };
  wide?: TimingResult[];
}

// ---------------------------------------------------------------------------
// Processes

export function ensureBuilds() {
  // A build older than the sources would measure other code: rebuilt when sources changed since,
  // as `npm start` does (scripts/ensure-build.mjs), or when there is none.
  const ensure = path.join(appRoot, "scripts/ensure-build.mjs");
  if (fs.existsSync(ensure)) execFileSync(process.execPath, [ensure], { cwd: appRoot, stdio: ["ignore", process.stderr, "inherit"] });
  else if (!fs.existsSync(path.join(appRoot, "build/server.js"))) {
    console.error("building the app (npm run build)…");
    execFileSync("npm", ["run", "build"], { cwd: appRoot, stdio: "inherit" });
  }
  if (!fs.existsSync(path.join(bareDir, "build/server/index.js"))) {
    console.error("building the bare React Router app (bench/bare)…");
    execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
      cwd: bareDir,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
}

interface Server {
  child: ChildProcess;
  base: string;
  dataDir?: string;
  stop(): Promise<void>;
}

async function waitReady(base: string, child: ChildProcess, pathname = "/healthz") {
  let exited = false;
  child.once("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server for ${base} exited before it was ready`);
    try {
      const res = await fetch(`${base}${pathname}`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopper(child: ChildProcess, dataDir?: string) {
  return () =>
    new Promise<void>((resolve) => {
      const done = () => {
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once("exit", done);
      child.kill("SIGTERM");
    });
}

/** The product as in production. `extraEnv` may point Google at a bench emulator. */
export async function startProduct(port: number, extraEnv: Record<string, string> = {}, nodeArgs: string[] = [], root = appRoot): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-bench-http-"));
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, "build/server.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_IP: "1000",
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitReady(base, child);
  return { child, base, dataDir, stop: stopper(child, dataDir) };
}

export async function startBare(port: number): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(bareDir, "server.mjs"), String(port)], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitReady(base, child, "/");
  return { child, base, stop: stopper(child) };
}

/** CPU time (user + system, all threads) a process has used so far (Linux /proc), ms. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** The server process's peak resident set (Linux /proc), MB: the sync runs inside it, in a worker thread. */
function peakRssMb(pid: number | undefined): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// Load

export async function load(
  name: string,
  url: string,
  opts: { connections?: number; seconds?: number; cookie?: string; rate?: number; until?: Promise<unknown>; pid?: number } = {},
): Promise<LoadResult> {
  const cpuBefore = cpuMs(opts.pid);
  const instance = autocannon({
    url,
    connections: opts.connections ?? 50,
    duration: opts.until ? 3600 : (opts.seconds ?? 10),
    headers: opts.cookie ? { cookie: opts.cookie } : {},
    ...(opts.rate ? { overallRate: opts.rate } : {}),
  });
  if (opts.until) void opts.until.finally(() => instance.stop());
  const r = await instance;
  const cpuAfter = cpuMs(opts.pid);
  return {
    cpuMsPerRequest: opts.pid && Number.isFinite(cpuAfter - cpuBefore) && r.requests.total > 0 ? (cpuAfter - cpuBefore) / r.requests.total : null,
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Sequential requests, one at a time: the server's own time for one request (plus loopback). */
export async function timeSequential(
  name: string,
  url: string | ((i: number) => string),
  calls: number,
  headers: Record<string, string> = {},
): Promise<TimingResult> {
  const samples: number[] = [];
  for (let i = 0; i < calls + 2; i++) {
    const t = performance.now();
    const res = await fetch(typeof url === "string" ? url : url(i), { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    if (i >= 2) samples.push(performance.now() - t); // two warm-up calls
  }
  samples.sort((a, b) => a - b);
  return { name, p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1) ?? 0, calls };
}

// ---------------------------------------------------------------------------
// JavaScript a page loads

/** gzip size of every script /login's HTML loads at once (module preloads and the entry import). */
export async function initialJs(base: string, pathname: string) {
  const html = await (await fetch(`${base}${pathname}`)).text();
  const files = new Set<string>();
  for (const m of html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)) files.add(m[1]);
  for (const m of html.matchAll(/import \* as \w+ from "(\/assets\/[^"]+\.js)"/g)) files.add(m[1]);
  let bytes = 0;
  let zod = false;
  const serverOnly: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(appRoot, "build/client", file));
    bytes += gzipSync(text, { level: 9 }).length;
    const source = text.toString();
    // zod 4's core registers this global; its error class names survive minification.
    if (source.includes("__zod_globalConfig") || source.includes("ZodError")) zod = true;
    for (const marker of ["better-sqlite3", "kysely", "node:crypto", "pg-pool"]) if (source.includes(marker)) serverOnly.push(`${file}: ${marker}`);
  }
  return { gzipKb: bytes / 1024, files: files.size, zod, serverOnly };
}

// ---------------------------------------------------------------------------
// The runs

const PORT = Number(process.env.BENCH_PORT ?? 3371);

/** Signed-in pages against the bare app at 50 connections, /login's JS, the demo account's first sync. */
export async function benchPages(seconds: number): Promise<Pick<HttpBenchResult, "pages" | "loginJs" | "demoFirstSyncMs">> {
  const bare = await startBare(PORT + 1);
  const app = await startProduct(PORT);
  try {
    const user = await signUpAndConnect(app.base);
    const cookie = user.browser.cookieHeader(app.base);
    const loginJs = await initialJs(app.base, "/login");
    // Warm both (JIT, caches), then alternate bare/page so drift hits both alike.
    await load("warm", `${bare.base}/`, { seconds: 2 });
    await load("warm", `${app.base}/dashboard`, { seconds: 2, cookie });
    const pages: HttpBenchResult["pages"] = [];
    for (const [name, pathname, signedIn] of [
      ["/dashboard (signed in, demo account)", "/dashboard", true],
      ["/campaigns (signed in, demo account)", "/campaigns", true],
      ["/login", "/login", false],
    ] as const) {
      console.error(`  load: ${name}`);
      const bareResult = await load("bare page", `${bare.base}/`, { seconds, pid: bare.child.pid });
      const page = await load(name, `${app.base}${pathname}`, { seconds, cookie: signedIn ? cookie : undefined, pid: app.child.pid });
      pages.push({ page, bare: bareResult });
    }
    return { pages, loginJs, demoFirstSyncMs: user.firstSyncMs };
  } finally {
    await app.stop();
    await bare.stop();
  }
}

/**
 * The demo account's first sync alone (BENCH_ONLY=demo), `runs` times, each on
 * a fresh server and data directory. With several app roots (BENCH_DEMO_ROOTS,
 * e.g. this checkout and a worktree of an earlier commit) the runs alternate
 * between them, so load on a shared machine hits before and after alike.
 */
export async function benchDemoFirstSync(
  runs: number,
  roots: string[] = [appRoot],
): Promise<Array<{ root: string; ms: number[]; cpuMs: number[]; detailMs: number[]; detailCpuMs: number[] }>> {
  const out = roots.map((root) => ({ root, ms: [] as number[], cpuMs: [] as number[], detailMs: [] as number[], detailCpuMs: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    for (const entry of out) {
      const app = await startProduct(PORT, {}, [], entry.root);
      try {
        // The server's CPU time over the same span: unlike the wall time, it barely moves with the machine's load.
        let cpuAtAllow = 0;
        let cpuAtDone = 0;
        let cpuAtDetail = 0;
        const synced = await signUpAndConnect(app.base, {
          onAllow: () => (cpuAtAllow = cpuMs(app.child.pid)),
          onSynced: () => (cpuAtDone = cpuMs(app.child.pid)),
          onDetail: () => (cpuAtDetail = cpuMs(app.child.pid)),
        });
        entry.ms.push(synced.firstSyncMs);
        entry.cpuMs.push(cpuAtDone - cpuAtAllow);
        entry.detailMs.push(synced.detailMs);
        entry.detailCpuMs.push(cpuAtDetail - cpuAtAllow);
      } finally {
        await app.stop();
      }
    }
  }
  return out;
}

/** /healthz and a signed-in page at a steady rate, idle and while the big account's first sync runs. */
export async function benchDuringSync(googleEnv: Record<string, string>, rate: number) {
  const app = await startProduct(PORT + 2, googleEnv);
  try {
    const user = await signUpAndConnect(app.base, { waitForSync: false });
    const cookie = user.browser.cookieHeader(app.base);
    const t0 = performance.now();
    const synced = (async () => {
      for (;;) {
        const res = await user.browser.request(`${app.base}/sync`);
        const state = (await res.json()) as { status: string; lastError: string | null; detail?: { status: string; lastError: string | null } };
        // The whole first sync: a staged one is "ok" after its first stage and goes on with the
        // keyword, ad and search-term performance (ADR 013), the largest part of this account.
        if (state.status === "ok" && state.detail?.status !== "running") {
          if (state.detail?.status === "failed") throw new Error(`detail import failed: ${state.detail.lastError}`);
          // The process's peak so far: the sync's (the engine run the job does next has just begun).
          return { ms: performance.now() - t0, peakRssMb: peakRssMb(app.child.pid) };
        }
        if (state.status === "failed") throw new Error(`sync failed: ${state.lastError}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    // The syncing user's own pages: what a person watches while the progress bar moves.
    const targets = [
      ["/healthz", "/healthz", false],
      ["/settings (signed in)", "/settings", true],
      ["/sync (progress poll)", "/sync", true],
    ] as const;
    const busy = await Promise.all(
      targets.map(([name, pathname, signedIn]) =>
        load(name, `${app.base}${pathname}`, { connections: 2, rate, cookie: signedIn ? cookie : undefined, until: synced }),
      ),
    );
    const { ms: syncMs, peakRssMb: serverPeakRssAtSyncedMb } = await synced;
    const idle = await Promise.all(
      targets.map(([name, pathname, signedIn]) =>
        load(name, `${app.base}${pathname}`, { connections: 2, rate, cookie: signedIn ? cookie : undefined, seconds: 5 }),
      ),
    );
    return { syncMs, idle, busy, serverPeakRssAtSyncedMb, serverPeakRssMb: peakRssMb(app.child.pid) };
  } finally {
    await app.stop();
  }
}

/** The campaigns page and API at many campaigns, one request at a time. */
export async function benchWide(googleEnv: Record<string, string>, customerId: string, calls: number): Promise<TimingResult[]> {
  const app = await startProduct(PORT + 3, googleEnv);
  try {
    const user = await signUpAndConnect(app.base);
    const cookie = { cookie: user.browser.cookieHeader(app.base) };
    const bearer = { authorization: `Bearer ${user.token}` };
    // First views: every call a page nobody asked for before (another sort, another page), so
    // neither the rendered page (ADR 017) nor the report read (ADR 018) is there yet; then the
    // same page again, as a person reloading it or a second tab gets it.
    const sorts = CAMPAIGN_SORT_KEYS.flatMap((sort) => [`sort=${sort}&dir=desc`, `sort=${sort}&dir=asc`]);
    return [
      await timeSequential("/campaigns page 1, first view (each call another sort)", (i) => `${app.base}/campaigns?${sorts[i % sorts.length]}`, calls, cookie),
      await timeSequential(
        "/campaigns page 50+, sort by CTR, first view (each call another page)",
        (i) => `${app.base}/campaigns?page=${50 + i}&sort=ctr`,
        calls,
        cookie,
      ),
      await timeSequential("/campaigns page 1, again", `${app.base}/campaigns`, calls, cookie),
      await timeSequential("/campaigns page 50, sort by CTR, again", `${app.base}/campaigns?page=50&sort=ctr`, calls, cookie),
      await timeSequential(
        "GET /api/v1/accounts/:id/campaigns (whole account)",
        `${app.base}/api/v1/accounts/${customerId}/campaigns`,
        Math.max(5, Math.floor(calls / 5)),
        bearer,
      ),
    ];
  } finally {
    await app.stop();
  }
}

/** A campaign's detail tabs when it has many keywords (10 ad groups × 1,000 keywords), one request at a time. */
export async function benchDeepCampaign(googleEnv: Record<string, string>, customerId: string, calls: number): Promise<TimingResult[]> {
  const app = await startProduct(PORT + 4, googleEnv);
  try {
    const user = await signUpAndConnect(app.base);
    const cookie = { cookie: user.browser.cookieHeader(app.base) };
    const list = (await (
      await fetch(`${app.base}/api/v1/accounts/${customerId}/campaigns`, { headers: { authorization: `Bearer ${user.token}` } })
    ).json()) as {
      campaigns: Array<{ id: string }>;
    };
    const id = list.campaigns[0].id;
    const results: TimingResult[] = [];
    // First views: each call another sort of the tab (8 metrics × 2 directions, 22 calls with the
    // warm-up: a few repeat late in the run), so neither cache has it yet (ADR 017/018).
    const sorts = METRIC_SORT_KEYS.flatMap((sort) => [`sort=${sort}&dir=desc`, `sort=${sort}&dir=asc`]);
    for (const tab of ["adgroups", "keywords", "searchterms"]) {
      results.push(
        await timeSequential(
          `/campaigns/:id?tab=${tab}, first view (each call another sort)`,
          (i) => `${app.base}/campaigns/${id}?tab=${tab}&${sorts[i % sorts.length]}`,
          calls,
          cookie,
        ),
      );
    }
    results.push(
      await timeSequential(
        "/campaigns/:id?tab=keywords&sort=ctr, first view (page 1, 2, …)",
        (i) => `${app.base}/campaigns/${id}?tab=keywords&sort=ctr&page=${1 + i}`,
        calls,
        cookie,
      ),
    );
    return results;
  } finally {
    await app.stop();
  }
}
