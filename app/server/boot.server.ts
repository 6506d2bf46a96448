import { stopSyncs } from "./ads/sync.server";
import { CALLBACK_PATH } from "./auth/google-oauth.server";
import { startSettling, stopSettling } from "./changes/settler.server";
import { closeDb, getDb, migrateToLatest, pingDb } from "./db/db.server";
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
  await migrateToLatest(getDb());
  // Changes a previous process left mid-apply are settled against Google's live
  // state, in the background and retried until Google answers (startup must not
  // hang on it, and an outage at start must not leave them "applying" for good).
  startSettling();
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
    /** /readyz: database reachable, migrations applied, background work started. */
    readiness: () => checkReadiness(databaseChecks(getDb())),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    shutdown: async () => {
      stopSettling();
      await stopSyncs();
      await closeDb();
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
