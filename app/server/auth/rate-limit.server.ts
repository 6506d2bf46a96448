import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "../env.server";

/**
 * Brute-force protection for sign-in and registration.
 *
 * - Every attempt counts against the client IP (AUTH_RATE_LIMIT_IP).
 * - Failed sign-ins count against the pair account + IP: after
 *   AUTH_RATE_LIMIT_ACCOUNT failures that address may not try that account
 *   again for the window. Other addresses are not affected, so nobody can
 *   lock a victim out by typing wrong passwords for them.
 * - Failures against one account from any address only slow that account's
 *   sign-ins down (SLOWDOWN_MS per attempt once over the limit): an attacker
 *   rotating addresses gets fewer guesses per second, the owner still gets in.
 */
export class RateLimitError extends Error {
  constructor(public readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super(`Too many attempts. Please try again in ${minutes <= 1 ? "a minute" : `${minutes} minutes`}.`);
    this.name = "RateLimitError";
  }
}

/** Delay added to each sign-in of an account that is being guessed at from many addresses. */
export const SLOWDOWN_MS = 1000;

let limiters: { ip: RateLimiterMemory; pair: RateLimiterMemory; account: RateLimiterMemory } | undefined;
function getLimiters() {
  const config = getConfig();
  const window = config.AUTH_RATE_LIMIT_WINDOW_SECONDS;
  limiters ??= {
    ip: new RateLimiterMemory({ keyPrefix: "auth-ip", points: config.AUTH_RATE_LIMIT_IP, duration: window }),
    pair: new RateLimiterMemory({ keyPrefix: "auth-pair", points: config.AUTH_RATE_LIMIT_ACCOUNT, duration: window }),
    // Counts freely (never refuses); read to decide on the slowdown.
    account: new RateLimiterMemory({ keyPrefix: "auth-account", points: Number.MAX_SAFE_INTEGER, duration: window }),
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

const pairKey = (email: string, ip: string) => `${email}\n${ip}`;

/** Counts one attempt from this IP; throws RateLimitError when over the limit. */
export async function consumeIpAttempt(ip: string) {
  await getLimiters().ip.consume(ip).catch(toError);
}

/** Throws when this address already failed too often for this account. */
export async function assertPairNotLocked(email: string, ip: string) {
  const res = await getLimiters().pair.get(pairKey(email, ip));
  if (res && res.consumedPoints >= getConfig().AUTH_RATE_LIMIT_ACCOUNT) toError(res);
}

/** Waits SLOWDOWN_MS when the account has more failures than AUTH_RATE_LIMIT_ACCOUNT across all addresses. */
export async function slowDownIfGuessedAt(email: string, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  const res = await getLimiters().account.get(email);
  if (res && res.consumedPoints >= getConfig().AUTH_RATE_LIMIT_ACCOUNT) await sleep(SLOWDOWN_MS);
}

export async function recordFailedAttempt(email: string, ip: string) {
  const { pair, account } = getLimiters();
  await Promise.all([pair.penalty(pairKey(email, ip), 1), account.penalty(email, 1)]);
}

export async function clearFailedAttempts(email: string, ip: string) {
  const { pair, account } = getLimiters();
  await Promise.all([pair.delete(pairKey(email, ip)), account.delete(email)]);
}
