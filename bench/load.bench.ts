// The load benchmark (issue 27): many distinct signed-in users, each with its own session and its own
// connected account, browse dashboard → campaigns → a campaign's tabs at a fixed arrival rate
// (open model: a request starts on schedule whether or not earlier ones have finished), against two
// built servers (`node build/server.js`) on one fresh PostgreSQL database, and against one on SQLite;
// each with the rendered-document cache on and off (DOCUMENT_CACHE_MB=0). Run by `npm run bench`
// with BENCH_ONLY=load (bench/README.md); not a timed test.
//
// Seeding (once per database, not measured): one server in demo mode (its built-in Google emulator);
// a template user registers, signs in, connects Google through the consent screen and selects the
// demo's small bakery account, whose first sync runs for real. The other users register and sign in
// through the app's own endpoints (real sessions and password hashes); their Google connection, their
// account and its synced tables are then copies of the template's at the SQL level, each under a
// customer id of its own: a real sync of every account would cost the emulator's and the sync's CPU
// once per user on two shared cores, and the pages read the same tables either way.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { Browser, signUpAndConnect } from "./http-client";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The demo's small account (emulator/ads/demo): 3 campaigns, 42 keywords, about 7,600 daily rows. */
const TEMPLATE_CUSTOMER = "5556667778";

/** The synced tables (and the engine's output) keyed by customer_id that a user's pages read. */
const ACCOUNT_TABLES = [
  "ads_campaigns",
  "ads_campaign_daily",
  "ads_ad_groups",
  "ads_ad_group_daily",
  "ads_keywords",
  "ads_keyword_daily",
  "ads_campaign_negative_keywords",
  "ads_ads",
  "ads_ad_daily",
  "ads_ad_assets",
  "ads_search_term_daily",
  "ads_sync_state",
  "ads_window_totals",
  "recommendations",
  "optimizer_runs",
  "account_targets",
  "history_import_state",
];

export interface LoadOptions {
  users: number;
  seconds: number;
  /** Requests started per second, across all users and instances. */
  rate: number;
  /** First port; instances take the next ones. */
  port: number;
  /** PostgreSQL server URL a fresh database is created on (trust auth); null: SQLite only. */
  postgresUrl: string | null;
}

export interface LoadRun {
  database: "postgres" | "sqlite";
  instances: number;
  cache: "on" | "off";
  users: number;
  seconds: number;
  targetRate: number;
  requests: number;
  errors: number;
  /** Up to five distinct error descriptions. */
  errorSamples: string[];
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Requests completed per second of the run (the last one's end counted). */
  achievedRate: number;
  /** The latest start behind its schedule (ms): the load generator's own lag. */
  maxStartLagMs: number;
}

interface Instance {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

interface User {
  browser: Browser;
  customerId: string;
  accountName: string;
}

interface Seeded {
  users: User[];
  campaignIds: string[];
}

async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, "build/server.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      // Both instances answer for one site (as behind compose's proxy): the same APP_URL and DATA_DIR (its secrets).
      APP_URL: env.APP_URL ?? base,
      LOG_LEVEL: "warn",
      // Every user signs in from this one address while seeding.
      AUTH_RATE_LIMIT_IP: "100000",
      // No scheduled refresh lands inside the measured minute: the copies' sync state is minutes old.
      SYNC_INTERVAL_MINUTES: "1440",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server on port ${port} exited before it was ready`);
    const res = await fetch(`${base}/readyz`).catch(() => null);
    if (res) await res.arrayBuffer();
    if (res?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Raw SQL on either database, for the seeding copies (the server is stopped meanwhile on SQLite). */
interface Sql {
  columns(table: string): Promise<string[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function sqliteSql(file: string): Sql {
  const db = new Database(file);
  return {
    columns: async (table) => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    all: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
    close: async () => void db.close(),
  };
}

async function postgresSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // `?` placeholders, as SQLite takes them, numbered for PostgreSQL.
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    columns: async (table) =>
      (
        await client.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
          [table],
        )
      ).rows.map((r) => r.column_name),
    run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
    all: async <T>(sql: string, params: unknown[] = []) => (await client.query(numbered(sql), params)).rows as T[],
    close: () => client.end(),
  };
}

async function waitSynced(browser: Browser, base: string) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const state = (await (await browser.request(`${base}/sync`)).json()) as {
      status: string;
      lastError: string | null;
      detail?: { status: string; lastError: string | null };
    };
    if (state.status === "failed" || state.detail?.status === "failed") throw new Error(`template sync failed: ${state.lastError ?? state.detail?.lastError}`);
    if (state.status === "ok" && state.detail?.status !== "running") return;
    if (Date.now() > deadline) throw new Error("the template account's first sync did not finish in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function signIn(base: string, email: string, password: string): Promise<Browser> {
  const reg = await fetch(`${base}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (reg.status !== 201) throw new Error(`register ${email}: HTTP ${reg.status} ${await reg.text()}`);
  const browser = new Browser();
  const login = await browser.request(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ intent: "login", email, password }),
  });
  await login.arrayBuffer();
  if (login.status !== 302) throw new Error(`sign-in ${email}: HTTP ${login.status}`);
  return browser;
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * Seeds `users` users on the database behind `env` (see the top of the file): the template through
 * the real Google connection and first sync, the others signed in for real, their accounts copied.
 */
async function seed(users: number, port: number, env: Record<string, string>, sqlFor: () => Promise<Sql>): Promise<Seeded> {
  const server = await startInstance(port, env);
  let browsers: Browser[];
  let templateEmail: string;
  try {
    const t = performance.now();
    const template = await signUpAndConnect(server.base);
    const select = await template.browser.request(`${server.base}/settings`, {
      method: "POST",
      body: new URLSearchParams({ intent: "select-account", customerId: TEMPLATE_CUSTOMER }),
    });
    await select.arrayBuffer();
    if (select.status !== 302) throw new Error(`selecting the template account: HTTP ${select.status}`);
    await waitSynced(template.browser, server.base);
    templateEmail = template.email;
    const run = Date.now().toString(36);
    const others = await pool(
      Array.from({ length: users - 1 }, (_, i) => i + 1),
      4,
      (i) => signIn(server.base, `load-${run}-${i}@example.com`, "load-bench-password-1"),
    );
    browsers = [template.browser, ...others];
    console.error(`  template synced and ${users - 1} more users signed in: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
  }

  const sql = await sqlFor();
  try {
    const [{ id: templateUserId }] = await sql.all<{ id: string }>("SELECT id FROM users WHERE email = ?", [templateEmail]);
    const [conn] = await sql.all<Record<string, unknown>>("SELECT * FROM google_connections WHERE user_id = ?", [templateUserId]);
    const [account] = await sql.all<Record<string, unknown>>("SELECT * FROM ads_accounts WHERE user_id = ? AND customer_id = ?", [
      templateUserId,
      TEMPLATE_CUSTOMER,
    ]);
    if (!conn || !account) throw new Error("the template user has no Google connection or no bakery account");
    const byEmail = await sql.all<{ id: string; email: string }>("SELECT id, email FROM users WHERE email LIKE 'load-%'");
    if (byEmail.length !== users - 1) throw new Error(`expected ${users - 1} seeded users, found ${byEmail.length}`);
    const idOf = new Map(byEmail.map((u) => [Number(/-(\d+)@/.exec(u.email)![1]), u.id]));
    const copied = performance.now();
    await sql.run("BEGIN");
    // One map row per copy: the users', connections' and accounts' rows are written from it, and every
    // account table copied in one INSERT … SELECT each.
    await sql.run("CREATE TEMP TABLE load_map (user_id text, customer_id text, connection_id text, sub text, name text)");
    const result: User[] = [{ browser: browsers[0], customerId: TEMPLATE_CUSTOMER, accountName: String(account.name) }];
    for (let i = 1; i < users; i++) {
      const customerId = String(9_000_000_000 + i);
      // Closed by ")" so that no name is the start of another ("… 1" of "… 10"): the page check below relies on it.
      const name = `Load bench account ${i} (copy)`;
      await sql.run("INSERT INTO load_map VALUES (?, ?, ?, ?, ?)", [idOf.get(i), customerId, randomUUID(), `load-sub-${i}`, name]);
      result.push({ browser: browsers[i], customerId, accountName: name });
    }
    const copy = async (table: string, replace: Record<string, string>, where: string, params: unknown[]) => {
      const cols = await sql.columns(table);
      const select = cols.map((c) => replace[c] ?? `t.${c}`).join(", ");
      await sql.run(`INSERT INTO ${table} (${cols.join(", ")}) SELECT ${select} FROM ${table} t CROSS JOIN load_map m WHERE ${where}`, params);
    };
    await copy("google_connections", { id: "m.connection_id", user_id: "m.user_id", google_sub: "m.sub" }, "t.user_id = ?", [templateUserId]);
    await copy(
      "ads_accounts",
      { user_id: "m.user_id", customer_id: "m.customer_id", connection_id: "m.connection_id", name: "m.name" },
      "t.user_id = ? AND t.customer_id = ?",
      [templateUserId, TEMPLATE_CUSTOMER],
    );
    await sql.run("UPDATE users SET active_customer_id = (SELECT customer_id FROM load_map WHERE load_map.user_id = users.id) WHERE email LIKE 'load-%'");
    for (const table of ACCOUNT_TABLES) {
      // Recommendations have an id of their own besides the account's key.
      const replace: Record<string, string> = table === "recommendations" ? { id: "t.id || '-' || m.customer_id" } : {};
      await copy(table, { ...replace, customer_id: "m.customer_id" }, "t.customer_id = ?", [TEMPLATE_CUSTOMER]);
    }
    await sql.run("DROP TABLE load_map");
    await sql.run("COMMIT");
    console.error(`  ${users - 1} copies of the account written: ${((performance.now() - copied) / 1000).toFixed(1)} s`);
    const campaigns = await sql.all<{ id: string }>("SELECT id FROM ads_campaigns WHERE customer_id = ? AND status <> 'REMOVED' ORDER BY id", [
      TEMPLATE_CUSTOMER,
    ]);
    return { users: result, campaignIds: campaigns.map((c) => c.id) };
  } finally {
    await sql.close();
  }
}

/** A user's walk: dashboard, campaigns, then one campaign's tabs (each user its own campaign of the three). */
function walk(user: number, campaignIds: string[]): string[] {
  const campaign = campaignIds[user % campaignIds.length];
  return [
    "/dashboard",
    "/campaigns",
    `/campaigns/${campaign}`,
    `/campaigns/${campaign}?tab=keywords`,
    `/campaigns/${campaign}?tab=ads`,
    `/campaigns/${campaign}?tab=searchterms`,
  ];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The open-model run: request k starts at t0 + k/rate (never waiting for earlier ones), by user
 * k mod users (its next page), on instance k mod instances; its latency is from its scheduled
 * start to the last byte of its body. An error is anything but a 200 page of that user's own
 * account (a redirect to /login, a 5xx, a socket error, another account's page).
 */
async function drive(instances: string[], seeded: Seeded, seconds: number, rate: number): Promise<Omit<LoadRun, "database" | "cache">> {
  const { users, campaignIds } = seeded;
  const walks = users.map((_, i) => walk(i, campaignIds));
  const step = new Array<number>(users.length).fill(0);
  const cookies = users.map((user) => user.browser.cookieHeader(instances[0]));
  const total = Math.floor(seconds * rate);
  const latencies: number[] = [];
  const errors: string[] = [];
  let maxLag = 0;
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now() + 50;
  for (let k = 0; k < total; k++) {
    const due = t0 + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    maxLag = Math.max(maxLag, performance.now() - due);
    const u = k % users.length;
    const pathname = walks[u][step[u]++ % walks[u].length];
    const base = instances[k % instances.length];
    inFlight.push(
      (async () => {
        try {
          // The session cookie the user got from the first instance: both stand for one site (behind
          // compose's proxy, one origin), so the cookie goes to either.
          const res = await fetch(`${base}${pathname}`, { headers: { cookie: cookies[u] }, redirect: "manual" });
          const body = await res.text();
          if (res.status !== 200) errors.push(`${pathname}: HTTP ${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`);
          else if (!body.includes(users[u].accountName)) errors.push(`${pathname}: the page does not name the user's own account`);
          else latencies.push(performance.now() - due);
        } catch (error) {
          errors.push(`${pathname}: ${(error as Error).message}`);
        }
      })(),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    instances: instances.length,
    users: users.length,
    seconds,
    targetRate: rate,
    requests: total,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 5),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    achievedRate: total / elapsed,
    maxStartLagMs: maxLag,
  };
}

/** Starts `count` instances on the seeded database, warms each (JIT) with a few pages, runs the load, stops them. */
async function measure(
  count: number,
  port: number,
  env: Record<string, string>,
  seeded: Seeded,
  opts: LoadOptions,
  cache: "on" | "off",
): Promise<Omit<LoadRun, "database" | "cache">> {
  const started: Instance[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await startInstance(port + i, { ...env, ...(cache === "off" ? { DOCUMENT_CACHE_MB: "0" } : {}) }));
    // Warm-up by the template user only (its pages, not the others': their documents stay uncached).
    for (const instance of started)
      for (const pathname of walk(0, seeded.campaignIds)) await (await seeded.users[0].browser.request(`${instance.base}${pathname}`)).arrayBuffer();
    return await drive(
      started.map((s) => s.base),
      seeded,
      opts.seconds,
      opts.rate,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

export async function benchLoad(opts: LoadOptions): Promise<LoadRun[]> {
  const runs: LoadRun[] = [];
  const record = (database: LoadRun["database"], cache: LoadRun["cache"], r: Omit<LoadRun, "database" | "cache">) => {
    runs.push({ database, cache, ...r });
    console.error(`  ${database} ×${r.instances}, cache ${cache}: ${r.requests} requests, ${r.errors} errors, p99 ${Math.round(r.p99)} ms`);
  };

  if (opts.postgresUrl) {
    const admin = new pg.Client({ connectionString: opts.postgresUrl });
    await admin.connect();
    const name = `app_loadbench_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(opts.postgresUrl);
    url.pathname = `/${name}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-load-pg-"));
    // One site: both instances share APP_URL (the first's) and DATA_DIR (its generated secrets).
    const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir, APP_URL: `http://127.0.0.1:${opts.port}` };
    try {
      console.error(`load: seeding ${opts.users} users on PostgreSQL (${name})…`);
      const seeded = await seed(opts.users, opts.port, env, () => postgresSql(url.toString()));
      for (const cache of ["on", "off"] as const) {
        console.error(`load: two instances on PostgreSQL, document cache ${cache}, ${opts.seconds} s at ${opts.rate} req/s…`);
        record("postgres", cache, await measure(2, opts.port, env, seeded, opts, cache));
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-load-sqlite-"));
  const env = { DATA_DIR: dataDir };
  try {
    console.error(`load: seeding ${opts.users} users on SQLite…`);
    const seeded = await seed(opts.users, opts.port, env, async () => sqliteSql(path.join(dataDir, "app.db")));
    for (const cache of ["on", "off"] as const) {
      console.error(`load: one instance on SQLite, document cache ${cache}, ${opts.seconds} s at ${opts.rate} req/s…`);
      record("sqlite", cache, await measure(1, opts.port, env, seeded, opts, cache));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return runs;
}
