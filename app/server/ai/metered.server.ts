import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { sql } from "kysely";
import { getDb, type DB } from "../db/db.server";
import type { AiFeature } from "../db/schema";
import { LimitReachedError } from "../domain-errors.server";
import { getConfig, type AppConfig } from "../env.server";
import { errorMessage, log } from "../log.server";
import { describeModel, getLanguageModel } from "./model.server";

export type { AiFeature };

/**
 * The one door to the language model (ADR 019). Every model call (the chat,
 * the ad generator, anything later) takes its model from `openMeter`, never
 * from model.server.ts:
 *
 *   const ad = await withMeter(userId, "ad_copy", async ({ model, notice }) =>
 *     model ? … generateText({ model, … }) : … the built-in fallback, showing `notice` when it has one);
 *
 * or, for an answer that outlives the call (a stream), `openMeter` and
 * `meter.release()` when the stream ends.
 *
 * Opening it checks, in order: a model is configured; the person proved their
 * address (or signed in with Google); the install's monthly token budget
 * (AI_MONTHLY_TOKEN_BUDGET) is not spent (otherwise: no model, and a notice
 * saying so); a concurrency slot is free (MAX_CONCURRENT_PER_USER, leased in the
 * database so it holds across instances); today's uses of the feature are under
 * its daily limit, one more being reserved by the same statement that checks
 * it. The last two throw a LimitReachedError (429). The model it hands out caps
 * every call's output (AI_MAX_OUTPUT_TOKENS) and records every call, retries
 * and failures included, with its tokens in ai_usage.
 */

/** Model requests one person may have in flight at once, all features together. */
export const MAX_CONCURRENT_PER_USER = 2;
/** A lease not renewed for this long (a crashed instance) frees its slot; each model call renews it. */
export const LEASE_TTL_MS = 3 * 60_000;

interface FeatureRules {
  /** The daily limit and the variable that sets it. */
  limit: (config: AppConfig) => number;
  variable: string;
  /** "messages to the assistant", "ad generations" */
  uses: string;
  /** What answers instead when the door keeps the model closed. */
  fallback: string;
}

export const FEATURES: Record<AiFeature, FeatureRules> = {
  chat: {
    limit: (c) => c.AI_DAILY_MESSAGE_LIMIT,
    variable: "AI_DAILY_MESSAGE_LIMIT",
    uses: "messages to the assistant",
    fallback: "the built-in analyst answers instead",
  },
  ad_copy: {
    limit: (c) => c.AI_DAILY_AD_COPY_LIMIT,
    variable: "AI_DAILY_AD_COPY_LIMIT",
    uses: "AI ad generations",
    fallback: "templates write the ad instead",
  },
};

export interface Meter {
  /** The metered model; null: answer without one (none configured, or `notice` says why). */
  readonly model: LanguageModel | null;
  /** Why the door kept the model closed although one is configured (unproved address, budget spent). */
  readonly notice: string | null;
  /** Frees the concurrency slot once every call's usage is recorded. Safe to call twice. */
  release(): Promise<void>;
}

export class DailyLimitError extends LimitReachedError {
  constructor(feature: AiFeature, limit: number) {
    const { uses, variable } = FEATURES[feature];
    super(`You have reached today's limit of ${limit} ${uses} (${variable}). It resets at midnight UTC.`, {
      message: `Daily limit of ${limit} ${uses} reached`,
    });
    const now = Date.now();
    this.retryAfterSeconds = Math.ceil((Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`) + 86_400_000 - now) / 1000);
  }
}

export class BusyError extends LimitReachedError {
  constructor() {
    super(`You already have ${MAX_CONCURRENT_PER_USER} AI requests running (the assistant or the ad generator); wait until one finishes, then try again.`);
    this.retryAfterSeconds = 5;
  }
}

const NO_RELEASE: Meter["release"] = async () => {};
const startOfUtcDay = (now: Date) => now.toISOString().slice(0, 10);
const startOfUtcMonth = (now: Date) => `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;

export async function openMeter(userId: string, feature: AiFeature, now = new Date()): Promise<Meter> {
  const base = getLanguageModel();
  if (!base) return { model: null, notice: null, release: NO_RELEASE };
  const config = getConfig();
  const db = getDb();
  if (!(await hasProvedIdentity(db, userId))) {
    return {
      model: null,
      notice: `The AI model is used only once you have confirmed your email address (the link we mailed you) or signed in with Google; until then ${FEATURES[feature].fallback}.`,
      release: NO_RELEASE,
    };
  }
  const budget = config.AI_MONTHLY_TOKEN_BUDGET;
  if (budget !== undefined && (await installTokensThisMonth(db, now)) >= budget) {
    return {
      model: null,
      notice: `This installation's AI token budget for the month (AI_MONTHLY_TOKEN_BUDGET) is spent, so ${FEATURES[feature].fallback} until the 1st (UTC).`,
      release: NO_RELEASE,
    };
  }
  const leaseId = await acquireLease(db, userId, now);
  if (!leaseId) throw new BusyError();
  const limit = FEATURES[feature].limit(config);
  if (!(await reserveDailyUse(db, userId, feature, limit, now))) {
    await releaseLease(db, leaseId);
    throw new DailyLimitError(feature, limit);
  }
  const ledger = new Ledger(db, userId, feature);
  let released = false;
  return {
    model: meteredModel(asV3(base), config.AI_MAX_OUTPUT_TOKENS, ledger, () => renewLease(db, leaseId)),
    notice: null,
    release: async () => {
      if (released) return;
      released = true;
      await ledger.close();
      await releaseLease(db, leaseId);
    },
  };
}

type Outcome = "ok" | "error" | "aborted";

/**
 * The calls of one meter: each is recorded once, when it ends. A stream whose
 * reader went away without cancelling it (a Stop the SDK handles by no longer
 * reading) is recorded as aborted when the meter is released, so no call goes
 * unrecorded.
 */
class Ledger {
  private readonly open = new Set<(outcome: Outcome) => void>();
  private readonly writes = new Set<Promise<void>>();
  constructor(
    private readonly db: DB,
    private readonly userId: string,
    private readonly feature: AiFeature,
  ) {}

  /** A call begins; the function ends it (only its first use counts). */
  start(): (outcome: Outcome, usage?: LanguageModelV3Usage) => void {
    let ended = false;
    const end = (outcome: Outcome, usage?: LanguageModelV3Usage) => {
      if (ended) return;
      ended = true;
      this.open.delete(end);
      const write = recordCall(this.db, this.userId, this.feature, usage, outcome).finally(() => this.writes.delete(write));
      this.writes.add(write);
    };
    this.open.add(end);
    return end;
  }

  async close() {
    for (const end of [...this.open]) end("aborted");
    await Promise.all([...this.writes]);
  }
}

/** One use of a feature through the door, released however `run` ends. */
export async function withMeter<T>(userId: string, feature: AiFeature, run: (meter: Meter) => Promise<T>): Promise<T> {
  const meter = await openMeter(userId, feature);
  try {
    return await run(meter);
  } finally {
    await meter.release();
  }
}

async function hasProvedIdentity(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select((eb) => [
      "users.email_verified_at",
      eb.exists(eb.selectFrom("google_connections").select("google_connections.id").whereRef("google_connections.user_id", "=", "users.id")).as("google"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  return !!row && (row.email_verified_at !== null || !!row.google);
}

function asV3(model: LanguageModel): LanguageModelV3 {
  if (typeof model === "object" && model.specificationVersion === "v3") return model;
  throw new Error("The configured model does not implement the AI SDK's v3 model interface");
}

/** The model as the door hands it out: every call capped and recorded, and its lease renewed. */
function meteredModel(model: LanguageModelV3, maxOutputTokens: number, ledger: Ledger, renew: () => Promise<void>): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) => {
        await renew();
        return { ...params, maxOutputTokens: Math.min(params.maxOutputTokens ?? maxOutputTokens, maxOutputTokens) };
      },
      wrapGenerate: async ({ doGenerate, params }) => {
        const end = ledger.start();
        try {
          const result = await doGenerate();
          end("ok", result.usage);
          return result;
        } catch (error) {
          end(params.abortSignal?.aborted ? "aborted" : "error");
          throw error;
        }
      },
      wrapStream: async ({ doStream, params }) => {
        const end = ledger.start();
        try {
          const result = await doStream();
          return { ...result, stream: recordedStream(result.stream, end, params.abortSignal) };
        } catch (error) {
          end(params.abortSignal?.aborted ? "aborted" : "error");
          throw error;
        }
      },
    },
  });
}

/** The stream, passed through; its usage (from the finish part) is recorded when it ends, fails or is cancelled. */
function recordedStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  end: (outcome: Outcome, usage?: LanguageModelV3Usage) => void,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = stream.getReader();
  let usage: LanguageModelV3Usage | undefined;
  let outcome: Outcome = "ok";
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          end(outcome, usage);
          controller.close();
          return;
        }
        if (next.value.type === "finish") usage = next.value.usage;
        if (next.value.type === "error") outcome = "error";
        controller.enqueue(next.value);
      } catch (error) {
        end(abortSignal?.aborted ? "aborted" : "error", usage);
        controller.error(error);
      }
    },
    cancel(reason) {
      end("aborted", usage);
      return reader.cancel(reason);
    },
  });
}

async function recordCall(db: DB, userId: string, feature: AiFeature, usage: LanguageModelV3Usage | undefined, outcome: Outcome) {
  const input = usage?.inputTokens.total ?? 0;
  const output = usage?.outputTokens.total ?? 0;
  try {
    await db
      .insertInto("ai_usage")
      .values({
        id: randomUUID(),
        user_id: userId,
        feature,
        model: describeModel().model ?? "unknown",
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        outcome,
        created_at: new Date().toISOString(),
      })
      .execute();
  } catch (error) {
    // The answer matters more than its bookkeeping; the operator hears about it.
    log.warn(`Recording an AI call's usage (user ${userId}, ${feature}) failed: ${errorMessage(error)}`);
  }
}

// ---- the database's side: one statement each, so two instances agree

/**
 * One more use of the feature today, if under `limit`: an upsert whose update
 * only happens below the limit. PostgreSQL serialises concurrent upserts of
 * one row (the second waits, then re-checks the condition on the row the
 * first wrote), so parallel requests cannot pass the limit together.
 */
export async function reserveDailyUse(db: DB, userId: string, feature: AiFeature, limit: number, now = new Date()): Promise<boolean> {
  const result = await db
    .insertInto("ai_daily_uses")
    .values({ user_id: userId, feature, day: startOfUtcDay(now), used: 1 })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "feature", "day"])
        .doUpdateSet({ used: sql<number>`ai_daily_uses.used + 1` })
        .where("ai_daily_uses.used", "<", limit),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** A free slot (never taken, or its lease expired), taken by an upsert that only overwrites an expired lease. Null: all busy. */
export async function acquireLease(db: DB, userId: string, now = new Date()): Promise<string | null> {
  const leaseId = randomUUID();
  const expires = new Date(now.getTime() + LEASE_TTL_MS).toISOString();
  for (let slot = 0; slot < MAX_CONCURRENT_PER_USER; slot++) {
    const result = await db
      .insertInto("ai_leases")
      .values({ user_id: userId, slot, lease_id: leaseId, expires_at: expires })
      .onConflict((oc) =>
        oc.columns(["user_id", "slot"]).doUpdateSet({ lease_id: leaseId, expires_at: expires }).where("ai_leases.expires_at", "<", now.toISOString()),
      )
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return leaseId;
  }
  return null;
}

async function renewLease(db: DB, leaseId: string) {
  await db
    .updateTable("ai_leases")
    .set({ expires_at: new Date(Date.now() + LEASE_TTL_MS).toISOString() })
    .where("lease_id", "=", leaseId)
    .execute();
}

export async function releaseLease(db: DB, leaseId: string) {
  await db.deleteFrom("ai_leases").where("lease_id", "=", leaseId).execute();
}

async function installTokensThisMonth(db: DB, now: Date): Promise<number> {
  const row = await db
    .selectFrom("ai_usage")
    .select(sql<number>`COALESCE(SUM(total_tokens), 0)`.as("total"))
    .where("created_at", ">=", startOfUtcMonth(now))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

// ---- what /settings shows

export interface FeatureUsage {
  feature: AiFeature;
  /** Model calls this month (retries and failures included). */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  usedToday: number;
  dailyLimit: number;
}

export interface AiUsageSummary {
  features: FeatureUsage[];
  /** The install's monthly budget, when one is set: how much of it all users together have used. */
  budget: { limit: number; used: number } | null;
}

export async function usageSummary(userId: string, now = new Date()): Promise<AiUsageSummary> {
  const db = getDb();
  const config = getConfig();
  const [tokens, today, install] = await Promise.all([
    db
      .selectFrom("ai_usage")
      .select([
        "feature",
        sql<number>`COUNT(*)`.as("calls"),
        sql<number>`COALESCE(SUM(input_tokens), 0)`.as("input"),
        sql<number>`COALESCE(SUM(output_tokens), 0)`.as("output"),
        sql<number>`COALESCE(SUM(total_tokens), 0)`.as("total"),
      ])
      .where("user_id", "=", userId)
      .where("created_at", ">=", startOfUtcMonth(now))
      .groupBy("feature")
      .execute(),
    db.selectFrom("ai_daily_uses").select(["feature", "used"]).where("user_id", "=", userId).where("day", "=", startOfUtcDay(now)).execute(),
    config.AI_MONTHLY_TOKEN_BUDGET === undefined ? Promise.resolve(0) : installTokensThisMonth(db, now),
  ]);
  return {
    features: (Object.keys(FEATURES) as AiFeature[]).map((feature) => {
      const t = tokens.find((r) => r.feature === feature);
      return {
        feature,
        calls: Number(t?.calls ?? 0),
        inputTokens: Number(t?.input ?? 0),
        outputTokens: Number(t?.output ?? 0),
        totalTokens: Number(t?.total ?? 0),
        usedToday: Number(today.find((r) => r.feature === feature)?.used ?? 0),
        dailyLimit: FEATURES[feature].limit(config),
      };
    }),
    budget: config.AI_MONTHLY_TOKEN_BUDGET === undefined ? null : { limit: config.AI_MONTHLY_TOKEN_BUDGET, used: install },
  };
}
