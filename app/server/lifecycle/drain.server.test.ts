// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { validateChangeSet } from "../changes/pipeline.server";
import { proposeBulk } from "../changes/propose.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";

// SIGTERM while an apply is waiting on Google: the server must stop taking
// connections at once, finish the apply and answer the request in flight,
// then exit 0. Google (the emulator) holds every mutate for a while, and the
// test acts on states it observes, never on fixed sleeps.

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const MUTATE_HOLD_MS = 1500;

let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  let holding = false;
  emu = await startWritableEmulator({ mutateDelayMs: () => (holding ? MUTATE_HOLD_MS : 0) });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  holding = true;
}, 60_000);

afterAll(async () => {
  child?.kill("SIGKILL");
  await ctx?.cleanup();
  await emu?.close();
});

function lines(proc: ChildProcess) {
  let out = "";
  const waiters: Array<{ re: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  proc.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const m = out.match(w.re);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  return (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve) => {
      const m = out.match(re);
      if (m) resolve(m);
      else waiters.push({ re, resolve });
    });
}

async function waitFor(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

it("on SIGTERM during an apply: stops accepting, finishes the apply, answers, exits 0", async () => {
  const groups = await ctx.db.selectFrom("ads_ad_groups").select("id").where("customer_id", "=", CUSTOMER).orderBy("id").execute();
  const id = await proposeBulk(userId, {
    customerId: CUSTOMER,
    actions: [{ type: "add_keywords", adGroupId: groups[0].id, keywords: [{ text: "drain probe", matchType: "EXACT" }] }],
  });
  expect((await validateChangeSet(userId, id)).set.status).toBe("validated");

  child = spawn(process.execPath, ["--import", "tsx", path.join(here, "sigterm-child.server.ts")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      APP_URL: ctx.config.APP_URL,
      DATA_DIR: ctx.dataDir,
      ...(ctx.config.DATABASE_URL ? { DATABASE_URL: ctx.config.DATABASE_URL } : {}),
      LOG_LEVEL: "silent",
      DRAIN_USER_ID: userId,
      DRAIN_TIMEOUT_MS: "20000",
      ...emu.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
  const waitLine = lines(child);
  const port = Number((await waitLine(/listening (\d+)/))[1]);
  const base = `http://127.0.0.1:${port}`;

  const mutatesBefore = emu.mutates();
  const applying = fetch(`${base}/apply/${id}`, { method: "POST" });
  // The apply's mutate has reached Google, which holds it.
  await waitFor(async () => emu.mutates() > mutatesBefore);
  const set = await ctx.db.selectFrom("change_sets").select("status").where("id", "=", id).executeTakeFirstOrThrow();
  expect(set.status).toBe("applying");

  child.kill("SIGTERM");
  await waitLine(/draining/);
  // New connections are refused while the apply is still held by Google.
  await expect(fetch(`${base}/ping`)).rejects.toThrow();

  const res = await applying;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "applied" });
  expect(await exited).toBe(0);
  await waitLine(/drained/);

  const after = await ctx.db.selectFrom("change_sets").select("status").where("id", "=", id).executeTakeFirstOrThrow();
  expect(after.status).toBe("applied");
}, 60_000);
