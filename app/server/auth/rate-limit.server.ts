import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "../env.server";

/**
 * Brute-force protection for sign-in and registration: every attempt counts
 * against the client IP; failed attempts count against the account, so one
 * attacker rotating IPs still cannot hammer one password.
 */
export class RateLimitError extends Error {
  constructor(public readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super(
      `Too many attempts. Please try again in ${minutes <= 1 ? "a minute" : `${minutes} minutes`}.`,
    );
    this.name = "RateLimitError";
  }
}

let limiters: { ip: RateLimiterMemory; account: RateLimiterMemory } | undefined;
function getLimiters() {
  const config = getConfig();
  limiters ??= {
    ip: new RateLimiterMemory({
      keyPrefix: "auth-ip",
      points: config.AUTH_RATE_LIMIT_IP,
      duration: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    }),
    account: new RateLimiterMemory({
      keyPrefix: "auth-account",
      points: config.AUTH_RATE_LIMIT_ACCOUNT,
      duration: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    }),
  };
  return limiters;
}

export function resetRateLimitsForTests() {
  limiters = undefined;
}

function toError(result: unknown): never {
  if (result instanceof RateLimiterRes) throw new RateLimitError(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
  throw result;
}

/** Counts one attempt from this IP; throws RateLimitError when over the limit. */
export async function consumeIpAttempt(ip: string) {
  await getLimiters().ip.consume(ip).catch(toError);
}

/** Throws when this account already has too many failed attempts. */
export async function assertAccountNotLocked(email: string) {
  const res = await getLimiters().account.get(email);
  if (res && res.consumedPoints >= getConfig().AUTH_RATE_LIMIT_ACCOUNT) toError(res);
}

export async function recordFailedAttempt(email: string) {
  await getLimiters().account.penalty(email, 1);
}

export async function clearFailedAttempts(email: string) {
  await getLimiters().account.delete(email);
}
