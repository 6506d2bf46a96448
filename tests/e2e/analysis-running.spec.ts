import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect, SMALL_CUSTOMER_ID, waitForDetailImport, type ConnectedUser } from "./ads-fixtures";

// Between a sync's status turning "ok" and the end of the engine run that
// follows it, the AI Optimizer's panel and the score page say the analysis is
// running (not "No analysis yet" / "No score yet"), and so does the JSON API;
// once it ends the results appear by themselves: polled with JavaScript on, a
// self-refresh with it off. The server's test hook (TEST_HOLD_ENGINE_DIR,
// playwright.config.ts) holds the real engine run of the small demo account
// while a file named after it exists, so the window is observed, not raced.
// The small account (the bakery), so the specs on the outdoor account are not held.

const HOLD_DIR = process.env.E2E_ENGINE_HOLD_DIR!;
const holdFile = path.join(HOLD_DIR, SMALL_CUSTOMER_ID);
const panel = (page: Page) => page.getByRole("region", { name: "Recommendations" });

async function analysisStatus(page: Page): Promise<string> {
  const res = await page.request.get("/analysis");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

/** The user's active account becomes the small demo one, its data imported and analysed once. */
async function useSmallAccount(page: Page, request: APIRequestContext, user: ConnectedUser) {
  const res = await page.request.post("/settings", { form: { intent: "select-account", customerId: SMALL_CUSTOMER_ID } });
  expect(res.ok()).toBe(true);
  const warm = await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/summary`, { headers: { Authorization: `Bearer ${user.token}` }, timeout: 120_000 });
  expect(warm.status()).toBe(200);
  await waitForDetailImport(request, user.token, SMALL_CUSTOMER_ID);
  // Whatever analysis that import started ends before the hold is set: the next one is the held one.
  await expect.poll(() => analysisStatus(page), { timeout: 60_000 }).toBe("idle");
}

/** Sync now, with the engine run that follows it held; resolves once that run is in flight. */
async function syncWithHeldAnalysis(page: Page) {
  fs.mkdirSync(HOLD_DIR, { recursive: true });
  fs.writeFileSync(holdFile, "");
  const res = await page.request.post("/sync", { form: { returnTo: "/ai-optimizer" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  await expect.poll(() => analysisStatus(page), { timeout: 60_000 }).toBe("running");
}

const release = () => fs.rmSync(holdFile, { force: true });

async function apiAnalysis(request: APIRequestContext, user: ConnectedUser) {
  const res = await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/recommendations`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { analysis: { status: string; startedAt: string | null } }).analysis;
}

test.afterEach(release);

test("JavaScript on: 'Analysing your data…' on the panel and the score page while the engine runs; the results replace it without a reload", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const user = await connectDemoAccount(page, request, "/dashboard");
  await useSmallAccount(page, request, user);
  await syncWithHeldAnalysis(page);

  // The JSON API says so (the fixture checks the body against the OpenAPI document).
  expect(await apiAnalysis(request, user)).toMatchObject({ status: "running", startedAt: expect.any(String) });

  await page.goto("/dashboard/score");
  await expect(page.getByRole("status").filter({ hasText: /Analysing your (new )?data…/ })).toBeVisible();
  await expect(page.getByText("No score yet")).toHaveCount(0);

  await page.goto("/ai-optimizer");
  const status = panel(page).getByRole("status");
  await expect(status).toContainText(/Analysing your (new )?data…/);
  await expect(panel(page)).not.toContainText("No analysis yet");
  // Marks this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  release();
  await expect(status).toHaveCount(0);
  await expect(panel(page)).toContainText(/Last analysis (just now|\d+ (second|minute)s? ago)/);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(await apiAnalysis(request, user)).toEqual({ status: "idle", startedAt: null });
});

test("JavaScript off: the score page says the analysis is running, offers Refresh, and refreshes itself until the score is there", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const user = await connectDemoAccount(page, request, "/dashboard");
  await useSmallAccount(page, request, user);
  await syncWithHeldAnalysis(page);

  await page.goto("/ai-optimizer");
  await expect(panel(page).getByRole("status")).toContainText(/Analysing your (new )?data…/);
  await expect(panel(page)).not.toContainText("No analysis yet");
  // The link reloads the page: still running, still said.
  await panel(page).getByRole("link", { name: "Refresh" }).click();
  await expect(panel(page).getByRole("status")).toContainText(/Analysing your (new )?data…/);

  await page.goto("/dashboard/score");
  const running = page.getByRole("status").filter({ hasText: /Analysing your (new )?data…/ });
  await expect(running).toBeVisible();
  await expect(page.locator('noscript, meta[http-equiv="refresh"]').first()).toBeAttached();

  release();
  // No click: the page's own refresh brings the score.
  await expect(running).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Score" })).toContainText("/ 100");
  await context.close();
});
