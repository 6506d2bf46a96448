import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDbHandle, type DbHandle, type RawClient } from "../db/db.server";
import { errorMessage, log } from "../log.server";

/**
 * Every rate limit of the app, counted in the database (issue 27 point 3):
 * rate-limiter-flexible's PostgreSQL store on PostgreSQL, its SQLite store on
 * SQLite, over the table of migration 0110. N instances on one database count
 * against one limit, and a lockout made on one holds on all. Sign-in,
 * registration and mail use it (auth/rate-limit.server.ts); chat, ad copy and
 * "Sync now" take their limits from here too.
 *
 *     const SYNC_NOW: LimitSpec = { name: "sync-now", points: 6, durationSeconds: 3600 };
 *     await consumeLimit(SYNC_NOW, userId); // throws RateLimitError when over
 */
export interface LimitSpec {
  /** Unique per limit: its rows' key prefix. */
  name: string;
  /** How many points a key may consume per window. */
  points: number;
  durationSeconds: number;
}

export const RATE_LIMIT_TABLE = "rate_limits";

/** Over a limit; `retryAfterSeconds` is when the window frees a point. */
export class RateLimitError extends Error {
  name = "RateLimitError";
  constructor(public readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super(`Too many attempts. Please try again in ${minutes <= 1 ? "a minute" : `${minutes} minutes`}.`);
  }
}

/** A limiter over this database client (two of them over one database share every count). */
export function createLimiter(raw: RawClient, spec: LimitSpec): RateLimiterAbstract {
  const options = {
    keyPrefix: spec.name,
    points: spec.points,
    duration: spec.durationSeconds,
    tableName: RATE_LIMIT_TABLE,
    // Made by the migration; expired rows are swept below, once per process, not by a timer per limiter.
    tableCreated: true,
    clearExpiredByTimeout: false,
  };
  return raw.kind === "postgres"
    ? new RateLimiterPostgres({ ...options, storeClient: raw.pool, storeType: "pool" })
    : new RateLimiterSQLite({ ...options, storeClient: raw.database, storeType: "better-sqlite3" });
}

const limiters = new WeakMap<DbHandle, Map<string, RateLimiterAbstract>>();
const lastSweep = new WeakMap<DbHandle, number>();
const SWEEP_EVERY_MS = 10 * 60_000;
/** Rows are kept an hour past their window, as the library's own sweep does. */
const KEEP_EXPIRED_MS = 3600_000;

/** The process's limiter for this spec, over the process's database. */
export function limiter(spec: LimitSpec): RateLimiterAbstract {
  const handle = getDbHandle();
  let byId = limiters.get(handle);
  if (!byId) limiters.set(handle, (byId = new Map()));
  const id = `${spec.name}\n${spec.points}\n${spec.durationSeconds}`;
  let found = byId.get(id);
  if (!found) byId.set(id, (found = createLimiter(handle.raw, spec)));
  sweepNowAndThen(handle);
  return found;
}

function sweepNowAndThen(handle: DbHandle) {
  const now = Date.now();
  if (now - (lastSweep.get(handle) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(handle, now);
  handle.db
    .deleteFrom("rate_limits")
    .where("expire", "<", now - KEEP_EXPIRED_MS)
    .execute()
    .catch((error: unknown) => log.warn(`Could not sweep expired rate-limit rows: ${errorMessage(error)}`));
}

/** The library rejects with a RateLimiterRes when over; anything else is a real error. */
export function toRateLimitError(result: unknown): never {
  if (result instanceof RateLimiterRes) throw new RateLimitError(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
  throw result;
}

/** Consumes points for `key`; throws RateLimitError when that goes over the limit. */
export async function consumeLimit(spec: LimitSpec, key: string, points = 1): Promise<RateLimiterRes> {
  return limiter(spec).consume(key, points).catch(toRateLimitError);
}
