import type { GoogleAdsErrorEntry } from "./ads/contract";
import { GoogleApiError, MSG } from "./http/google-errors";

/**
 * Google Ads API operations, counted as Google counts them for an access level
 * (developers.google.com/google-ads/api/docs/api-policy/rate-sheet): one per
 * search or searchStream request however many rows or pages it returns, one
 * per mutate operation, one for any other call. Requests Google refuses still
 * count, including those refused for quota. With a daily limit
 * (EMULATOR_DAILY_OPERATIONS) a request that would go past it in the rolling
 * 24 hours is refused with Google's daily-cap error, whose retryDelay says when
 * the oldest counted operation leaves the window.
 */

const DAY_MS = 86_400_000;

export type OperationMethod = "search" | "searchStream" | "mutate" | "listAccessibleCustomers" | "other";

export interface OperationsReport {
  /** Operations in the rolling 24 hours ending now. */
  last24h: number;
  /** Every operation since start (or the last reset). */
  total: number;
  /** Requests since start, by method. */
  requests: Record<OperationMethod, number>;
  /** Operations since start, by method. */
  operations: Record<OperationMethod, number>;
  /** The daily limit, or null when none is enforced. */
  dailyLimit: number | null;
}

const METHODS: readonly OperationMethod[] = ["search", "searchStream", "mutate", "listAccessibleCustomers", "other"];
const zeroes = () => Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<OperationMethod, number>;

export class OperationsMeter {
  // Counted operations in time order, pruned once older than the window.
  private entries: Array<{ at: number; ops: number }> = [];
  private inWindow = 0;
  private total = 0;
  private requests = zeroes();
  private operations = zeroes();

  constructor(
    private readonly now: () => number,
    private dailyLimit: number | undefined,
  ) {}

  setDailyLimit(limit: number | undefined): void {
    this.dailyLimit = limit;
  }

  /**
   * Counts one request of `ops` operations and says whether Google would have
   * refused it for the daily cap (it counts either way). Returns the error to answer with, if any.
   */
  charge(method: OperationMethod, ops: number): GoogleApiError | undefined {
    const at = this.now();
    this.prune(at);
    const refused = this.dailyLimit !== undefined && this.inWindow + ops > this.dailyLimit;
    const retryAfterMs = refused ? this.roomAfterMs(at, ops) : 0;
    this.entries.push({ at, ops });
    this.inWindow += ops;
    this.total += ops;
    this.requests[method] += 1;
    this.operations[method] += ops;
    return refused ? dailyCapError(this.dailyLimit!, Math.max(1, Math.ceil(retryAfterMs / 1000))) : undefined;
  }

  report(): OperationsReport {
    this.prune(this.now());
    return {
      last24h: this.inWindow,
      total: this.total,
      requests: { ...this.requests },
      operations: { ...this.operations },
      dailyLimit: this.dailyLimit ?? null,
    };
  }

  reset(): void {
    this.entries = [];
    this.inWindow = 0;
    this.total = 0;
    this.requests = zeroes();
    this.operations = zeroes();
  }

  private prune(at: number): void {
    let drop = 0;
    while (drop < this.entries.length && this.entries[drop].at <= at - DAY_MS) {
      this.inWindow -= this.entries[drop].ops;
      drop++;
    }
    if (drop > 0) this.entries.splice(0, drop);
  }

  /** How long until enough counted operations leave the window for `ops` more to fit. */
  private roomAfterMs(at: number, ops: number): number {
    let over = this.inWindow + ops - this.dailyLimit!;
    for (const e of this.entries) {
      over -= e.ops;
      if (over <= 0) return e.at + DAY_MS - at;
    }
    return DAY_MS;
  }
}

/** Operations a mutate body asks for: its operations (or mutateOperations), at least one. */
export function mutateOperationCount(body: Record<string, unknown> | undefined): number {
  const list = body?.operations ?? body?.mutateOperations ?? body?.mutate_operations;
  return Array.isArray(list) && list.length > 0 ? list.length : 1;
}

/**
 * The daily cap as Google answers it (captured in the wild, v23: "Too many requests. Retry in 5603
 * seconds.", rateScope DEVELOPER, rateName "Number of operations for basic access").
 */
export function dailyCapError(limit: number, retryDelaySeconds: number): GoogleApiError {
  const text = `Too many requests. Retry in ${retryDelaySeconds} seconds.`;
  const level = limit <= 2_880 ? "explorer" : "basic";
  const entry = {
    errorCode: { quotaError: "RESOURCE_EXHAUSTED" },
    message: text,
    details: { quotaErrorDetails: { rateScope: "DEVELOPER", rateName: `Number of operations for ${level} access`, retryDelay: `${retryDelaySeconds}s` } },
  } as GoogleAdsErrorEntry;
  return new GoogleApiError(429, "RESOURCE_EXHAUSTED", MSG.RESOURCE_EXHAUSTED, [entry]);
}
