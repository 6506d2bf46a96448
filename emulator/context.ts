import type { AdsDataSource } from "./ads/contract";
import type { AccessLevel } from "./env";
import type { FaultEngine } from "./faults";
import type { Delays } from "./http/util";
import type { SigningKey } from "./oauth/jwt";
import type { DemoUser } from "./oauth/pages";
import type { OAuthState } from "./oauth/state";
import type { MutateHandler } from "./rest/mutate";
import type { StreamCache } from "./rest/stream-cache";
import type { OperationsMeter } from "./quota";

/** Anything with console-like methods; every method optional so a partial logger works. */
export interface EmulatorLogger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
  error?(message: string, meta?: Record<string, unknown>): void;
}

/** What every route needs; built once per emulator by createEmulator. */
export interface EmulatorContext {
  dataSource: AdsDataSource;
  demoUser: DemoUser;
  clientId?: string;
  clientSecret?: string;
  redirectUris?: ReadonlySet<string>;
  requirePkce: boolean;
  accessTokenTtlSeconds: number;
  publicBaseUrl?: string;
  sunsetVersions: ReadonlySet<string>;
  accessLevel: AccessLevel;
  mutate?: MutateHandler;
  now: () => number;
  oauth: OAuthState;
  key: SigningKey;
  faults: FaultEngine;
  delays: Delays;
  log: EmulatorLogger;
  /** searchStream answers rendered ahead (EmulatorOptions.streamCache). */
  streamCache?: StreamCache;
  /** Operations counted as Google counts them, and the daily cap (quota.ts). */
  operations: OperationsMeter;
  /** The Ads data's clock (EmulatorOptions.clock); the OAuth side keeps `now`. */
  clock?: EmulatorClock;
}

/** The Ads data's clock: what "today" is for the accounts, and when changes happen. Tests move it forward. */
export interface EmulatorClock {
  now(): Date;
  /** Moves the clock forward by `ms`; new days of metrics appear as days pass. */
  advance(ms: number): void;
}
