import { versionSunsetWarning } from "./ads/api-versions.server";
import { stopSyncs } from "./ads/sync.server";
import { CALLBACK_PATH } from "./auth/google-oauth.server";
import { closeDb, dialectOf, getDb, migrateToLatest, pingDb, sqliteFileOf } from "./db/db.server";
import { claimSqliteInstance } from "./db/sqlite-instance-lock.server";
import { jobsReadiness, startJobs, stopJobs } from "./jobs/jobs.server";
import "./jobs/catalog.server";
import { collectProcessMetrics, observeHttp, renderMetrics } from "./metrics/metrics.server";
import { EMULATOR_MOUNT_PATH, getConfig, type AppConfig } from "./env.server";
import { baseSecurityHeaders, isCrossSiteRequest } from "./http/security.server";
import { checkReadiness, databaseChecks } from "./lifecycle/readiness.server";
import { log } from "./log.server";

/**
 * Called once by server.ts before it listens: validates configuration (a bad
 * value stops the server with a message naming the variable), migrates the
 * database, and hands the HTTP layer what it needs.
 */
export async function boot() {
  const config = getConfig();
  warnAboutPublicDemo(config);
  warnAboutApiVersion(config);
  // SQLite serves one instance (its jobs run in process): a second process on the same file stops here.
  const sqliteFile = dialectOf(config.DATABASE_URL) === "sqlite" ? sqliteFileOf({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }) : null;
  const releaseInstance = sqliteFile && sqliteFile !== ":memory:" ? claimSqliteInstance(sqliteFile) : () => {};
  await migrateToLatest(getDb());
  // Background work runs as jobs from here on: settling changes left mid-apply, mail, scheduled
  // refreshes (the sync scheduler's tick, every minute across the install), engine runs, …
  await startJobs();
  if (config.METRICS_TOKEN) collectProcessMetrics();
  return {
    port: config.PORT,
    /** Unset: server.ts decides (loopback for `npm run dev`). */
    host: config.HOST,
    appUrl: config.APP_URL,
    trustProxy: config.TRUST_PROXY,
    maxBodyBytes: config.MAX_BODY_BYTES,
    demoMode: config.demoMode,
    emulatorMountPath: EMULATOR_MOUNT_PATH,
    /** The only OAuth client the mounted demo emulator serves. */
    demoClient: { id: config.google.clientId, secret: config.google.clientSecret, redirectUri: `${config.APP_URL}${CALLBACK_PATH}` },
    databaseKind: config.DATABASE_URL?.startsWith("postgres") ? "postgres" : "sqlite",
    dataDir: config.DATA_DIR,
    securityHeaders: baseSecurityHeaders(config.APP_URL),
    isCrossSite: (req: Parameters<typeof isCrossSiteRequest>[0]) => isCrossSiteRequest(req, config.APP_URL),
    health: () => pingDb(),
    /** /readyz: database reachable, migrations applied, the job engine started and polling. */
    readiness: () => checkReadiness([...databaseChecks(getDb()), { name: "jobs", run: jobsReadiness }]),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    /** /metrics answers only requests bearing this token; null: /metrics is off. */
    metricsToken: config.METRICS_TOKEN ?? null,
    metrics: { observeHttp, render: renderMetrics },
    shutdown: async () => {
      // Drain has already waited for requests: running jobs get a moment, then are handed back (retried).
      await stopJobs(1_000);
      await stopSyncs();
      await closeDb();
      releaseInstance();
    },
  };
}

export type BootResult = Awaited<ReturnType<typeof boot>>;

/** DEMO_MODE=public says what it means at every start (ADR 020). */
export function warnAboutPublicDemo(config: Pick<AppConfig, "demoMode" | "DEMO_MODE" | "APP_URL">) {
  if (config.DEMO_MODE !== "public") return;
  if (!config.demoMode) {
    log.warn("DEMO_MODE=public has no effect: GOOGLE_CLIENT_ID is set, so Google itself signs people in.");
    return;
  }
  log.warn(
    `DEMO_MODE=public: the demo is offered to everyone who can reach ${config.APP_URL}. "Sign in with Google Ads" signs every visitor in as the same ` +
      "demo Google user, so they are all one app user: they share its chats, change sets and AI budget, and all change the same demo account " +
      "(no real Google account is involved). Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to use Google instead.",
  );
}

/** A configured Google Ads API version within 90 days of its published sunset (or past it) says so at every start. */
export function warnAboutApiVersion(config: Pick<AppConfig, "google">, now: Date = new Date()) {
  const warning = versionSunsetWarning(config.google.adsApiVersion, now);
  if (warning) log.warn(warning);
}
