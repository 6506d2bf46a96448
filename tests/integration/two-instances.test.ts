// @vitest-environment node
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../setup/test-db";
import { connectDemoUser } from "../support/emulator-harness";
import { storedJob } from "../support/jobs";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../support/writable-emulator";
import { createSession } from "~/server/auth/session.server";
import { register } from "~/server/auth/credentials.server";
import { validateChangeSet } from "~/server/changes/pipeline.server";
import { proposeBudgetChange } from "~/server/changes/propose.server";
import { enqueue } from "~/server/jobs/jobs.server";
import "~/server/jobs/catalog.server";

// Issue 27, "Done when": two app processes (the built server, as in production) on one PostgreSQL
// database. Syncs, engine runs and applies go through both; one is killed with SIGKILL in the middle
// of a sync, and one in the middle of an apply: every job finishes exactly once on the other, no change
// is sent to Google twice, and a lockout made on one instance holds on the other. On SQLite, where one
// instance is all there is, a second process on the same database refuses to start.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let emu: WritableEmulator;
let t: TestContext;
let holdStreams = false;
let holdAnswers = false;
const instances: Instance[] = [];

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `node build/server.js` on the test's database, DATA_DIR and emulator; resolves once its /readyz says ready. */
async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["build/server.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: url,
      DATA_DIR: t.dataDir,
      ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
      ...emu.env,
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_IP: "1000",
      AUTH_RATE_LIMIT_ACCOUNT: "3",
      // Refreshes are this test's to start: the scheduler finds nothing due for half a day.
      SYNC_INTERVAL_MINUTES: "1440",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const instance: Instance = { name, url, child, output: () => output, exited };
  instances.push(instance);
  const ready = (async () => {
    for (;;) {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      if (res?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const code = await Promise.race([ready.then(() => "ready" as const), exited]);
  if (code !== "ready") throw new Error(`${name} exited (${code}) before it was ready:\n${output.slice(-3000)}`);
  return instance;
}

function kill(instance: Instance) {
  instance.child.kill("SIGKILL");
  return instance.exited;
}

/** The instance holding a running job of this queue (its lease names the process). */
async function holderOf(queue: string): Promise<Instance | undefined> {
  const { rows } = await sql<{ holder: string }>`SELECT holder FROM job_leases WHERE queue = ${queue}`.execute(t.db);
  const pids = rows.map((r) => Number(r.holder.split(":")[1]));
  return instances.find((i) => pids.includes(i.child.pid!));
}

const waitFor = <T>(fn: () => Promise<T> | T, timeout = 120_000) => vi.waitFor(fn, { timeout, interval: 200 });

beforeAll(async () => {
  emu = await startWritableEmulator({ searchDelayMs: () => (holdStreams ? 700 : 0), answerDelayMs: () => (holdAnswers ? 10_000 : 0) });
  t = await setupTestEnvironment({ ...emu.env, AUTH_RATE_LIMIT_IP: "1000", AUTH_RATE_LIMIT_ACCOUNT: "3" });
  // The production build, as `npm start` makes it (a no-op when it is current).
  execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: root, stdio: "ignore" });
}, 600_000);

afterAll(async () => {
  for (const i of instances) i.child.kill("SIGKILL");
  await Promise.all(instances.map((i) => i.exited));
  await t?.cleanup();
  await emu?.close();
});

describe.runIf(testDialect === "sqlite")("one instance on SQLite", () => {
  it("a second process on the same SQLite database refuses to start, saying why", async () => {
    const first = await startInstance("first");
    const second = startInstance("second");
    await expect(second).rejects.toThrow(
      /exited \(1\)[\s\S]*Another Ads AI Manager process is already running on the SQLite database .*app\.db\. SQLite serves one instance/,
    );
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  }, 120_000);
});

describe.runIf(testDialect === "postgres")("two instances on one PostgreSQL", () => {
  it("jobs survive a SIGKILL in the middle of a sync and of an apply, each finishing once elsewhere; limits are shared", async () => {
    const userId = await connectDemoUser(emu.baseUrl);
    let a = await startInstance("a");
    const b = await startInstance("b");

    // A lockout made on one instance holds on the other (the limits live in the database).
    await register({ email: "two-instances@example.com", password: "the-right-password" }, "203.0.113.9");
    const login = (instance: Instance, password: string) =>
      fetch(`${instance.url}/api/v1/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "two-instances@example.com", password }),
      });
    for (let i = 0; i < 3; i++) expect((await login(a, "a-wrong-password")).status).toBe(401);
    const locked = await login(b, "the-right-password");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);

    // A sync, its instance killed in the middle: the job is handed to the other instance and finishes there once.
    holdStreams = true;
    const syncJob = (await enqueue("sync-account", { userId, customerId: CUSTOMER }))!;
    let syncing: Instance | undefined;
    await waitFor(async () => {
      syncing = await holderOf("sync-account");
      const state = await t.db.selectFrom("ads_sync_state").select(["status", "progress_done"]).where("customer_id", "=", CUSTOMER).executeTakeFirst();
      expect(syncing).toBeDefined();
      expect(state).toMatchObject({ status: "running", progress_done: expect.any(Number) });
      expect(state!.progress_done).toBeGreaterThanOrEqual(1);
    });
    const survivor = syncing === a ? b : a;
    await kill(syncing!);
    holdStreams = false;
    await waitFor(async () => expect((await storedJob(t.db, syncJob))?.state).toBe("completed"));
    const syncDone = await storedJob(t.db, syncJob);
    // One attempt died with its instance, the retry ran on the survivor: once.
    expect(syncDone).toMatchObject({ retryCount: 1, output: { instance: expect.stringContaining(`:${survivor.child.pid}:`) } });
    const state = await t.db
      .selectFrom("ads_sync_state")
      .select(["status", "detail_status", "last_error"])
      .where("customer_id", "=", CUSTOMER)
      .executeTakeFirstOrThrow();
    expect(state.status).toBe("ok");
    expect(state.detail_status === null || state.detail_status === "ok").toBe(true);
    // The engine run the sync queued, on the survivor too.
    await waitFor(async () => {
      const { rows } = await sql<{ state: string; output: { instance?: string } }>`
        SELECT state::text AS state, output FROM pgboss.job WHERE name = 'engine-run' AND data->>'customerId' = ${CUSTOMER}`.execute(t.db);
      expect(rows.map((r) => r.state)).toEqual(["completed"]);
      expect(rows[0].output.instance).toContain(`:${survivor.child.pid}:`);
    });
    expect(
      Number(
        (
          await t.db
            .selectFrom("recommendations")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("customer_id", "=", CUSTOMER)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(0);

    // Two instances again; an apply goes through the new one, which is killed while Google holds the request.
    const c = await startInstance("c");
    a = survivor;
    const { accessToken } = await createSession(userId, new Request("http://localhost/"));
    const campaigns = await t.db
      .selectFrom("ads_campaigns")
      .select(["id", "budget_amount_micros", "budget_resource_name"])
      .where("customer_id", "=", CUSTOMER)
      .where("budget_resource_name", "is not", null)
      .orderBy("id")
      .execute();
    const proposeValidated = async (campaign: (typeof campaigns)[number], plus: number) => {
      const id = await proposeBudgetChange(userId, {
        customerId: CUSTOMER,
        campaignId: campaign.id,
        amount: Math.round(campaign.budget_amount_micros! / 10_000) / 100 + plus,
      });
      expect((await validateChangeSet(userId, id)).set.status).toBe("validated");
      return id;
    };
    const apply = (instance: Instance, id: string) =>
      fetch(`${instance.url}/api/v1/change-sets/${id}/apply`, {
        method: "POST",
        headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ confirmLargeMoves: true }),
      });

    // An apply that ends normally, through the survivor.
    const calm = await proposeValidated(campaigns[0], 1);
    const calmRes = await apply(a, calm);
    expect(calmRes.status).toBe(200);
    expect(((await calmRes.json()) as { changeSet: { status: string } }).changeSet.status).toBe("applied");

    // The apply killed mid-request: Google (the emulator) has applied it, its answer has not arrived yet.
    const doomed = await proposeValidated(campaigns[1], 2);
    const budget = campaigns[1].budget_resource_name!;
    const wanted = Math.round(campaigns[1].budget_amount_micros! / 10_000) * 10_000 + 2_000_000;
    const before = emu.mutates();
    holdAnswers = true;
    const pending = apply(c, doomed).catch(() => null);
    await waitFor(() => expect(Number((emu.store.get(budget) as { amountMicros?: string | number } | undefined)?.amountMicros)).toBe(wanted), 30_000);
    await kill(c);
    await pending;
    holdAnswers = false;
    // The claim's settle job runs on the survivor once the dead holder's lease has run out: settled from Google's live state.
    await waitFor(async () =>
      expect((await t.db.selectFrom("change_sets").select("status").where("id", "=", doomed).executeTakeFirstOrThrow()).status).toBe("applied"),
    );
    const change = await t.db.selectFrom("changes").select(["status", "error_code"]).where("change_set_id", "=", doomed).executeTakeFirstOrThrow();
    expect(change).toEqual({ status: "applied", error_code: null });
    // Nothing was sent twice: the one mutate the killed instance sent is all Google saw for it.
    expect(emu.mutates()).toBe(before + 1);

    const { rows: settles } = await sql<{ state: string; output: { instance?: string } }>`
      SELECT state::text AS state, output FROM pgboss.job WHERE name = 'settle-change-set' AND data->>'changeSetId' = ${doomed} AND state = 'completed'`.execute(
      t.db,
    );
    expect(settles.map((s) => s.output.instance?.includes(`:${a.child.pid}:`))).toContain(true);

    // Every job of the run ended once: completed, none left failed or running.
    const { rows: unfinished } = await sql<{ name: string; state: string }>`
      SELECT name, state::text AS state FROM pgboss.job WHERE name NOT LIKE '__pgboss%' AND state IN ('active', 'failed', 'retry')`.execute(t.db);
    expect(unfinished).toEqual([]);
  }, 600_000);
});
