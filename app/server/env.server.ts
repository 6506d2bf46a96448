import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_ADS_API_VERSION } from "./ads/api-versions.server";
import { ensurePrivateDir } from "./data-dir.server";
import { trustProxySchema } from "./http/client-ip.server";

const positiveInt = z.coerce.number().int().positive();

/** A 32-byte key given as base64 (44 chars) or hex (64 chars). */
const aesKey = z.string().transform((value, ctx) => {
  const buf = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (buf.length !== 32) {
    ctx.addIssue({ code: "custom", message: "must be 32 bytes, as base64 or 64 hex characters" });
    return z.NEVER;
  }
  return buf;
});

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Listen address; unset: 0.0.0.0, or 127.0.0.1 for `npm run dev` (server.ts decides, it knows which it is). */
  HOST: z.string().min(1).optional(),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, "must start with postgres://, postgresql:// or sqlite:")
    .optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: aesKey.optional(),
  ENCRYPTION_KEY_VERSION: positiveInt.max(255).default(1),
  /** Retired keys kept for decryption while data is re-encrypted: "1:<key>,2:<key>". */
  ENCRYPTION_OLD_KEYS: z.string().optional(),
  TRUST_PROXY: trustProxySchema.default(false),
  /** Outgoing mail (address confirmation): smtp://user:pass@host:587 or smtps://…; unset: the mail is written to the server log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must look like smtp://user:password@host:587 or smtps://…")
    .optional(),
  /** The From: of outgoing mail. Default: Ads AI Manager <no-reply@APP_URL's host>. */
  MAIL_FROM: z.string().min(3).optional(),
  /** Larger request bodies are refused with 413 before anything reads them. */
  MAX_BODY_BYTES: positiveInt.default(1_048_576),
  /** Memory for rendered pages reused while their data is unchanged (ADR 017); 0 turns the cache off. */
  DOCUMENT_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  AUTH_RATE_LIMIT_IP: positiveInt.default(30),
  AUTH_RATE_LIMIT_ACCOUNT: positiveInt.default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),
  /** Account mails (confirmation and reset links, notes) one address may receive per day. */
  AUTH_MAIL_DAILY_LIMIT: positiveInt.default(5),
  SESSION_TTL_DAYS: positiveInt.max(365).default(30),
  /** Requests per minute one personal access token may make (JSON API and /mcp together), counted in the database across instances. */
  ACCESS_TOKEN_RATE_LIMIT: positiveInt.max(100_000).default(60),
  /** A budget or bid change larger than this (percent, up or down) needs an explicit confirmation to apply. */
  CHANGE_CONFIRM_PERCENT: positiveInt.max(1000).default(50),
  /** On SIGTERM, how long in-flight requests and applies may take before the process exits anyway. Docker's own limit is 10 s. */
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt.max(600).default(8),
  /** Turns /metrics on (Prometheus text) for requests bearing `Authorization: Bearer <this>`; unset: /metrics does not exist. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),

  /**
   * Demo mode with several instances: the mounted emulator all of them call (one instance's
   * http://host:port/emulator), so they share one fake Google. Default: this server's own.
   */
  DEMO_EMULATOR_URL: z.url({ protocol: /^https?$/ }).optional(),

  /**
   * Demo mode (no GOOGLE_CLIENT_ID) on an APP_URL that is not this machine is refused unless this is
   * `public`: every visitor then shares one demo Google user and its demo account (ADR 020).
   */
  DEMO_MODE: z.enum(["public"], { error: "may only be public (demo mode on a non-loopback APP_URL; see the README)" }).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Optional: Google ignores it since the developer-token sunset (2026-09-09); sent when set, for older setups. */
  GOOGLE_ADS_DEVELOPER_TOKEN: z.string().min(1).optional(),
  GOOGLE_AUTHORIZATION_URL: z.url().optional(),
  GOOGLE_TOKEN_URL: z.url().optional(),
  GOOGLE_USERINFO_URL: z.url().optional(),
  GOOGLE_REVOKE_URL: z.url().optional(),
  GOOGLE_ADS_API_URL: z.url().optional(),
  GOOGLE_ADS_API_VERSION: z
    .string()
    .regex(/^v\d+$/, `must look like ${DEFAULT_ADS_API_VERSION}`)
    .default(DEFAULT_ADS_API_VERSION),
  /** Google Ads API operations this install may spend per rolling 24 hours (Explorer access 2,880; Basic 15,000). */
  GOOGLE_ADS_DAILY_OPERATIONS: positiveInt.default(2880),
  /** Share of that budget scheduled refreshes leave to people (applies, Sync now), in percent. */
  GOOGLE_ADS_RESERVE_PERCENT: z.coerce.number().int().min(0).max(90).default(10),
  /** Each connected account is refreshed this often, in minutes. */
  SYNC_INTERVAL_MINUTES: positiveInt.min(5).max(1440).default(60),
  /** Days of metrics a refresh re-reads (conversions arrive late), ending yesterday. */
  SYNC_LOOKBACK_DAYS: positiveInt.max(90).default(14),

  /** `<provider>:<model>`; split at the first colon so `openai-compatible:qwen3:8b` keeps its tag. */
  AI_MODEL: z
    .string()
    .regex(
      /^(openai|anthropic|google|openai-compatible):\S+$/,
      "must be <provider>:<model> with provider openai, anthropic, google or openai-compatible (e.g. openai:gpt-4.1-mini or openai-compatible:qwen3:8b)",
    )
    .optional(),
  AI_BASE_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://localhost:11434/v1" }).optional(),
  AI_API_KEY: z.string().min(1).optional(),
  /** Questions to the assistant per user per day (UTC), retries included; counted only when a model answers. */
  AI_DAILY_MESSAGE_LIMIT: positiveInt.default(200),
  /** Ad generations (and single-line regenerations) per user per day (UTC) written by the model. */
  AI_DAILY_AD_COPY_LIMIT: positiveInt.default(50),
  /** Tokens (input + output) the whole install may use per calendar month (UTC); then the analyst and templates answer. Unset: no budget. */
  AI_MONTHLY_TOKEN_BUDGET: positiveInt.optional(),
  /** The cap on what one model call may write. */
  AI_MAX_OUTPUT_TOKENS: positiveInt.max(100_000).default(2000),
});

/** Every variable the server reads (compose.yaml's are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export const AI_PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** The providers' own key variables, honoured when AI_API_KEY is not set. */
export const AI_PROVIDER_KEY_VARIABLES: Record<Exclude<AiProvider, "openai-compatible">, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
};

export interface AiConfig {
  provider: AiProvider;
  modelId: string;
  /** Overrides the provider's endpoint; required for openai-compatible. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
}

export type RawEnv = z.infer<typeof schema>;

export interface AppConfig extends Omit<RawEnv, "ENCRYPTION_KEY" | "ENCRYPTION_OLD_KEYS" | "SESSION_SECRET" | "APP_URL" | "AI_API_KEY"> {
  APP_URL: string;
  SESSION_SECRET: string;
  /** Key id → key; `encryptionKeyVersion` names the one used for new ciphertext. */
  encryptionKeys: Map<number, Buffer>;
  isProduction: boolean;
  /** No Google OAuth client configured: the emulator stands in for Google. */
  demoMode: boolean;
  /** The language model, or null when none is configured (the built-in analyst answers). */
  ai: AiConfig | null;
  google: {
    clientId: string;
    clientSecret: string;
    developerToken: string | undefined;
    authorizationUrl: string;
    tokenUrl: string;
    userinfoUrl: string;
    revokeUrl: string;
    adsApiUrl: string;
    adsApiVersion: string;
  };
}

export class ConfigError extends Error {
  name = "ConfigError";
}

export const EMULATOR_MOUNT_PATH = "/emulator";
export const DEMO_CLIENT_ID = "ads-ai-manager-demo.apps.googleusercontent.com";

interface StoredSecrets {
  sessionSecret: string;
  encryptionKey: string;
}

/**
 * Secrets a fresh install needs are generated once and kept beside the data, so
 * `npm start` works with no configuration and sessions survive restarts.
 */
function loadOrCreateSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, "secrets.json");
  try {
    const parsed = z.object({ sessionSecret: z.string().min(32), encryptionKey: z.string().min(40) }).parse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new ConfigError(`${file} is unreadable or malformed; fix or delete it (${(error as Error).message})`);
    }
  }
  ensurePrivateDir(dataDir);
  const secrets: StoredSecrets = {
    sessionSecret: randomBytes(32).toString("base64url"),
    encryptionKey: randomBytes(32).toString("base64"),
  };
  // wx: two processes starting together must not overwrite each other's keys.
  try {
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateSecrets(dataDir);
    throw error;
  }
  return secrets;
}

/**
 * The mounted demo emulator's OAuth client secret (issue 25 point 6: it was
 * the public constant "demo-secret", so anyone could get tokens from it):
 * derived from the install's session secret, generated in DATA_DIR or given
 * as SESSION_SECRET. So it is this install's own, and instances that share a
 * SESSION_SECRET (and one instance's emulator, DEMO_EMULATOR_URL) share it.
 */
function demoClientSecret(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("ads-ai-manager demo OAuth client secret").digest("base64url");
}

/** An address only this machine reaches: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "::1";
}

function parseOldKeys(value: string | undefined): Map<number, Buffer> {
  const keys = new Map<number, Buffer>();
  if (!value) return keys;
  for (const part of value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,3}):(.+)$/.exec(part);
    const parsed = match ? aesKey.safeParse(match[2]) : undefined;
    if (!match || !parsed?.success) {
      throw new ConfigError("ENCRYPTION_OLD_KEYS: expected a comma-separated list of <version>:<32-byte key>");
    }
    keys.set(Number(match[1]), parsed.data);
  }
  return keys;
}

function configFail(variable: string, message: string): never {
  throw new ConfigError(`Invalid configuration:\n  ${variable}: ${message}`);
}

/**
 * user:password@ in AI_BASE_URL: over plain http it would travel in clear, and
 * fetch refuses such URLs anyway (with an error that repeats the URL, password
 * and all), so it would only ever leak. The key belongs in AI_API_KEY.
 */
function refuseCredentialsInUrl(baseUrl: string) {
  const url = new URL(baseUrl);
  if (!url.username && !url.password) return;
  if (url.protocol === "http:") {
    configFail("AI_BASE_URL", "contains credentials (user:password@) over plain http, where anyone on the way could read them; remove them and set AI_API_KEY");
  }
  configFail("AI_BASE_URL", "contains credentials (user:password@), which requests cannot carry; remove them and set AI_API_KEY");
}

function parseAiConfig(raw: RawEnv, env: NodeJS.ProcessEnv): AiConfig | null {
  if (!raw.AI_MODEL) {
    if (raw.AI_BASE_URL) configFail("AI_BASE_URL", "set AI_MODEL too (e.g. AI_MODEL=openai-compatible:qwen3:8b)");
    return null;
  }
  const colon = raw.AI_MODEL.indexOf(":");
  const provider = raw.AI_MODEL.slice(0, colon) as AiProvider;
  const modelId = raw.AI_MODEL.slice(colon + 1);
  const baseUrl = raw.AI_BASE_URL?.replace(/\/+$/, "");
  if (baseUrl) refuseCredentialsInUrl(baseUrl);
  if (provider === "openai-compatible") {
    if (!baseUrl) configFail("AI_BASE_URL", "required for AI_MODEL=openai-compatible:… (e.g. http://localhost:11434/v1)");
    return { provider, modelId, baseUrl, apiKey: raw.AI_API_KEY };
  }
  const ownVariable = AI_PROVIDER_KEY_VARIABLES[provider];
  const apiKey = raw.AI_API_KEY ?? (env[ownVariable] || undefined);
  if (!apiKey) configFail("AI_API_KEY", `required for AI_MODEL=${provider}:… (or set ${ownVariable})`);
  return { provider, modelId, baseUrl, apiKey };
}

/** This server as it reaches itself: its listen address, on loopback when it listens on every interface. */
function listenUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, "");
  const own = bare === "0.0.0.0" ? "127.0.0.1" : bare === "::" ? "::1" : bare;
  return `http://${own.includes(":") ? `[${own}]` : own}:${port}`;
}

export function parseConfig(env: NodeJS.ProcessEnv): AppConfig {
  // Empty strings in .env files or compose files mean "unset".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const raw = result.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const demoMode = !raw.GOOGLE_CLIENT_ID;
  const needsStored = !raw.SESSION_SECRET || !raw.ENCRYPTION_KEY;
  const stored = needsStored ? loadOrCreateSecrets(dataDir) : undefined;
  const appUrl = (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, "");

  const encryptionKeys = parseOldKeys(raw.ENCRYPTION_OLD_KEYS);
  const currentKey = raw.ENCRYPTION_KEY ?? Buffer.from(stored!.encryptionKey, "base64");
  encryptionKeys.set(raw.ENCRYPTION_KEY_VERSION, currentKey);

  if (!demoMode && !raw.GOOGLE_CLIENT_SECRET) {
    throw new ConfigError("Invalid configuration:\n  GOOGLE_CLIENT_SECRET: required when GOOGLE_CLIENT_ID is set");
  }
  if (demoMode && raw.DEMO_MODE !== "public" && !isLoopbackUrl(appUrl)) {
    configFail(
      "APP_URL",
      `${appUrl} is not this machine, and without GOOGLE_CLIENT_ID the app runs in demo mode, where everyone who can reach it signs in as one shared demo Google user. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to use Google, leave APP_URL unset (or http://localhost:PORT) to try the demo on this machine, or set DEMO_MODE=public to offer the shared demo on purpose.`,
    );
  }
  // The browser reaches the mounted emulator at APP_URL; the server's own calls go to where it
  // listens. Behind a port mapping or a proxy (Docker's -p 8080:3000), APP_URL is not this server.
  const browserEmulator = `${appUrl}${EMULATOR_MOUNT_PATH}`;
  const serverEmulator = (raw.DEMO_EMULATOR_URL ?? `${listenUrl(raw.HOST ?? "127.0.0.1", raw.PORT)}${EMULATOR_MOUNT_PATH}`).replace(/\/+$/, "");
  const google = {
    clientId: raw.GOOGLE_CLIENT_ID ?? DEMO_CLIENT_ID,
    clientSecret: raw.GOOGLE_CLIENT_SECRET ?? demoClientSecret(raw.SESSION_SECRET ?? stored!.sessionSecret),
    developerToken: raw.GOOGLE_ADS_DEVELOPER_TOKEN,
    authorizationUrl: raw.GOOGLE_AUTHORIZATION_URL ?? (demoMode ? `${browserEmulator}/o/oauth2/v2/auth` : "https://accounts.google.com/o/oauth2/v2/auth"),
    tokenUrl: raw.GOOGLE_TOKEN_URL ?? (demoMode ? `${serverEmulator}/token` : "https://oauth2.googleapis.com/token"),
    userinfoUrl: raw.GOOGLE_USERINFO_URL ?? (demoMode ? `${serverEmulator}/v1/userinfo` : "https://openidconnect.googleapis.com/v1/userinfo"),
    revokeUrl: raw.GOOGLE_REVOKE_URL ?? (demoMode ? `${serverEmulator}/revoke` : "https://oauth2.googleapis.com/revoke"),
    adsApiUrl: (raw.GOOGLE_ADS_API_URL ?? (demoMode ? serverEmulator : "https://googleads.googleapis.com")).replace(/\/+$/, ""),
    adsApiVersion: raw.GOOGLE_ADS_API_VERSION,
  };

  const ai = parseAiConfig(raw, cleaned);

  const { ENCRYPTION_KEY: _k, ENCRYPTION_OLD_KEYS: _o, SESSION_SECRET: _s, APP_URL: _a, AI_API_KEY: _ai, ...rest } = raw;
  return {
    ...rest,
    DATA_DIR: dataDir,
    APP_URL: appUrl,
    SESSION_SECRET: raw.SESSION_SECRET ?? stored!.sessionSecret,
    encryptionKeys,
    isProduction: raw.NODE_ENV === "production",
    demoMode,
    ai,
    google,
  };
}

let config: AppConfig | undefined;

/** The process-wide configuration, parsed once. */
export function getConfig(): AppConfig {
  config ??= parseConfig(process.env);
  return config;
}

/**
 * A configuration parsed elsewhere and passed through a worker thread's
 * structured clone, which turns Buffers into plain Uint8Arrays.
 */
export function adoptConfig(cloned: AppConfig) {
  config = { ...cloned, encryptionKeys: new Map([...cloned.encryptionKeys].map(([id, key]) => [id, Buffer.from(key)])) };
}

/** For tests that need a different configuration. */
export function setConfigForTests(next: AppConfig | undefined) {
  config = next;
}
