import { getDb } from "../db/db.server";
import { getConfig } from "../env.server";
import { clientNetwork } from "../http/client-ip.server";
import { consumeLimit, limiter, RateLimitError, toRateLimitError, type LimitSpec } from "../limits/limiter.server";

/**
 * Brute-force and abuse protection for the account forms, counted in the
 * database so every instance enforces one limit (limits/limiter.server.ts).
 * A client is its network (clientNetwork: IPv6 by /64).
 *
 * - Every attempt counts against the client's network, in a bucket of its own
 *   per action (sign-in, registration, address confirmation, password reset),
 *   AUTH_RATE_LIMIT_IP each: a client who registers in a loop behind a shared
 *   NAT does not lock everyone there out of signing in.
 * - Failed passwords count against the pair account + network: after
 *   AUTH_RATE_LIMIT_ACCOUNT failures that network may not try that account
 *   again for the window. Other networks are not affected, so nobody can lock
 *   a victim out by typing wrong passwords for them.
 * - Failures against one account from anywhere only slow that account's
 *   sign-ins down (SLOWDOWN_MS per attempt once over the limit).
 * - Account mail (confirmation links, notes, reset links) is limited per
 *   recipient per day (AUTH_MAIL_DAILY_LIMIT), so a form cannot be used to
 *   flood someone's mailbox.
 */
export { RateLimitError };

export type AuthAction = "login" | "register" | "confirm" | "reset";

/** Delay added to each sign-in of an account that is being guessed at from many addresses. */
export const SLOWDOWN_MS = 1000;

function specs() {
  const config = getConfig();
  const window = config.AUTH_RATE_LIMIT_WINDOW_SECONDS;
  const action = (name: AuthAction): LimitSpec => ({ name: `auth-${name}`, points: config.AUTH_RATE_LIMIT_IP, durationSeconds: window });
  return {
    action,
    pair: { name: "auth-pair", points: config.AUTH_RATE_LIMIT_ACCOUNT, durationSeconds: window },
    // Counts freely (never refuses); read to decide on the slowdown.
    account: { name: "auth-account", points: Number.MAX_SAFE_INTEGER, durationSeconds: window },
    mail: { name: "auth-mail", points: config.AUTH_MAIL_DAILY_LIMIT, durationSeconds: 24 * 3600 },
  };
}

const pairKey = (email: string, ip: string) => `${email}\n${clientNetwork(ip)}`;

/** Counts one attempt at `action` from this client; throws RateLimitError when over the limit. */
export async function consumeAttempt(action: AuthAction, ip: string) {
  await consumeLimit(specs().action(action), clientNetwork(ip));
}

/** Throws when this network already failed too often for this account. */
export async function assertPairNotLocked(email: string, ip: string) {
  const res = await limiter(specs().pair).get(pairKey(email, ip));
  if (res && res.consumedPoints >= getConfig().AUTH_RATE_LIMIT_ACCOUNT) toRateLimitError(res);
}

/** Waits SLOWDOWN_MS when the account has more failures than AUTH_RATE_LIMIT_ACCOUNT across all networks. */
export async function slowDownIfGuessedAt(email: string, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  const res = await limiter(specs().account).get(email);
  if (res && res.consumedPoints >= getConfig().AUTH_RATE_LIMIT_ACCOUNT) await sleep(SLOWDOWN_MS);
}

export async function recordFailedAttempt(email: string, ip: string) {
  const { pair, account } = specs();
  await Promise.all([limiter(pair).penalty(pairKey(email, ip), 1), limiter(account).penalty(email, 1)]);
}

export async function clearFailedAttempts(email: string, ip: string) {
  const { pair, account } = specs();
  await Promise.all([limiter(pair).delete(pairKey(email, ip)), limiter(account).delete(email)]);
}

/** Counts one account mail to this address; false once the address had its day's share. */
export async function mayMail(email: string): Promise<boolean> {
  try {
    await consumeLimit(specs().mail, email);
    return true;
  } catch (error) {
    if (error instanceof RateLimitError) return false;
    throw error;
  }
}

/** Forgets every count (tests that need a clean slate within one database). */
export async function resetRateLimitsForTests() {
  await getDb().deleteFrom("rate_limits").execute();
}
