/**
 * A local stand-in for Google's OAuth server and the Google Ads REST API,
 * speaking their real protocol. A plain Node request handler: serve it with
 * node:http (emulator/main.ts, tests) or mount it in Express
 * (app.use("/emulator", emulator.handler)).
 *
 * Knows nothing about the app; account data comes from an AdsDataSource.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { AdsDataSource } from "./ads/contract";
import type { AccessLevel } from "./env";
import type { EmulatorClock, EmulatorContext, EmulatorLogger } from "./context";
import { OperationsMeter, type OperationsReport } from "./quota";
import { FaultEngine, faultConfigSchema, type FaultRule, type ParsedFaultRule } from "./faults";
import { notFoundHtml } from "./http/google-errors";
import {
  BodyTooLargeError,
  Delays,
  formFields,
  headerValue,
  mountPrefix,
  readBody,
  requestBaseUrl,
  sendHtml,
  sendJson,
  type MaybeExpressRequest,
} from "./http/util";
import { SigningKey } from "./oauth/jwt";
import type { DemoUser } from "./oauth/pages";
import { PATHS, handleAuthorize, handleJwks, handleRevoke, handleToken, handleUserinfo, openidConfiguration, tokenFault } from "./oauth/routes";
import { OAuthState, type OAuthSnapshot } from "./oauth/state";
import type { MutateHandler } from "./rest/mutate";
import { ADS_PATH, handleAds, prerenderStream } from "./rest/routes";
import { StreamCache } from "./rest/stream-cache";

export type { AdsDataSource } from "./ads/contract";
export type { EmulatorClock, EmulatorLogger } from "./context";
export type { OperationsReport } from "./quota";
export type { FaultRule, ParsedFaultRule } from "./faults";
export type { DemoUser } from "./oauth/pages";
export type { OAuthSnapshot } from "./oauth/state";
export type { MutateHandler, MutateRequest } from "./rest/mutate";
export { ADWORDS_SCOPE } from "./oauth/scopes";

/**
 * Versions Google has turned off (v22 on 2026-10-07; https://developers.google.com/google-ads/api/docs/sunset-dates):
 * the emulator refuses them as Google does, and serves every later one (v23 to v26 today, and any newer).
 */
export const GOOGLE_SUNSET_VERSIONS: readonly string[] = Array.from({ length: 22 }, (_, i) => `v${i + 1}`);

export interface EmulatorOptions {
  dataSource: AdsDataSource;
  /** The one Google account that "signs in". Default: Demo Advertiser <demo.advertiser@example.com>. */
  demoUser?: DemoUser;
  /** Fixed OAuth client. When set, other client ids are rejected (invalid_client); when unset any client is accepted. */
  clientId?: string;
  /** With clientId: the secret the token endpoint requires. */
  clientSecret?: string;
  /** With clientId: the registered redirect URIs (exact match). Unset: any http(s) redirect URI. */
  redirectUris?: string[];
  /** Refuse authorization requests without a PKCE code_challenge (Google makes it optional; a known client may promise it). */
  requirePkce?: boolean;
  /** Keeps grants, tokens and consents across restarts: load() once at start, save() after every change. */
  oauthPersistence?: { load(): OAuthSnapshot | undefined; save(snapshot: OAuthSnapshot): void };
  /** expires_in of access tokens. Default 3599, as Google reports. */
  accessTokenTtlSeconds?: number;
  faults?: FaultRule[];
  /** Default: errors only, to console.error. */
  logger?: EmulatorLogger;
  /** Absolute base URL (scheme, host, mount path) used for issuer and endpoint URLs; default: from each request. */
  publicBaseUrl?: string;
  /** Serve /__emulator/* (faults, revoke-all, expire-tokens, revoke-access, unlink-client). Off by default: nothing to be reached in demo mode. */
  enableAdmin?: boolean;
  /** Versions answered with requestError UNSUPPORTED_VERSION, as Google does after a sunset. Default: v22 and older (GOOGLE_SUNSET_VERSIONS). */
  sunsetVersions?: string[];
  /**
   * The Cloud project's access level (EMULATOR_ACCESS_LEVEL). `test`: calls on accounts that are not test
   * accounts are refused as Google refuses them. Default: standard.
   */
  accessLevel?: AccessLevel;
  /** Write-side extension point; unset → mutate endpoints answer 501 UNIMPLEMENTED. */
  mutate?: MutateHandler;
  /** Clock in ms, for tests of expiry. Default Date.now. */
  now?: () => number;
  /**
   * Answer a searchStream from its rendering ahead (state.prerenderSearchStream) when one exists for the
   * same customer, query and summary setting: the benchmark's Google, whose work is not on this machine's
   * cores (rest/stream-cache.ts). Emptied by every mutate. Off by default.
   */
  streamCache?: boolean;
  /**
   * Operations per rolling 24 hours before Google's daily-cap error (EMULATOR_DAILY_OPERATIONS):
   * Explorer access 2,880, Basic 15,000. Unset: counted, never refused.
   */
  dailyOperations?: number;
  /** The Ads data's clock (the store's): the operations window and POST /__emulator/clock use it. Default: `now`. */
  clock?: EmulatorClock;
}

export interface EmulatorState {
  /** Replace the fault rules (validated; throws ZodError on bad input). */
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  /** Armed rules, with `remaining` for those limited by `times`. */
  getFaults(): Array<ParsedFaultRule & { remaining?: number }>;
  /** As if the user removed the app's access in their Google Account: every grant of that user dies. Returns how many. */
  revokeAllForUser(email: string): number;
  /** Ends live access tokens now (all, or one user's), so the next call sees OAUTH_TOKEN_EXPIRED. Returns how many. */
  expireAccessTokens(email?: string): number;
  /**
   * As if an administrator removed the user from a Google Ads account: listAccessibleCustomers stops
   * listing it and every call on it answers USER_PERMISSION_DENIED. False when the user had no direct access.
   */
  revokeCustomerAccess(email: string, customerId: string): boolean;
  /** As if the manager unlinked a client: customer_client stops listing it, calls through that manager are denied. */
  unlinkClient(managerId: string, clientId: string): boolean;
  /** The JWKS served at /oauth2/v3/certs. */
  jwks(): { keys: Array<Record<string, unknown>> };
  readonly demoUser: DemoUser;
  /** Renders one searchStream answer ahead (needs streamCache); resolves to its size in bytes. Throws the query's error. */
  prerenderSearchStream(customerId: string, query: string, summaryRowSetting?: string): Promise<number>;
  /** searchStream answers served from renderings (hits) and built live (misses) so far; null without streamCache. */
  streamCacheStats(): { hits: number; misses: number } | null;
  /** Forgets every rendering: searchStream answers are built live from here on. */
  clearStreamCache(): void;
  /** Google Ads API operations counted so far, as Google counts them. */
  operations(): OperationsReport;
  /** Forgets every counted operation. */
  resetOperations(): void;
  /** Changes the daily limit (undefined: none). */
  setDailyOperations(limit: number | undefined): void;
  /** Moves the Ads data's clock forward (needs `clock`); renderings are dropped, as the data moves on. */
  advanceClock(ms: number): Date;
}

export type EmulatorHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

export interface Emulator {
  handler: EmulatorHandler;
  state: EmulatorState;
  /** Releases requests parked by "slow" faults and forgets all tokens. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_DEMO_USER: DemoUser = {
  email: "demo.advertiser@example.com",
  name: "Demo Advertiser",
  sub: "100000000000000000001",
};

export function createEmulator(options: EmulatorOptions): Emulator {
  const now = options.now ?? Date.now;
  const ttl = options.accessTokenTtlSeconds ?? 3599;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error("accessTokenTtlSeconds must be a positive integer");
  const ctx: EmulatorContext = {
    dataSource: options.dataSource,
    demoUser: options.demoUser ?? DEFAULT_DEMO_USER,
    clientId: options.clientId,
    clientSecret: options.clientId !== undefined ? options.clientSecret : undefined,
    redirectUris: options.clientId !== undefined && options.redirectUris ? new Set(options.redirectUris) : undefined,
    accessTokenTtlSeconds: ttl,
    publicBaseUrl: options.publicBaseUrl?.replace(/\/+$/, ""),
    sunsetVersions: new Set(options.sunsetVersions ?? GOOGLE_SUNSET_VERSIONS),
    accessLevel: options.accessLevel ?? "standard",
    mutate: options.mutate,
    requirePkce: options.requirePkce === true,
    now,
    oauth: createOAuthState(now, options.oauthPersistence),
    key: new SigningKey(),
    faults: new FaultEngine(options.faults ?? []),
    delays: new Delays(),
    // Without a logger, unexpected failures still reach stderr; they are bugs, not traffic.
    log: options.logger ?? { error: (message, meta) => console.error(message, meta) },
    streamCache: options.streamCache ? new StreamCache() : undefined,
    operations: new OperationsMeter(() => (options.clock ? options.clock.now().getTime() : now()), checkDailyLimit(options.dailyOperations)),
    clock: options.clock,
  };
  const enableAdmin = options.enableAdmin === true;
  let closed = false;

  const state: EmulatorState = {
    setFaults: (rules) => ctx.faults.set(rules),
    clearFaults: () => ctx.faults.set([]),
    getFaults: () => ctx.faults.list(),
    revokeAllForUser: (email) => ctx.oauth.revokeAllForUser(email),
    expireAccessTokens: (email) => ctx.oauth.expireAccessTokens(email),
    revokeCustomerAccess: (email, customerId) => changeAccess(ctx, () => ctx.dataSource.revokeAccess?.(email, customerId) ?? false),
    unlinkClient: (managerId, clientId) => changeAccess(ctx, () => ctx.dataSource.unlinkClient?.(managerId, clientId) ?? false),
    jwks: () => ctx.key.jwks(),
    demoUser: ctx.demoUser,
    prerenderSearchStream: (customerId, query, summaryRowSetting) => prerenderStream(ctx, customerId, query, summaryRowSetting),
    clearStreamCache: () => ctx.streamCache?.clear(),
    streamCacheStats: () => (ctx.streamCache ? { hits: ctx.streamCache.hits, misses: ctx.streamCache.misses } : null),
    operations: () => ctx.operations.report(),
    resetOperations: () => ctx.operations.reset(),
    setDailyOperations: (limit) => ctx.operations.setDailyLimit(checkDailyLimit(limit)),
    advanceClock: (ms) => advanceClock(ctx, ms),
  };

  const handler: EmulatorHandler = (req, res, next) => {
    const started = performance.now();
    dispatch(ctx, req as MaybeExpressRequest, res, enableAdmin, closed)
      .catch((error: unknown) => {
        // Also a body the host server refused at its own limit (same name, its own class).
        if (error instanceof BodyTooLargeError || (error instanceof Error && error.name === "BodyTooLargeError")) {
          if (!res.headersSent) sendJson(res, 413, { error: { code: 413, message: "Request payload size exceeds the limit.", status: "INVALID_ARGUMENT" } });
          return;
        }
        ctx.log.error?.("emulator: unhandled error", { error: error instanceof Error ? error.stack : String(error) });
        if (!res.headersSent) {
          sendJson(res, 500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } });
        } else if (next) {
          next(error);
        } else {
          res.destroy(error instanceof Error ? error : undefined);
        }
      })
      .finally(() => {
        // Path only: query strings carry codes and tokens.
        ctx.log.debug?.("emulator request", {
          method: req.method,
          path: (req.url ?? "").split("?")[0],
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          requestId: res.getHeader("request-id"),
        });
      });
  };

  return {
    handler,
    state,
    close: async () => {
      closed = true;
      ctx.delays.releaseAll();
      ctx.oauth.clear();
    },
  };
}

/** An access change: answers rendered before it may list what is no longer reachable. */
function changeAccess(ctx: EmulatorContext, change: () => boolean): boolean {
  const changed = change();
  if (changed) ctx.streamCache?.clear();
  return changed;
}

function checkDailyLimit(limit: number | undefined): number | undefined {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new RangeError("dailyOperations must be a positive integer");
  return limit;
}

function advanceClock(ctx: EmulatorContext, ms: number): Date {
  if (!ctx.clock) throw new Error("the emulator was created without a clock to advance");
  ctx.clock.advance(ms);
  ctx.streamCache?.clear();
  return ctx.clock.now();
}

const clockAdvanceSchema = z
  .object({
    days: z.number().int().min(0).max(3650).optional(),
    hours: z.number().int().min(0).max(87_600).optional(),
    minutes: z.number().int().min(0).max(5_256_000).optional(),
    /** An instant to move to (never backwards). */
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

function createOAuthState(now: () => number, persistence: EmulatorOptions["oauthPersistence"]): OAuthState {
  if (!persistence) return new OAuthState(now);
  let restoring = true;
  const state: OAuthState = new OAuthState(now, () => {
    if (!restoring) persistence.save(state.snapshot());
  });
  const saved = persistence.load();
  if (saved) state.restore(saved);
  restoring = false;
  return state;
}

function baseUrlOf(ctx: EmulatorContext, req: MaybeExpressRequest): string {
  return ctx.publicBaseUrl ?? requestBaseUrl(req);
}

async function dispatch(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, enableAdmin: boolean, closed: boolean): Promise<void> {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const path = url.pathname.replace(/\/{2,}/g, "/");
  const method = req.method ?? "GET";
  const displayPath = `${mountPrefix(req)}${path}`;
  const is = (paths: readonly string[]) => paths.includes(path);

  if (closed) {
    sendJson(res, 503, { error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } });
    return;
  }

  if (is(PATHS.authorize) && (method === "GET" || method === "POST")) {
    return handleAuthorize(ctx, req, res, url.searchParams, `${mountPrefix(req)}${path}`);
  }
  if (is(PATHS.token) && method === "POST") {
    const decision = ctx.faults.decide("token");
    if (decision.delayMs > 0) await ctx.delays.wait(decision.delayMs);
    if (decision.fault) return tokenFault(res, decision.fault);
    return handleToken(ctx, req, res, baseUrlOf(ctx, req));
  }
  if (is(PATHS.userinfo) && (method === "GET" || method === "POST")) {
    const decision = ctx.faults.decide("userinfo");
    if (decision.delayMs > 0) await ctx.delays.wait(decision.delayMs);
    if (decision.fault) return tokenFault(res, decision.fault);
    return handleUserinfo(ctx, req, res, url.searchParams, path);
  }
  if (is(PATHS.revoke) && (method === "POST" || method === "GET")) {
    const decision = ctx.faults.decide("revoke");
    if (decision.delayMs > 0) await ctx.delays.wait(decision.delayMs);
    if (decision.fault) return tokenFault(res, decision.fault);
    return handleRevoke(ctx, req, res, url.searchParams);
  }
  if (is(PATHS.jwks) && method === "GET") return handleJwks(ctx, res);
  if (is(PATHS.discovery) && method === "GET") {
    sendJson(res, 200, openidConfiguration(baseUrlOf(ctx, req)), { "Cache-Control": "public, max-age=3600" });
    return;
  }
  if (enableAdmin && path.startsWith("/__emulator/")) return handleAdmin(ctx, req, res, path, method);
  if (ADS_PATH.test(path)) return handleAds(ctx, req, res, path, displayPath);
  sendHtml(res, 404, notFoundHtml(displayPath));
}

/** Test hooks, reachable only with enableAdmin. JSON in, JSON out. */
async function handleAdmin(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, path: string, method: string): Promise<void> {
  const readJson = async (): Promise<unknown> => {
    const body = await readBody(req);
    if (body.parsed !== undefined) return body.parsed;
    const text = (body.text ?? "").trim();
    if (!text) return {};
    if (/^application\/x-www-form-urlencoded/i.test(headerValue(req, "content-type") ?? "")) return formFields(body, undefined);
    return JSON.parse(text) as unknown;
  };
  const field = (body: unknown, name: string) => {
    const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const emailOf = (body: unknown) => field(body, "email");

  try {
    if (path === "/__emulator/faults" && method === "GET") return sendJson(res, 200, { faults: ctx.faults.list() });
    if (path === "/__emulator/faults" && method === "DELETE") {
      ctx.faults.set([]);
      return sendJson(res, 200, { faults: [] });
    }
    if (path === "/__emulator/faults" && (method === "POST" || method === "PUT")) {
      const parsed = faultConfigSchema.safeParse(await readJson());
      if (!parsed.success) {
        return sendJson(res, 400, { error: "invalid_faults", issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
      }
      ctx.faults.set(parsed.data);
      return sendJson(res, 200, { faults: ctx.faults.list() });
    }
    if (path === "/__emulator/revoke-all" && method === "POST") {
      const email = emailOf(await readJson()) ?? ctx.demoUser.email;
      return sendJson(res, 200, { email, revoked: ctx.oauth.revokeAllForUser(email) });
    }
    if (path === "/__emulator/revoke-access" && method === "POST") {
      const body = await readJson();
      const customerId = field(body, "customerId");
      if (!customerId) return sendJson(res, 400, { error: "customerId is required" });
      const email = emailOf(body) ?? ctx.demoUser.email;
      return sendJson(res, 200, { email, customerId, revoked: changeAccess(ctx, () => ctx.dataSource.revokeAccess?.(email, customerId) ?? false) });
    }
    if (path === "/__emulator/unlink-client" && method === "POST") {
      const body = await readJson();
      const managerId = field(body, "managerId");
      const clientId = field(body, "clientId");
      if (!managerId || !clientId) return sendJson(res, 400, { error: "managerId and clientId are required" });
      return sendJson(res, 200, { managerId, clientId, unlinked: changeAccess(ctx, () => ctx.dataSource.unlinkClient?.(managerId, clientId) ?? false) });
    }
    if (path === "/__emulator/operations" && method === "GET") return sendJson(res, 200, ctx.operations.report());
    if (path === "/__emulator/operations" && method === "DELETE") {
      ctx.operations.reset();
      return sendJson(res, 200, ctx.operations.report());
    }
    if (path === "/__emulator/clock" && method === "GET") {
      return sendJson(res, 200, { now: (ctx.clock?.now() ?? new Date(ctx.now())).toISOString() });
    }
    if (path === "/__emulator/clock" && method === "POST") {
      const parsed = clockAdvanceSchema.safeParse(await readJson());
      if (!parsed.success || !ctx.clock) {
        const issues = parsed.success ? [{ path: "", message: "this emulator's clock cannot be moved" }] : parsed.error.issues;
        return sendJson(res, 400, { error: "invalid_clock", issues: issues.map((i) => ({ path: String(i.path ?? ""), message: i.message })) });
      }
      const { days = 0, hours = 0, minutes = 0, to } = parsed.data;
      const current = ctx.clock.now().getTime();
      const target = to ? Date.parse(to) : current + ((days * 24 + hours) * 60 + minutes) * 60_000;
      if (target < current) return sendJson(res, 400, { error: "invalid_clock", issues: [{ path: "to", message: "the clock only moves forward" }] });
      return sendJson(res, 200, { now: advanceClock(ctx, target - current).toISOString() });
    }
    if (path === "/__emulator/expire-tokens" && method === "POST") {
      const email = emailOf(await readJson());
      return sendJson(res, 200, { expired: ctx.oauth.expireAccessTokens(email) });
    }
  } catch (error) {
    if (error instanceof SyntaxError) return sendJson(res, 400, { error: "invalid_json", message: error.message });
    throw error;
  }
  sendHtml(res, 404, notFoundHtml(`${mountPrefix(req)}${path}`));
}
