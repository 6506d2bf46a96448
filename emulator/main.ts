/**
 * The emulator as a standalone server: `npx tsx emulator/main.ts`.
 *
 *   EMULATOR_PORT              default 4010 (0 = any free port)
 *   EMULATOR_HOST              default 127.0.0.1
 *   EMULATOR_CLIENT_ID         fixed OAuth client; unset = accept any client
 *   EMULATOR_CLIENT_SECRET     its secret (with EMULATOR_CLIENT_ID)
 *   EMULATOR_ACCESS_TOKEN_TTL  access-token lifetime in seconds, default 3599
 *   EMULATOR_FAULTS            JSON fault rules, e.g. [{"match":"searchStream","kind":"quota","times":2}]
 *   EMULATOR_ENABLE_ADMIN      "true" to serve /__emulator/* test hooks
 *   EMULATOR_PUBLIC_URL        base URL to advertise (issuer, endpoints) when behind a proxy
 *   EMULATOR_LOG_REQUESTS      "true" to log one line per request (path only, never the query)
 *   EMULATOR_FIXTURE           JSON file of accounts to serve instead of the demo (emulator/README.md)
 *   EMULATOR_TODAY             "YYYY-MM-DD": pins the accounts' today (data ends the day before); moves only
 *                              with POST /__emulator/clock. Unset: the real clock.
 *   EMULATOR_DAILY_OPERATIONS  operations per rolling 24 h before Google's daily-cap error (Explorer access:
 *                              2880). Unset: counted (GET /__emulator/operations), never refused.
 *   EMULATOR_ACCESS_LEVEL      the Cloud project's access level: test, explorer, basic, standard (default). With
 *                              test, calls on non-test accounts get Google's CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION
 *                              (v25+) or DEVELOPER_TOKEN_NOT_APPROVED (older versions).
 */
import http from "node:http";
import { z } from "zod";
import { createAdsDataSource, createDemoStore, createMutateHandler, DEMO_USER_EMAIL, loadFixtureFile, type AdsStore } from "./ads";
import { emulatorAccessLevel, emulatorDailyOperations, emulatorToday } from "./env";
import { parseFaultsEnv } from "./faults";
import { createEmulator } from "./server";

const envSchema = z.object({
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  EMULATOR_HOST: z.string().min(1).default("127.0.0.1"),
  EMULATOR_CLIENT_ID: z.string().min(1).optional(),
  EMULATOR_CLIENT_SECRET: z.string().min(1).optional(),
  EMULATOR_ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(3599),
  EMULATOR_FAULTS: z.string().optional(),
  EMULATOR_ENABLE_ADMIN: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  EMULATOR_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  EMULATOR_LOG_REQUESTS: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  EMULATOR_FIXTURE: z.string().min(1).optional(),
  EMULATOR_TODAY: emulatorToday,
  EMULATOR_DAILY_OPERATIONS: emulatorDailyOperations,
  // The Cloud project's access level; test: only test accounts may be called (Google's authorization errors).
  EMULATOR_ACCESS_LEVEL: emulatorAccessLevel,
});

function loadEnv() {
  // Empty values in .env files mean "unset".
  const cleaned = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid emulator configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, faults: parseFaultsEnv(result.data.EMULATOR_FAULTS) };
}

function log(level: "info" | "warn" | "error" | "debug", message: string, meta?: Record<string, unknown>) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...meta });
  (level === "error" || level === "warn" ? console.error : console.log)(line);
}

function main() {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  let store: AdsStore;
  try {
    // A bad fixture stops here with the file and every bad field's path.
    const today = env.EMULATOR_TODAY;
    store = env.EMULATOR_FIXTURE ? loadFixtureFile(env.EMULATOR_FIXTURE, { today }) : createDemoStore({ today });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    mutate: createMutateHandler(store),
    demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
    clientId: env.EMULATOR_CLIENT_ID,
    clientSecret: env.EMULATOR_CLIENT_SECRET,
    accessTokenTtlSeconds: env.EMULATOR_ACCESS_TOKEN_TTL,
    faults: env.faults,
    dailyOperations: env.EMULATOR_DAILY_OPERATIONS,
    accessLevel: env.EMULATOR_ACCESS_LEVEL,
    clock: store.clock,
    enableAdmin: env.EMULATOR_ENABLE_ADMIN,
    publicBaseUrl: env.EMULATOR_PUBLIC_URL,
    logger: {
      ...(env.EMULATOR_LOG_REQUESTS ? { debug: (m: string, meta?: Record<string, unknown>) => log("debug", m, meta) } : {}),
      info: (m, meta) => log("info", m, meta),
      warn: (m, meta) => log("warn", m, meta),
      error: (m, meta) => log("error", m, meta),
    },
  });

  const server = http.createServer((req, res) => emulator.handler(req, res));
  server.listen(env.EMULATOR_PORT, env.EMULATOR_HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.EMULATOR_PORT;
    const host = env.EMULATOR_HOST === "0.0.0.0" || env.EMULATOR_HOST === "::" ? "localhost" : env.EMULATOR_HOST;
    const url = env.EMULATOR_PUBLIC_URL ?? `http://${host}:${port}`;
    console.log(`Google emulator listening on ${url}`);
    log("info", "emulator started", {
      url,
      fixedClient: env.EMULATOR_CLIENT_ID ?? null,
      faults: env.faults.length,
      admin: env.EMULATOR_ENABLE_ADMIN,
      accounts: env.EMULATOR_FIXTURE ?? "demo",
    });
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log("info", `received ${signal}, shutting down`);
    const force = setTimeout(() => process.exit(1), 5_000);
    force.unref();
    void emulator.close().then(() => {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main();
