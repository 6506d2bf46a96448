import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { getDb, dialectOf, type DB } from "../db/db.server";
import type { GoogleAdsPauseTable } from "../db/schema";
import { PausedError } from "../domain-errors.server";
import { getConfig } from "../env.server";
import { log } from "../log.server";
import type { RequestMeter } from "./client.server";
import { GoogleAdsApiError, type AdsClientError } from "./errors.server";

/**
 * The install's Google Ads API budget (issue 26, ADR 021), one ledger in the
 * database for every instance. Since the developer-token sunset the access
 * level belongs to the Google Cloud project: Explorer 2,880 operations per
 * rolling 24 hours on production accounts, Basic 15,000, and refused requests
 * count too. So every request is recorded (with the operations Google counts
 * for it) before it is sent, and refused before it is sent when it would not
 * fit: scheduled refreshes may use the budget less a reserve
 * (GOOGLE_ADS_RESERVE_PERCENT) kept for what people do (applies, Sync now).
 *
 * When Google itself says the daily cap is reached (QuotaError
 * RESOURCE_EXHAUSTED), every call is paused for the whole install: until its
 * retryDelay when it gives one, otherwise until the ledger shows room again.
 * Short-term rate limiting (RESOURCE_TEMPORARILY_EXHAUSTED) is retried by the
 * client with jittered backoff; when that is not enough, scheduled refreshes
 * hold back for a short jittered while and run one at a time for an hour.
 */

const DAY_MS = 86_400_000;
/** A daily-cap pause with nothing to go by (the ledger is empty: someone else spends the project's quota). */
const UNKNOWN_CAP_PAUSE_MS = 3_600_000;
const MIN_CAP_PAUSE_MS = 5 * 60_000;
/** After short-term rate limiting the client could not ride out: scheduled refreshes wait 30–90 s. */
const TEMPORARY_PAUSE_MS = [30_000, 90_000] as const;
/** And run one at a time for this long. */
export const SLOW_DOWN_MS = 3_600_000;
/** Ledger rows are kept this long (the window, and a day to look back on). */
const KEEP_MS = 2 * DAY_MS;

export type QuotaPurpose = "background" | "interactive";

export interface QuotaUsage {
  /** Operations recorded in the rolling 24 hours. */
  used: number;
  /** GOOGLE_ADS_DAILY_OPERATIONS. */
  budget: number;
  /** What scheduled refreshes may use: the budget less the reserve. */
  backgroundBudget: number;
  /** Google calls are paused until then (ISO), and why; null when they are not. */
  pausedUntil: string | null;
  pauseReason: string | null;
  /** Scheduled refreshes are held back until then (short-term rate limiting); null when they are not. */
  backgroundHeldUntil: string | null;
  /** Short-term rate limiting was seen within SLOW_DOWN_MS: one scheduled refresh at a time. */
  slowDown: boolean;
}

export function quotaBudget(): { budget: number; backgroundBudget: number } {
  const config = getConfig();
  const budget = config.GOOGLE_ADS_DAILY_OPERATIONS;
  return { budget, backgroundBudget: Math.floor((budget * (100 - config.GOOGLE_ADS_RESERVE_PERCENT)) / 100) };
}

const windowStart = (now: Date) => new Date(now.getTime() - DAY_MS).toISOString();

/** Operations recorded in the rolling 24 hours ending `now`. */
export async function operationsUsed(db: DB = getDb(), now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom("google_ads_operations")
    .select(sql<number>`COALESCE(SUM(operations), 0)`.as("used"))
    .where("at", ">", windowStart(now))
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

async function pauses(db: DB, now: Date): Promise<Map<GoogleAdsPauseTable["kind"], GoogleAdsPauseTable>> {
  const rows = await db.selectFrom("google_ads_pause").selectAll().execute();
  const at = now.toISOString();
  return new Map(rows.filter((r) => r.until > at || (r.kind === "temporary" && Date.parse(r.set_at) > now.getTime() - SLOW_DOWN_MS)).map((r) => [r.kind, r]));
}

/** The budget, what is used of it, and any pause: /settings, the scheduler and /metrics read this. */
export async function quotaUsage(db: DB = getDb(), now: Date = new Date()): Promise<QuotaUsage> {
  const [used, active] = await Promise.all([operationsUsed(db, now), pauses(db, now)]);
  const at = now.toISOString();
  const hard = [active.get("daily"), active.get("retry")].filter((p): p is GoogleAdsPauseTable => !!p && p.until > at);
  const longest = hard.sort((a, b) => (a.until < b.until ? 1 : -1))[0];
  const temporary = active.get("temporary");
  return {
    used,
    ...quotaBudget(),
    pausedUntil: longest?.until ?? null,
    pauseReason: longest?.reason ?? null,
    backgroundHeldUntil: temporary && temporary.until > at ? temporary.until : null,
    slowDown: temporary !== undefined,
  };
}

/** What one request to Google is, for the ledger. */
export interface OperationRequest {
  method: string;
  operations: number;
  customerId?: string;
  purpose: QuotaPurpose;
}

const DAILY_CAP_MESSAGE = "The Google Ads API budget of this install is used up";

/**
 * Records the request in the ledger if it fits, in one step that other
 * instances wait for; throws PausedError (nothing recorded, nothing to send)
 * while calls are paused or when it would take the purpose past its budget.
 */
export async function reserveOperations(request: OperationRequest, db: DB = getDb(), now: Date = new Date()): Promise<void> {
  const { budget, backgroundBudget } = quotaBudget();
  const limit = request.purpose === "background" ? backgroundBudget : budget;
  // PostgreSQL: one reservation at a time across instances. SQLite: the statement alone is atomic (one writer).
  const admitted =
    dialectOf(getConfig().DATABASE_URL) === "postgres"
      ? await db.transaction().execute(async (trx) => {
          await sql`SELECT pg_advisory_xact_lock(hashtext('google_ads_operations'))`.execute(trx);
          return insertIfRoom(trx, request, limit, now);
        })
      : await insertIfRoom(db, request, limit, now);
  if (admitted) return;
  // Refused: say why and until when.
  const at = now.toISOString();
  const active = await pauses(db, now);
  const pause = [active.get("daily"), active.get("retry"), request.purpose === "background" ? active.get("temporary") : undefined].find(
    (p): p is GoogleAdsPauseTable => !!p && p.until > at,
  );
  if (pause) throw new PausedError(pausedMessage(pause.reason, pause.until), pause.until);
  const used = await operationsUsed(db, now);
  const until = await roomAt(db, now, Math.max(1, used + request.operations - limit));
  const who = request.purpose === "background" ? " for scheduled refreshes (the rest is kept for your own changes and Sync now)" : "";
  const reason = `${DAILY_CAP_MESSAGE}${who}: ${used.toLocaleString("en-US")} of ${budget.toLocaleString("en-US")} operations in the last 24 hours`;
  throw new PausedError(pausedMessage(reason, until), until);
}

/** Records the request unless calls are paused for it or it would take the 24 hours past `limit`: one statement. */
async function insertIfRoom(db: DB, request: OperationRequest, limit: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const kinds = request.purpose === "background" ? ["daily", "retry", "temporary"] : ["daily", "retry"];
  const values = {
    id: randomUUID(),
    at,
    operations: request.operations,
    method: request.method,
    customer_id: request.customerId ?? null,
    purpose: request.purpose,
  };
  const result = await sql`
    INSERT INTO google_ads_operations (id, at, operations, method, customer_id, purpose)
    SELECT ${values.id}, ${values.at}, ${values.operations}, ${values.method}, ${values.customer_id}, ${values.purpose}
    WHERE NOT EXISTS (SELECT 1 FROM google_ads_pause WHERE until > ${at} AND kind IN (${sql.join(kinds)}))
      AND (SELECT COALESCE(SUM(operations), 0) FROM google_ads_operations WHERE at > ${windowStart(now)}) + ${request.operations} <= ${limit}`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** "…; Google Ads calls resume at 14:05 UTC." */
export function pausedMessage(reason: string, until: string): string {
  return `${reason}. Google Ads calls resume at ${until.slice(0, 16).replace("T", " ")} UTC.`;
}

/** When enough recorded operations have left the window to free `over` of them (at least a few minutes ahead). */
async function roomAt(db: DB, now: Date, over: number): Promise<string> {
  const rows = await db.selectFrom("google_ads_operations").select(["at", "operations"]).where("at", ">", windowStart(now)).orderBy("at").execute();
  let freed = 0;
  for (const row of rows) {
    freed += row.operations;
    if (freed >= over) return new Date(Math.max(Date.parse(row.at) + DAY_MS, now.getTime() + 60_000)).toISOString();
  }
  return new Date(now.getTime() + DAY_MS).toISOString();
}

async function setPause(db: DB, kind: GoogleAdsPauseTable["kind"], until: Date, reason: string, now: Date): Promise<void> {
  const row = { kind, until: until.toISOString(), reason, set_at: now.toISOString() };
  await db
    .insertInto("google_ads_pause")
    .values(row)
    .onConflict((oc) => oc.column("kind").doUpdateSet({ until: row.until, reason: row.reason, set_at: row.set_at }))
    .execute();
}

/**
 * What Google's quota errors mean for the whole install (called with every
 * failed request): the daily cap pauses every call, short-term limiting that
 * outlasted the client's retries holds back scheduled refreshes.
 */
export async function noteQuotaError(error: AdsClientError, db: DB = getDb(), now: Date = new Date(), random: () => number = Math.random): Promise<void> {
  if (!(error instanceof GoogleAdsApiError)) return;
  if (error.hasCode("quotaError.RESOURCE_EXHAUSTED")) {
    let until: Date;
    let reason: string;
    if (error.retryDelayMs !== undefined) {
      until = new Date(now.getTime() + error.retryDelayMs);
      reason = "Google Ads asked this install to pause: its daily operations are used up";
    } else {
      // Google's count is what matters; the ledger says when this install's oldest operations leave it.
      const used = await operationsUsed(db, now);
      const freed = used > 0 ? await roomAt(db, now, Math.max(1, Math.ceil(used * 0.1))) : undefined;
      const ms = freed ? Math.max(Date.parse(freed) - now.getTime(), MIN_CAP_PAUSE_MS) : UNKNOWN_CAP_PAUSE_MS;
      until = new Date(now.getTime() + ms);
      reason = "Google Ads says the daily operations of this install's Google Cloud project are used up";
    }
    await setPause(db, error.retryDelayMs !== undefined ? "retry" : "daily", until, reason, now);
    log.warn(`Google Ads daily quota reached: every Google Ads call is paused until ${until.toISOString()} (${error.userMessage})`);
    return;
  }
  if (error.hasCode("quotaError.RESOURCE_TEMPORARILY_EXHAUSTED")) {
    const [min, max] = TEMPORARY_PAUSE_MS;
    const until = new Date(now.getTime() + min + Math.floor(random() * (max - min)));
    await setPause(db, "temporary", until, "Google Ads is rate limiting this install right now", now);
  }
}

/** Throws PausedError while calls are paused (a preflight for applies: nothing is marked as applying). */
export async function assertGoogleAvailable(db: DB = getDb(), now: Date = new Date()): Promise<void> {
  const usage = await quotaUsage(db, now);
  if (usage.pausedUntil) throw new PausedError(pausedMessage(usage.pauseReason ?? DAILY_CAP_MESSAGE, usage.pausedUntil), usage.pausedUntil);
  if (usage.used >= usage.budget) {
    const until = await roomAt(db, now, usage.used - usage.budget + 1);
    throw new PausedError(pausedMessage(`${DAILY_CAP_MESSAGE}: ${usage.used} of ${usage.budget} operations in the last 24 hours`, until), until);
  }
}

/** Drops ledger rows nobody reads any more (the scheduler calls it). */
export async function pruneOperations(db: DB = getDb(), now: Date = new Date()): Promise<void> {
  await db
    .deleteFrom("google_ads_operations")
    .where("at", "<", new Date(now.getTime() - KEEP_MS).toISOString())
    .execute();
}

export interface LedgerOptions {
  purpose: QuotaPurpose;
  /** The ledger's clock (tests and the bench simulate days). */
  clock?: () => Date;
  /** Told the operations of every request recorded (a sync counts what it spent). */
  onRecorded?: (operations: number) => void;
}

/** A client's meter writing the install's ledger: what every Google Ads client is created with. */
export function ledgerMeter(opts: LedgerOptions): RequestMeter {
  const now = opts.clock ?? (() => new Date());
  return {
    async before(request) {
      await reserveOperations({ ...request, purpose: opts.purpose }, getDb(), now());
      opts.onRecorded?.(request.operations);
    },
    failed: (error) => noteQuotaError(error, getDb(), now()),
  };
}
