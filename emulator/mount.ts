import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { createAdsDataSource, createDemoStore, createMutateHandler, DEMO_USER_EMAIL, loadFixtureFile } from "./ads";
import { emulatorAccessLevel, emulatorDailyOperations, emulatorToday } from "./env";
import { parseFaultsEnv } from "./faults";
import { fileOAuthPersistence, journaledMutate, prepareStateDir } from "./persistence";
import { createEmulator } from "./server";

const flag = z
  .enum(["true", "false", "1", "0"])
  .default("false")
  .transform((v) => v === "true" || v === "1");

const mountEnv = z.object({
  EMULATOR_ENABLE_ADMIN: flag,
  EMULATOR_FAULTS: z.string().optional(),
  EMULATOR_ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(3599),
  // A third demo account with one campaign of this many keywords (2 ad groups), for paging tests.
  EMULATOR_LARGE_ACCOUNT_KEYWORDS: z.coerce.number().int().min(2).max(200_000).optional(),
  // Accounts from a fixture file instead of the demo (emulator/README.md).
  EMULATOR_FIXTURE: z.string().min(1).optional(),
  // Pins the accounts' today (tests); POST /__emulator/clock moves it.
  EMULATOR_TODAY: emulatorToday,
  // Google's daily operations cap (Explorer access: 2880); unset: counted, never refused.
  EMULATOR_DAILY_OPERATIONS: emulatorDailyOperations,
  // The Cloud project's access level; test: only test accounts may be called (Google's authorization errors).
  EMULATOR_ACCESS_LEVEL: emulatorAccessLevel,
});

export interface DemoMountOptions {
  publicBaseUrl: string;
  /**
   * The app's own OAuth client. Mounted on the app's origin, the emulator
   * serves nobody else: other client ids, a wrong secret, any redirect URI but
   * the app's callback, and requests without PKCE are refused, so a link cannot
   * use the demo sign-in to send codes to another site.
   */
  client: { id: string; secret: string; redirectUri: string };
  /** DATA_DIR/emulator: the demo account's changes and the grants survive restarts. Unset: memory only. */
  stateDir?: string;
}

/**
 * The emulator as the app's server mounts it in demo mode (no Google client
 * configured): a seeded demo account behind Google's real protocol. The same
 * EMULATOR_* variables as the standalone emulator switch its test hooks.
 */
export function mountDemoEmulator(opts: DemoMountOptions) {
  const cleaned = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = mountEnv.safeParse(cleaned);
  if (!parsed.success) {
    throw new Error(`Invalid emulator configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const env = parsed.data;
  const large = env.EMULATOR_LARGE_ACCOUNT_KEYWORDS;
  const today = env.EMULATOR_TODAY;
  const store = env.EMULATOR_FIXTURE
    ? loadFixtureFile(env.EMULATOR_FIXTURE, { today })
    : createDemoStore({ today, ...(large ? { largeAccount: { adGroups: 2, keywordsPerAdGroup: Math.ceil(large / 2) } } : {}) });
  let pinnedNow: Date | undefined;
  let mutate = createMutateHandler(store, { now: () => pinnedNow ?? store.now() });
  if (opts.stateDir) {
    prepareStateDir(opts.stateDir);
    mutate = journaledMutate(opts.stateDir, mutate, (at) => (pinnedNow = at));
  }
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    mutate,
    demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
    publicBaseUrl: opts.publicBaseUrl,
    clientId: opts.client.id,
    clientSecret: opts.client.secret,
    redirectUris: [opts.client.redirectUri],
    requirePkce: true,
    oauthPersistence: opts.stateDir ? fileOAuthPersistence(opts.stateDir) : undefined,
    enableAdmin: env.EMULATOR_ENABLE_ADMIN,
    faults: parseFaultsEnv(env.EMULATOR_FAULTS),
    dailyOperations: env.EMULATOR_DAILY_OPERATIONS,
    accessLevel: env.EMULATOR_ACCESS_LEVEL,
    clock: store.clock,
    accessTokenTtlSeconds: env.EMULATOR_ACCESS_TOKEN_TTL,
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => emulator.handler(req, res, next);
}
