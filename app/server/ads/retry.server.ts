/**
 * Backoff for retryable Google Ads failures: exponential with full jitter
 * (a uniformly random wait up to the ceiling) so that many syncs hitting the
 * same rate limit don't come back in lockstep.
 */

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;
export const BASE_BACKOFF_MS = 1_000;

/** The upper bound of the wait before retry number `retryIndex` (0-based). */
export function backoffCeilingMs(retryIndex: number, maxBackoffMs = DEFAULT_MAX_BACKOFF_MS, baseMs = BASE_BACKOFF_MS) {
  return Math.min(maxBackoffMs, baseMs * 2 ** retryIndex);
}

/**
 * How long to wait before retry number `retryIndex`, or undefined when Google
 * asked for a longer pause than we are willing to wait: waiting less would
 * only spend quota on a request bound to fail, so the caller gets the error
 * (with its retryDelayMs) and can reschedule.
 */
export function retryWaitMs(opts: { retryIndex: number; random: () => number; maxBackoffMs?: number; retryDelayMs?: number }): number | undefined {
  const maxBackoffMs = opts.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const r = Math.min(Math.max(opts.random(), 0), 1);
  const jittered = Math.floor(r * backoffCeilingMs(opts.retryIndex, maxBackoffMs));
  if (opts.retryDelayMs === undefined) return jittered;
  if (opts.retryDelayMs > maxBackoffMs) return undefined;
  return Math.max(opts.retryDelayMs, jittered);
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
