import { z } from "zod";

/**
 * Fault injection, switched by configuration (createEmulator({faults}),
 * EMULATOR_FAULTS, state.setFaults, POST /__emulator/faults) so the app's retry
 * paths can be exercised against the real protocol without test-only branches.
 */

/** Which calls a rule applies to. "ads" = every Google Ads API call; "*" = Ads plus token, userinfo and revoke. */
export const FAULT_MATCHES = ["*", "ads", "search", "searchStream", "listAccessibleCustomers", "mutate", "token", "userinfo", "revoke"] as const;

export const FAULT_KINDS = [
  /** 429 RESOURCE_EXHAUSTED, quotaError RESOURCE_TEMPORARILY_EXHAUSTED with quotaErrorDetails.retryDelay (+ google.rpc.RetryInfo). */
  "quota",
  /** 429 RESOURCE_EXHAUSTED, quotaError RESOURCE_EXHAUSTED, no retry delay (the daily operations cap). */
  "dailyQuota",
  /** 500 INTERNAL, internalError TRANSIENT_ERROR. */
  "transient",
  /** 500 INTERNAL, internalError INTERNAL_ERROR. */
  "internal",
  /** 503 UNAVAILABLE from the front end, no GoogleAdsFailure. */
  "unavailable",
  /** 401 UNAUTHENTICATED, authenticationError OAUTH_TOKEN_EXPIRED; on the token endpoint: invalid_grant. */
  "unauthenticated",
  /** Delay the call by delayMs, then answer normally. */
  "slow",
] as const;

export type FaultMatch = (typeof FAULT_MATCHES)[number];
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultOperation = Exclude<FaultMatch, "*" | "ads">;

export const faultRuleSchema = z
  .object({
    match: z.enum(FAULT_MATCHES).default("*"),
    kind: z.enum(FAULT_KINDS),
    /** Fire this many times, then stop. Unset: every matching call. */
    times: z.number().int().positive().optional(),
    /** Only calls for this customer id (10 digits, as in the URL). */
    customerId: z
      .string()
      .regex(/^\d{10}$/, "10 digits without hyphens")
      .optional(),
    /** "slow": delay in milliseconds (default 1000). */
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /** "quota": the retryDelay Google reports, in whole seconds (default 2). */
    retryDelaySeconds: z.number().int().min(0).max(86_400).optional(),
  })
  .strict();

export type FaultRule = z.input<typeof faultRuleSchema>;
export type ParsedFaultRule = z.output<typeof faultRuleSchema>;

/**
 * Accepts a list of rules, a single rule, or {"faults": [...]}. Picked by shape
 * rather than z.union, so errors point at the offending field instead of "Invalid input".
 */
export const faultConfigSchema = z.preprocess((input) => {
  if (Array.isArray(input)) return input;
  if (input && typeof input === "object" && "faults" in input && !("kind" in input)) return (input as { faults: unknown }).faults;
  return [input];
}, z.array(faultRuleSchema));

export function parseFaultRules(input: unknown): ParsedFaultRule[] {
  return faultConfigSchema.parse(input);
}

/** EMULATOR_FAULTS: JSON, e.g. [{"match":"searchStream","kind":"quota","times":2}]. Throws a readable Error. */
export function parseFaultsEnv(text: string | undefined): ParsedFaultRule[] {
  if (!text || !text.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`EMULATOR_FAULTS is not valid JSON: ${(error as Error).message}`);
  }
  const result = faultConfigSchema.safeParse(json);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`EMULATOR_FAULTS is invalid:\n${lines.join("\n")}`);
  }
  return result.data;
}

const ADS_OPERATIONS: ReadonlySet<FaultOperation> = new Set(["search", "searchStream", "listAccessibleCustomers", "mutate"]);

export interface FaultDecision {
  delayMs: number;
  fault?: ParsedFaultRule;
}

export class FaultEngine {
  private rules: Array<{ rule: ParsedFaultRule; remaining: number }> = [];

  constructor(initial: FaultRule[] = []) {
    this.set(initial);
  }

  set(rules: FaultRule[]): void {
    this.rules = parseFaultRules(rules).map((rule) => ({ rule, remaining: rule.times ?? Number.POSITIVE_INFINITY }));
  }

  /** Rules still armed, with what is left of each `times`. */
  list(): Array<ParsedFaultRule & { remaining?: number }> {
    return this.rules.map(({ rule, remaining }) => (Number.isFinite(remaining) ? { ...rule, remaining } : { ...rule }));
  }

  /**
   * Every matching "slow" rule adds its delay; the first matching error rule fires.
   * Each rule that applies uses up one of its `times`.
   */
  decide(op: FaultOperation, customerId?: string): FaultDecision {
    let delayMs = 0;
    let fault: ParsedFaultRule | undefined;
    for (const entry of this.rules) {
      if (entry.remaining <= 0 || !matches(entry.rule, op, customerId)) continue;
      if (entry.rule.kind === "slow") {
        delayMs += entry.rule.delayMs ?? 1000;
        entry.remaining -= 1;
      } else if (!fault) {
        fault = entry.rule;
        entry.remaining -= 1;
      }
    }
    this.rules = this.rules.filter((e) => e.remaining > 0);
    return { delayMs, fault };
  }
}

function matches(rule: ParsedFaultRule, op: FaultOperation, customerId: string | undefined): boolean {
  const opOk = rule.match === "*" || rule.match === op || (rule.match === "ads" && ADS_OPERATIONS.has(op));
  if (!opOk) return false;
  return rule.customerId === undefined || rule.customerId === customerId;
}
