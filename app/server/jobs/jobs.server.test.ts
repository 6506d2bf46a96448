// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../tests/setup/test-db";
import { clearJobs, makeDue, storedJob } from "../../../tests/support/jobs";
import { captureLogs } from "../log.server";
import { newPgBoss } from "./pg-boss-store.server";
import { defineJob, enqueue, jobsReadiness, queueDepth, RetryLater, startJobs, stopJobs } from "./jobs.server";

// The job interface on both back ends (TEST_DB_DIALECT): what a caller of
// enqueue and a handler observe. Handlers are this file's own, on real queues.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment();
});
afterEach(async () => {
  await stopJobs(1_000);
  await clearJobs(t.db);
});
afterAll(async () => {
  await t?.cleanup();
});

const Data = z.object({ customerId: z.string() });
const waitFor = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 15_000, interval: 50 });

describe("jobs", () => {
  it("runs a queued job once, with its data, and stores it as completed", async () => {
    const seen: Array<{ data: unknown; attempt: number }> = [];
    defineJob("engine-run", { schema: Data, handler: async (data, ctx) => void seen.push({ data, attempt: ctx.attempt }) });
    await startJobs({ pollMs: 100 });
    expect(jobsReadiness()).toEqual({ ok: true });
    const id = await enqueue("engine-run", { customerId: "111" });
    expect(id).toEqual(expect.any(String));
    await waitFor(async () => expect((await storedJob(t.db, id!))?.state).toBe("completed"));
    expect(seen).toEqual([{ data: { customerId: "111" }, attempt: 1 }]);
  });

  it("refuses data that does not match the kind's schema, and queues nothing", async () => {
    defineJob("engine-run", { schema: Data, handler: async () => {} });
    await expect(enqueue("engine-run", { customerId: 42 })).rejects.toThrow(/customerId/);
  });

  it("keeps one queued or running job per singleton key; the key is free again once it ends", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    defineJob("engine-run", {
      schema: Data,
      singletonKey: (d) => d.customerId,
      handler: async (d) => {
        started.push(d.customerId);
        await gate;
      },
    });
    const first = await enqueue("engine-run", { customerId: "222" });
    expect(first).not.toBeNull();
    // Queued, not started: a second is not queued.
    expect(await enqueue("engine-run", { customerId: "222" })).toBeNull();
    // Another key is independent.
    expect(await enqueue("engine-run", { customerId: "333" })).not.toBeNull();
    await startJobs({ pollMs: 100 });
    await waitFor(() => expect(started).toContain("222"));
    // Running: still refused.
    expect(await enqueue("engine-run", { customerId: "222" })).toBeNull();
    release();
    await waitFor(async () => expect((await storedJob(t.db, first!))?.state).toBe("completed"));
    expect(await enqueue("engine-run", { customerId: "222" })).not.toBeNull();
  });

  it("a kind that queues while running gets one more run after the running one, never beside it", async () => {
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let most = 0;
    const seen: string[] = [];
    defineJob("engine-run", {
      schema: z.object({ customerId: z.string(), n: z.number() }),
      singletonKey: (d) => d.customerId,
      whileRunning: "queue",
      handler: async (d) => {
        running += 1;
        most = Math.max(most, running);
        seen.push(`${d.customerId}#${d.n}`);
        await gate;
        running -= 1;
      },
    });
    await startJobs({ pollMs: 100 });
    await enqueue("engine-run", { customerId: "q", n: 1 });
    await waitFor(() => expect(seen).toEqual(["q#1"]));
    // Running: one more is queued (new data the running one did not see); a third is not.
    const second = await enqueue("engine-run", { customerId: "q", n: 2 });
    expect(second).not.toBeNull();
    expect(await enqueue("engine-run", { customerId: "q", n: 3 })).toBeNull();
    const first = release;
    gate = new Promise<void>((resolve) => (release = resolve));
    first();
    await waitFor(() => expect(seen).toEqual(["q#1", "q#2"]));
    release();
    await waitFor(async () => expect((await storedJob(t.db, second!))?.state).toBe("completed"));
    expect(most).toBe(1);
  });

  it("retries a failing job, then fails it for good with the last reason and tells its kind", async () => {
    const failedWith: Array<[unknown, string]> = [];
    let attempts = 0;
    defineJob("engine-run", {
      schema: Data,
      handler: async (_d, ctx) => {
        attempts = ctx.attempt;
        throw new Error(`Google said no (attempt ${ctx.attempt})`);
      },
      onFailed: async (data, reason) => void failedWith.push([data, reason]),
    });
    const logs = captureLogs();
    try {
      await startJobs({ pollMs: 100 });
      const id = (await enqueue("engine-run", { customerId: "444" }))!;
      // engine-run allows 2 retries; each waits its backoff, which the test lets pass.
      for (const attempt of [1, 2]) {
        await waitFor(async () =>
          expect(await storedJob(t.db, id)).toMatchObject({
            state: "retry",
            retryCount: attempt - 1,
            output: { message: `Google said no (attempt ${attempt})` },
          }),
        );
        await makeDue(t.db, "engine-run");
      }
      await waitFor(async () => expect((await storedJob(t.db, id))?.state).toBe("failed"));
      const job = await storedJob(t.db, id);
      expect(job).toMatchObject({ state: "failed", retryCount: 2, output: { message: "Google said no (attempt 3)" } });
      expect(attempts).toBe(3);
      await waitFor(() => expect(failedWith).toEqual([[{ customerId: "444" }, "Google said no (attempt 3)"]]));
      expect(logs.records.filter((r) => r.level === "warn").map((r) => r.msg)).toContain(
        `Job engine-run ${id} failed (attempt 3 of 3, the last): Google said no (attempt 3)`,
      );
    } finally {
      logs.restore();
    }
  });

  it("RetryLater ends the job and queues the same work again for later, without using a retry", async () => {
    let runs = 0;
    defineJob("engine-run", {
      schema: Data,
      singletonKey: (d) => d.customerId,
      handler: async () => {
        runs += 1;
        if (runs === 1) throw new RetryLater("the holder is still working", new Date(Date.now() + 3_600_000));
      },
    });
    await startJobs({ pollMs: 100 });
    const id = (await enqueue("engine-run", { customerId: "555" }))!;
    await waitFor(async () => expect((await storedJob(t.db, id))?.state).toBe("completed"));
    expect(runs).toBe(1);
    // The follow-up waits for its time (an hour): the key is taken by it meanwhile.
    expect(await enqueue("engine-run", { customerId: "555" })).toBeNull();
    const depth = await queueDepth();
    expect(depth.get("engine-run")).toEqual({ queued: 1, active: 0 });
    await makeDue(t.db, "engine-run");
    await waitFor(() => expect(runs).toBe(2));
  });

  it("queues a job with a transaction's write, and not at all when the transaction rolls back", async () => {
    defineJob("engine-run", { schema: Data, handler: async () => {} });
    let rolledBack: string | null = null;
    await expect(
      t.db.transaction().execute(async (trx) => {
        rolledBack = await enqueue("engine-run", { customerId: "666" }, { db: trx });
        expect(rolledBack).not.toBeNull();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await storedJob(t.db, rolledBack!)).toBeUndefined();
    let id: string | null = null;
    await t.db.transaction().execute(async (trx) => {
      id = await enqueue("engine-run", { customerId: "777" }, { db: trx });
    });
    await startJobs({ pollMs: 100 });
    await waitFor(async () => expect((await storedJob(t.db, id!))?.state).toBe("completed"));
  });

  it("at shutdown, a job that does not stop in time is recorded as failed with that reason (and retried)", async () => {
    defineJob("engine-run", { schema: Data, handler: () => new Promise<void>(() => {}) });
    const logs = captureLogs();
    try {
      await startJobs({ pollMs: 100 });
      const id = (await enqueue("engine-run", { customerId: "888" }))!;
      await waitFor(async () => expect((await storedJob(t.db, id))?.state).toBe("active"));
      await stopJobs(100);
      expect(await storedJob(t.db, id)).toMatchObject({ state: "retry", retryCount: 0, output: { message: "the server shut down while it ran" } });
      expect(jobsReadiness()).toEqual({ ok: false, reason: "not started" });
    } finally {
      logs.restore();
    }
  });
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Another instance on the same database (tests/support/job-child.ts); resolves with it once it works on jobs. */
function startOtherInstance(onLine: (line: string) => void): Promise<ChildProcess> {
  // node --import tsx, not the tsx CLI: the CLI runs the script in a grandchild that SIGKILL would not reach.
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/support/job-child.ts")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      APP_URL: t.config.APP_URL,
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.DATABASE_URL,
      LOG_LEVEL: "silent",
      JOB_LEASE_SECONDS: "2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      for (const line of d.toString().split("\n").filter(Boolean)) {
        if (line === "ready") resolve(child);
        else onLine(line);
      }
    });
    child.on("exit", (code, signal) => signal === null && reject(new Error(`the other instance exited ${code}: ${err.slice(0, 2000)}`)));
  });
}

describe.runIf(testDialect === "postgres")("jobs across instances (PostgreSQL)", () => {
  it("a job whose instance is killed is handed to another instance once its lease expires, and finishes there once", async () => {
    const started: string[] = [];
    const child = await startOtherInstance((line) => started.push(line));
    try {
      const runs: number[] = [];
      defineJob("engine-run", { schema: Data, handler: async (_d, ctx) => void runs.push(ctx.attempt) });
      const id = (await enqueue("engine-run", { customerId: "999" }))!;
      await waitFor(() => expect(started).toEqual([`started ${id} 1`]));
      child.kill("SIGKILL");

      const logs = captureLogs();
      try {
        await startJobs({ pollMs: 100, leaseSeconds: 2, beatMs: 300 });
        await waitFor(async () => expect((await storedJob(t.db, id))?.state).toBe("completed"));
      } finally {
        logs.restore();
      }
      expect(runs).toEqual([2]);
      expect(logs.records.map((r) => r.msg).join("\n")).not.toMatch(/failed/);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("a job of a key that runs on another instance is never run beside it, even when queued in the race", async () => {
    const childLines: string[] = [];
    const child = await startOtherInstance((line) => childLines.push(line));
    try {
      defineJob("engine-run", { schema: Data, singletonKey: (d) => d.customerId, handler: async () => {} });
      const first = (await enqueue("engine-run", { customerId: "k1" }))!;
      await waitFor(() => expect(childLines).toEqual([`started ${first} 1`]));
      // Running elsewhere: not queued.
      expect(await enqueue("engine-run", { customerId: "k1" })).toBeNull();

      // The race enqueue's check cannot close (queued in the instant the first one started): pg-boss takes it.
      const boss = newPgBoss(t.db, { work: false });
      await boss.start();
      const raced = (await boss.send("engine-run", { customerId: "k1" }, { singletonKey: "k1" }))!;
      const here: string[] = [];
      defineJob("engine-run", { schema: Data, singletonKey: (d) => d.customerId, handler: async (d) => void here.push(d.customerId) });
      await startJobs({ pollMs: 100, leaseSeconds: 30, beatMs: 300 });
      await waitFor(async () => expect((await storedJob(t.db, raced))?.state).toBe("completed"));
      expect(await storedJob(t.db, raced)).toMatchObject({ output: { skipped: "another engine-run job for k1 was running" } });
      expect(here).toEqual([]);
      expect(childLines).toEqual([`started ${first} 1`]);
      await boss.stop({ graceful: false, close: false });
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
