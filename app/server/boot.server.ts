import { startSyncScheduler, stopSyncScheduler, stopSyncs } from "./ads/sync.server";
import { CALLBACK_PATH } from "./auth/google-oauth.server";
import { startSettling, stopSettling } from "./changes/settler.server";
import { closeDb, getDb, migrateToLatest, pingDb } from "./db/db.server";
import { EMULATOR_MOUNT_PATH, getConfig } from "./env.server";
import { baseSecurityHeaders, isCrossSiteRequest } from "./http/security.server";
import { checkReadiness, databaseChecks } from "./lifecycle/readiness.server";

/**
 * Called once by server.ts before it listens: validates configuration (a bad
 * value stops the server with a message naming the variable), migrates the
 * database, and hands the HTTP layer what it needs.
 */
export async function boot() {
  const config = getConfig();
  await migrateToLatest(getDb());
  // Changes a previous process left mid-apply are settled against Google's live
  // state, in the background and retried until Google answers (startup must not
  // hang on it, and an outage at start must not leave them "applying" for good).
  startSettling();
  // Accounts are refreshed on a schedule, within the Google Ads budget (pages never start a sync).
  // TEMPORARY driver: the job queue's cron replaces it once app/server/jobs is started at boot.
  startSyncScheduler();
  return {
    port: config.PORT,
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
    /** /readyz: database reachable, migrations applied, background work started. */
    readiness: () => checkReadiness(databaseChecks(getDb())),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    shutdown: async () => {
      stopSettling();
      stopSyncScheduler();
      await stopSyncs();
      await closeDb();
    },
  };
}

export type BootResult = Awaited<ReturnType<typeof boot>>;
