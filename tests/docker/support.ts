import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { ensureDocker, type Docker } from "../../scripts/docker/docker";
import { waitFor } from "../../scripts/docker/shell";
import { campaignNames, RICH_ACCOUNT_NAME } from "../e2e/ads-fixtures";

/** The image `npm run test:docker` built from the project's Dockerfile. */
export const IMAGE = process.env.ADS_DOCKER_IMAGE ?? "ads-ai-manager:test";

let docker: Promise<Docker> | undefined;
export function getDocker(): Promise<Docker> {
  docker ??= ensureDocker();
  return docker;
}

/** A port nothing listens on right now, for a container to publish on this machine. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function inspect(container: string, format: string): Promise<string> {
  return (await (await getDocker()).run(["inspect", "--format", format, container])).stdout.trim();
}

/** Waits for Docker's own verdict on the container's health check. */
export async function becomesHealthy(container: string, timeoutMs = 180_000): Promise<void> {
  let last = "";
  await waitFor(
    `${container} to be healthy`,
    async () => {
      const status = await inspect(container, "{{.State.Health.Status}}");
      last = await inspect(container, "{{json .State.Health.Log}}");
      if (status === "unhealthy") throw new Error(`${container} is unhealthy: ${last}`);
      return status === "healthy" ? true : undefined;
    },
    timeoutMs,
    1000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\nLast checks: ${last}`);
  });
}

/** Waits until the server answers /healthz at baseUrl. */
export async function answers(baseUrl: string, timeoutMs = 120_000): Promise<void> {
  await waitFor(`${baseUrl}/healthz`, async () => ((await fetch(`${baseUrl}/healthz`)).ok ? true : undefined), timeoutMs);
}

/** The container's log attached to a failed test, so the report says what the server said. */
export async function attachLogs(testInfo: TestInfo, containers: string[]): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const container of containers) {
    const res = await (await getDocker()).run(["logs", "--tail", "200", container], { allowFail: true });
    await testInfo.attach(`${container}.log`, { body: `${res.stdout}\n${res.stderr}`, contentType: "text/plain" });
  }
}

/** The demo's "Sign in with Google Ads": the emulator's consent screen, Allow, the dashboard. */
export async function signInThroughDemo(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole("link", { name: "Sign in with Google Ads" }).click();
  await expect(page.getByRole("heading", { name: /wants access to your Google Account/ })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  // Before the fix of issue 35's first fault: back on /login with "Google sign-in failed".
  await expect(page).toHaveURL(`${baseUrl}/dashboard`);
}

/** The demo account's campaigns on /campaigns (its first sync may still be bringing them in). */
export async function seesDemoCampaigns(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/campaigns`);
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText(RICH_ACCOUNT_NAME);
  await expect(async () => {
    await page.reload();
    expect((await campaignNames(page)).length).toBeGreaterThan(5);
  }).toPass({ timeout: 120_000 });
}
