import { randomBytes } from "node:crypto";
import { test, expect } from "@playwright/test";
import type { RunOptions } from "../../scripts/docker/shell";
import { attachLogs, becomesHealthy, freePort, getDocker, IMAGE, seesDemoCampaigns, signInThroughDemo } from "./support";

/**
 * compose.yaml as docs/operations.md's "Run more than one instance" runs it: PostgreSQL, two app instances
 * and Caddy in front, with the secrets a .env would hold. Sign-ins go through the proxy until
 * both instances have completed one.
 */
test.describe.configure({ mode: "serial" });

const project = `adsdockertest${process.pid}`;
const SERVICES = ["postgres", "app1", "app2", "proxy"] as const;
let baseUrl: string;
let env: NodeJS.ProcessEnv;
const containers: Record<string, string> = {};

async function compose(args: string[], opts: RunOptions = {}) {
  return (await getDocker()).compose(["--project-name", project, "--file", "compose.yaml", ...args], { env, ...opts });
}

test.beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  env = {
    ...process.env,
    APP_IMAGE: IMAGE,
    POSTGRES_PASSWORD: randomBytes(18).toString("hex"),
    SESSION_SECRET: randomBytes(32).toString("base64"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    APP_URL: baseUrl,
    PROXY_HTTP: `127.0.0.1:${port}`,
    PROXY_HTTPS: `127.0.0.1:${await freePort()}`,
  };
});

// Playwright reads the fixtures from the first parameter's pattern: none are needed here.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachLogs(testInfo, Object.values(containers)));

test.afterAll(async () => {
  await compose(["down", "--volumes", "--remove-orphans", "--timeout", "10"], { allowFail: true });
});

test("the file is valid for Docker Compose", async () => {
  const config = await compose(["config", "--quiet"], { allowFail: true });
  expect(config.stderr).toBe("");
  expect(config.code).toBe(0);
});

test("PostgreSQL, both app instances and the proxy come up healthy", async () => {
  // Compose starts each service once the one before is healthy: minutes on a busy 2-core machine.
  test.setTimeout(480_000);
  await compose(["up", "--detach", "--no-build"]);
  for (const service of SERVICES) {
    containers[service] = (await compose(["ps", "--quiet", service])).stdout.trim();
    expect(containers[service], service).not.toBe("");
  }
  for (const service of SERVICES) await becomesHealthy(containers[service]);
});

/** How many Google sign-in callbacks an instance has answered (its request log). */
async function callbacksServed(service: "app1" | "app2"): Promise<number> {
  const logs = await (await getDocker()).run(["logs", containers[service]]);
  return logs.stdout.split("\n").filter((line) => line.includes('"path":"/api/v1/auth/google/callback"')).length;
}

test("a sign-in through the proxy works on both instances", async ({ browser }) => {
  const served = { app1: 0, app2: 0 };
  for (let attempt = 1; attempt <= 8 && (served.app1 === 0 || served.app2 === 0); attempt++) {
    const before = { app1: await callbacksServed("app1"), app2: await callbacksServed("app2") };
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughDemo(page, baseUrl);
    if (attempt === 1) await seesDemoCampaigns(page, baseUrl);
    await context.close();
    for (const service of ["app1", "app2"] as const) served[service] += (await callbacksServed(service)) - before[service];
  }
  expect(served.app1, "sign-ins completed by app1").toBeGreaterThan(0);
  expect(served.app2, "sign-ins completed by app2").toBeGreaterThan(0);
});
