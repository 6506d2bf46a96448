import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "../support/system-chromium";

/**
 * The Docker proof (`npm run test:docker`, scripts/docker/test-docker.ts builds the image first):
 * the image and compose.yaml run as a self-hoster runs them, a real browser on the host signs in.
 * One worker, in order: the specs start and stop containers that take both cores.
 */
export default defineConfig({
  testDir: ".",
  // Beside the other suites' results (ignored by git), not inside tests/.
  outputDir: "../../test-results/docker",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 30_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: { ...devices["Desktop Chrome"], trace: "retain-on-failure", launchOptions: chromiumLaunchOptions },
});
