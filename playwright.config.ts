import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/support/system-chromium";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://localhost:${PORT}`;
// Each run starts from an empty data directory, so no test depends on leftovers.
// Exported to the specs through the environment (impact.spec.ts writes the past into the main server's database).
const DATA_DIR = (process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `ads-e2e-${process.pid}`));

// A second app server whose AI_MODEL points at a fake OpenAI-compatible server
// (tests/fake-llm) for the assistant's specs; the main server stays model-less,
// so the seed-state specs hold.
const MODEL_PORT = PORT + 1;
const MODEL_BASE_URL = `http://localhost:${MODEL_PORT}`;
const FAKE_LLM_PORT = PORT + 2;
const MODEL_DATA_DIR = `${DATA_DIR}-model`;
// Test hook of the main server (app/server/optimizer/in-flight.server.ts): an engine run of an account
// waits while a file named after it exists here, so a spec can look at "Analysing your data…".
// Exported to the specs through the environment (the config is loaded by every worker).
const ENGINE_HOLD_DIR = (process.env.E2E_ENGINE_HOLD_DIR ??= `${DATA_DIR}-engine-holds`);
// Test hook of the second server (app/server/test-hold.server.ts): a first sync's detail import (keyword,
// ad and search-term performance) waits while a file named after the account exists here, so
// first-sync.spec.ts looks at the screens between the two stages. On that server because no other spec
// syncs the small demo account there: its first sync is the spec's own.
const DETAIL_HOLD_DIR = (process.env.E2E_DETAIL_HOLD_DIR ??= `${DATA_DIR}-detail-holds`);

// The bearer token of the main server's /metrics (operations.spec.ts reads it from the environment).
const E2E_METRICS_TOKEN = (process.env.E2E_METRICS_TOKEN ??= "e2e-metrics-token-0123456789");

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // One worker: a demo sync briefly blocks the single server process, and parallel
  // specs would see it as timeouts.
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] }, testIgnore: /revocation\.spec\.ts|-model\.spec\.ts|first-sync\.spec\.ts/ },
    // The assistant and the ad generator with a (fake) model configured: its own server.
    { name: "assistant-model", use: { ...devices["Desktop Chrome"], baseURL: MODEL_BASE_URL }, testMatch: /-model\.spec\.ts/ },
    // The staged first sync of an account no other spec syncs on that server (see DETAIL_HOLD_DIR).
    { name: "first-sync", use: { ...devices["Desktop Chrome"], baseURL: MODEL_BASE_URL }, testMatch: /first-sync\.spec\.ts/ },
    // Revokes the shared demo Google user's grants: only once everything else is done.
    { name: "revocation", use: { ...devices["Desktop Chrome"] }, testMatch: /revocation\.spec\.ts/, dependencies: ["chromium"] },
  ],
  webServer: [
    {
      command: `rm -rf "${DATA_DIR}" && node scripts/ensure-build.mjs && node build/server.js`,
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(PORT),
        APP_URL: BASE_URL,
        DATA_DIR,
        // The suite signs in many users from one address; the limits have their own tests.
        AUTH_RATE_LIMIT_IP: "100000",
        AUTH_RATE_LIMIT_ACCOUNT: "100000",
        LOG_LEVEL: "warn",
        // Test hooks of the mounted emulator (e.g. "the user revoked access at Google").
        EMULATOR_ENABLE_ADMIN: "true",
        // A third demo account whose one campaign has 1,200 keywords (daily-use.spec.ts pages and sorts it).
        EMULATOR_LARGE_ACCOUNT_KEYWORDS: "1200",
        TEST_HOLD_ENGINE_DIR: ENGINE_HOLD_DIR,
        // /metrics on for this server (operations.spec.ts); the second server keeps it off.
        METRICS_TOKEN: E2E_METRICS_TOKEN,
      },
    },
    {
      command: `node_modules/.bin/tsx tests/fake-llm/main.ts`,
      port: FAKE_LLM_PORT,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      env: { FAKE_LLM_PORT: String(FAKE_LLM_PORT) },
    },
    {
      command: `rm -rf "${MODEL_DATA_DIR}" && node scripts/ensure-build.mjs && node build/server.js`,
      url: `${MODEL_BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(MODEL_PORT),
        APP_URL: MODEL_BASE_URL,
        DATA_DIR: MODEL_DATA_DIR,
        AUTH_RATE_LIMIT_IP: "100000",
        AUTH_RATE_LIMIT_ACCOUNT: "100000",
        LOG_LEVEL: "warn",
        AI_MODEL: "openai-compatible:fake-model",
        AI_BASE_URL: `http://127.0.0.1:${FAKE_LLM_PORT}/v1`,
        TEST_HOLD_DETAIL_DIR: DETAIL_HOLD_DIR,
      },
    },
  ],
});
