// @vitest-environment node
// The metered door on a real database (SQLite, and PostgreSQL with
// TEST_DB_DIALECT=postgres): who may use the model, the daily limits and the
// concurrency cap under parallel requests and across two database clients (two
// app instances), the output cap, and every call recorded with its tokens.
import fs from "node:fs";
import path from "node:path";
import { APICallError, generateText, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { clearAiMetering } from "../../../tests/support/ai-metering";
import { registerUser } from "../auth/users.server";
import { createDb, type DB } from "../db/db.server";
import { toHttpError, type HttpError } from "../http/errors.server";
import { setConfigForTests } from "../env.server";
import { acquireLease, LEASE_TTL_MS, MAX_CONCURRENT_PER_USER, openMeter, releaseLease, reserveDailyUse, usageSummary } from "./metered.server";
import { setLanguageModelForTests } from "./model.server";

let t: TestContext;
let confirmed: string;
let unconfirmed: string;
let googleUser: string;

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
const answering = (text = "ok", tokens = usage(100, 20)) =>
  new MockLanguageModelV3({
    doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage: tokens, warnings: [] }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          ...text.split(" ").map((w) => ({ type: "text-delta" as const, id: "t", delta: `${w} ` })),
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: tokens },
        ],
        chunkDelayInMs: 5,
      }),
    }),
  });

async function user(email: string, proved: "email" | "google" | null) {
  const u = await registerUser(email, "correct horse battery");
  const now = new Date().toISOString();
  if (proved === "email") await t.db.updateTable("users").set({ email_verified_at: now }).where("id", "=", u.id).execute();
  if (proved === "google") {
    await t.db
      .insertInto("google_connections")
      .values({
        id: `conn-${u.id}`,
        user_id: u.id,
        google_sub: `sub-${u.id}`,
        google_email: "someone@gmail.example",
        refresh_token_enc: "x",
        access_token_enc: null,
        access_token_expires_at: null,
        scopes: "",
        status: "active",
        status_reason: null,
        accounts_error: null,
        accounts_synced_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return u.id;
}

const usageRows = (userId: string) => t.db.selectFrom("ai_usage").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();

beforeAll(async () => {
  t = await setupTestEnvironment({ AI_DAILY_MESSAGE_LIMIT: "3", AI_DAILY_AD_COPY_LIMIT: "2", AI_MAX_OUTPUT_TOKENS: "500" });
  confirmed = await user("confirmed@example.com", "email");
  unconfirmed = await user("fresh@example.com", null);
  googleUser = await user("google@example.com", "google");
});
afterAll(async () => {
  setLanguageModelForTests(undefined);
  await t.cleanup();
});
afterEach(async () => {
  setLanguageModelForTests(undefined);
  setConfigForTests(t.config);
  // Each test starts with today's uses, leases and the month's tokens at zero.
  await clearAiMetering(t.db);
});

describe("openMeter: who gets the model", () => {
  it("hands out no model and reserves nothing when none is configured", async () => {
    setLanguageModelForTests(null);
    const meter = await openMeter(confirmed, "chat");
    expect(meter).toMatchObject({ model: null, notice: null });
    expect(await t.db.selectFrom("ai_daily_uses").selectAll().execute()).toEqual([]);
  });

  it("keeps the model from an unconfirmed address (the fallback answers, with a notice); a confirmed address or a Google sign-in gets it", async () => {
    setLanguageModelForTests(answering());
    const fresh = await openMeter(unconfirmed, "ad_copy");
    expect(fresh.model).toBeNull();
    expect(fresh.notice).toMatch(/confirmed your email address .* templates write the ad instead/);
    expect(await t.db.selectFrom("ai_leases").selectAll().execute()).toEqual([]);
    for (const id of [confirmed, googleUser]) {
      const meter = await openMeter(id, "chat");
      expect(meter.model).not.toBeNull();
      await meter.release();
    }
  });

  it("caps every call's output at AI_MAX_OUTPUT_TOKENS and records each call with its tokens, per feature", async () => {
    const model = answering("fine", usage(300, 40));
    setLanguageModelForTests(model);
    const meter = await openMeter(confirmed, "ad_copy");
    await generateText({ model: meter.model!, prompt: "a", maxOutputTokens: 100_000 });
    await generateText({ model: meter.model!, prompt: "b" });
    await meter.release();
    expect(model.doGenerateCalls.map((c) => c.maxOutputTokens)).toEqual([500, 500]);
    const rows = await usageRows(confirmed);
    expect(rows.map((r) => [r.feature, r.input_tokens, r.output_tokens, r.total_tokens, r.outcome])).toEqual([
      ["ad_copy", 300, 40, 340, "ok"],
      ["ad_copy", 300, 40, 340, "ok"],
    ]);
    const summary = await usageSummary(confirmed);
    expect(summary.features.find((f) => f.feature === "ad_copy")).toMatchObject({ calls: 2, totalTokens: 680, usedToday: 1, dailyLimit: 2 });
    expect(summary.features.find((f) => f.feature === "chat")).toMatchObject({ calls: 0, totalTokens: 0, usedToday: 0, dailyLimit: 3 });
    expect(summary.budget).toBeNull();
  });

  it("counts a retried call and a failed one: every attempt is a row", async () => {
    let calls = 0;
    const flaky = new MockLanguageModelV3({
      doGenerate: async () => {
        if (calls++ === 0) throw new APICallError({ message: "overloaded", url: "http://x", requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(10, 5), warnings: [] };
      },
    });
    setLanguageModelForTests(flaky);
    const meter = await openMeter(confirmed, "chat");
    await generateText({ model: meter.model!, prompt: "a", maxRetries: 1 });
    await meter.release();
    expect((await usageRows(confirmed)).map((r) => [r.outcome, r.total_tokens])).toEqual([
      ["error", 0],
      ["ok", 15],
    ]);
  });

  it("records a streamed answer's tokens when it ends, and a stopped one as aborted", async () => {
    setLanguageModelForTests(answering("one two three four five six", usage(50, 6)));
    const meter = await openMeter(confirmed, "chat");
    const whole = streamText({ model: meter.model!, prompt: "a" });
    await whole.consumeStream();
    const stopper = new AbortController();
    const stopped = streamText({ model: meter.model!, prompt: "b", abortSignal: stopper.signal });
    for await (const _ of stopped.textStream) {
      stopper.abort();
      break;
    }
    await meter.release();
    expect((await usageRows(confirmed)).map((r) => [r.outcome, r.total_tokens])).toEqual([
      ["ok", 56],
      ["aborted", 0],
    ]);
  });

  it("after the install's monthly budget is spent, hands out no model and says why", async () => {
    setConfigForTests({ ...t.config, AI_MONTHLY_TOKEN_BUDGET: 1000 });
    setLanguageModelForTests(answering("x", usage(900, 200)));
    const first = await openMeter(confirmed, "chat");
    await generateText({ model: first.model!, prompt: "a" });
    await first.release();
    // Someone else's use counts too: the budget is the install's.
    const next = await openMeter(googleUser, "chat");
    expect(next.model).toBeNull();
    expect(next.notice).toMatch(/AI_MONTHLY_TOKEN_BUDGET\) is spent, so the built-in analyst answers instead/);
    expect((await usageSummary(googleUser)).budget).toEqual({ limit: 1000, used: 1100 });
  });
});

describe("limits that hold under parallel requests", () => {
  it("ten parallel reservations against a daily limit of 3 pass exactly 3 times, per user and feature", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => reserveDailyUse(t.db, confirmed, "chat", 3)));
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await reserveDailyUse(t.db, confirmed, "ad_copy", 3)).toBe(true);
    expect(await reserveDailyUse(t.db, googleUser, "chat", 3)).toBe(true);
    // The next UTC day starts again.
    expect(await reserveDailyUse(t.db, confirmed, "chat", 3, new Date(Date.now() + 86_400_000))).toBe(true);
  });

  it("ten parallel leases from two app instances (two database clients) give out exactly MAX_CONCURRENT_PER_USER slots", async () => {
    const { db: second } = createDb({ databaseUrl: t.config.DATABASE_URL, dataDir: t.dataDir });
    try {
      const clients: DB[] = [t.db, second];
      const leases = await Promise.all(Array.from({ length: 10 }, (_, i) => acquireLease(clients[i % 2], confirmed)));
      const granted = leases.filter((l): l is string => l !== null);
      expect(granted).toHaveLength(MAX_CONCURRENT_PER_USER);
      // Another person is not affected; a released slot is free again.
      expect(await acquireLease(second, googleUser)).not.toBeNull();
      await releaseLease(second, granted[0]);
      expect(await acquireLease(t.db, confirmed)).not.toBeNull();
      expect(await acquireLease(t.db, confirmed)).toBeNull();
      // A crashed instance's lease frees itself once it expires.
      expect(await acquireLease(t.db, confirmed, new Date(Date.now() + LEASE_TTL_MS + 1000))).not.toBeNull();
    } finally {
      await second.destroy();
    }
  });

  it("openMeter refuses a third request in flight and a use over the daily limit with a clear 429, reserving nothing for the refused", async () => {
    setLanguageModelForTests(answering());
    const a = await openMeter(confirmed, "ad_copy");
    const b = await openMeter(confirmed, "chat");
    const busy = await openMeter(confirmed, "chat").catch(toHttpError);
    expect(busy).toMatchObject({ status: 429, detail: expect.stringMatching(/already have 2 AI requests running/), headers: { "Retry-After": "5" } });
    await a.release();
    await b.release();
    await a.release();
    // ad_copy: 2 a day in this file; one was used above.
    await (await openMeter(confirmed, "ad_copy")).release();
    const over = (await openMeter(confirmed, "ad_copy").catch(toHttpError)) as HttpError;
    expect(over).toMatchObject({ status: 429, detail: expect.stringMatching(/today's limit of 2 AI ad generations \(AI_DAILY_AD_COPY_LIMIT\)/) });
    // Until midnight UTC.
    expect(Number(over?.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(Number(over?.headers?.["Retry-After"])).toBeLessThanOrEqual(86_400);
    expect(await t.db.selectFrom("ai_leases").selectAll().where("user_id", "=", confirmed).execute()).toEqual([]);
  });
});

describe("the one door", () => {
  it("is the only code that takes a model from model.server.ts, and the only caller of the AI SDK's generate and stream functions gets its model from it", () => {
    const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
    const sources = fs
      .readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => ({ file: f, text: fs.readFileSync(path.join(root, f), "utf8") }));
    const takingModels = sources.filter((s) => /\b(getLanguageModel|createLanguageModel)\(/.test(s.text)).map((s) => s.file);
    expect(takingModels.sort()).toEqual(["server/ai/metered.server.ts", "server/ai/model.server.ts"]);
    // Whoever calls the model reaches it through openMeter/withMeter.
    for (const s of sources.filter((x) => /\b(generateText|streamText|generateObject|streamObject)\(/.test(x.text))) {
      const viaDoor =
        /\b(openMeter|withMeter)\(/.test(s.text) ||
        sources.some((o) => /\b(openMeter|withMeter)\(/.test(o.text) && o.text.includes(path.basename(s.file, ".ts")));
      expect(viaDoor, s.file).toBe(true);
    }
  });
});
