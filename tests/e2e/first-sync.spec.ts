import fs from "node:fs";
import path from "node:path";
import { test } from "./fixtures";
import { connectDemoAccount, expect, SMALL_CUSTOMER_ID, waitForDetailImport } from "./ads-fixtures";

// An account's first sync is staged (ADR 013, amendment): campaigns, ad
// groups, keywords and ads with the campaign and ad-group performance first
// (status "ok": the dashboard and the campaign list are complete), keyword,
// ad and search-term performance right after. In between, the tabs that read
// those say so, and update themselves when they are in: polled with
// JavaScript on, a self-refresh with it off. The second server's test hook
// (TEST_HOLD_DETAIL_DIR, playwright.config.ts) holds the real import of the
// small demo account while a file named after it exists, so the window is
// observed, not raced; no other spec syncs that account on that server.

const HOLD_DIR = process.env.E2E_DETAIL_HOLD_DIR!;
const holdFile = path.join(HOLD_DIR, SMALL_CUSTOMER_ID);
const release = () => fs.rmSync(holdFile, { force: true });

test.afterEach(release);

test("first sync: the campaigns first, then the detail; the detail tabs say it is importing and update themselves, JavaScript on and off", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const user = await connectDemoAccount(page, request);
  const auth = { Authorization: `Bearer ${user.token}` };
  fs.mkdirSync(HOLD_DIR, { recursive: true });
  fs.writeFileSync(holdFile, "");

  // The bakery, never synced on this server. The AI Optimizer's view starts its first sync as the
  // report pages' do (it once waited for a visit to one), and says what is coming instead of "No analysis yet".
  await page.goto("/settings");
  await page.getByLabel(/Northwind Bakery Berlin/).check();
  await page.getByRole("button", { name: "Use selected account" }).click();
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText("Northwind Bakery Berlin");
  await page.goto("/ai-optimizer");
  const recommendations = page.getByRole("region", { name: "Recommendations" });
  await expect(recommendations.getByRole("status")).toContainText(
    /Importing your account from Google Ads… recommendations appear once it is analysed\.|Analysing your data… recommendations appear when it finishes\./,
  );
  await expect(recommendations).not.toContainText("No analysis yet");
  // The JSON API's status document (checked against the OpenAPI schema by the request fixture).
  const syncState = async () =>
    (await (await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/sync`, { headers: auth })).json()) as {
      status: string;
      detail: { status: string; currentStep: string | null };
    };
  await expect.poll(async () => `${(await syncState()).status}/${(await syncState()).detail.status}`, { timeout: 120_000 }).toBe("ok/running");
  expect((await syncState()).detail.currentStep).toBe("Loading keyword performance");

  // Stage 1 is in: the dashboard and the campaign list are complete, and say what is still coming.
  await page.goto("/dashboard");
  await expect(page.getByRole("region", { name: "Data freshness" })).toContainText(
    "Your campaigns are ready; keyword, ad and search-term performance is still importing (Loading keyword performance).",
  );
  await expect(page.getByTestId("last-synced")).toContainText("Updated");
  // The engine waits for the detail; meanwhile the optimizer says it is analysing, not "No analysis yet".
  await page.goto("/ai-optimizer");
  await expect(page.getByRole("status").filter({ hasText: /Analysing your (new )?data…/ })).toBeVisible();

  await page.goto("/campaigns");
  const firstCampaign = page
    .getByRole("table", { name: /^Campaigns of / })
    .locator("tbody th[scope=row] a")
    .first();
  const campaignPath = new URL((await firstCampaign.getAttribute("href"))!, "http://x").pathname;
  await page.goto(`${campaignPath}?tab=keywords`);
  const notice = page.getByTestId("detail-importing");
  await expect(notice).toHaveAttribute("role", "status");
  await expect(notice).toContainText("Keyword performance is still importing (loading keyword performance): figures missing here are not zeros.");
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
  expect((await page.request.get(`/export${campaignPath}?tab=keywords`)).status()).toBe(409);
  // Ad-group performance came with stage 1: no notice there.
  await page
    .getByRole("navigation", { name: "Campaign sections" })
    .getByRole("link", { name: /Ad groups/ })
    .click();
  await expect(page.getByRole("table", { name: "Ad groups" })).toBeVisible();
  await expect(page.getByTestId("detail-importing")).toHaveCount(0);
  await page
    .getByRole("navigation", { name: "Campaign sections" })
    .getByRole("link", { name: /Keywords/ })
    .click();
  await expect(notice).toBeVisible();

  // The same session with JavaScript off, on the search-terms tab.
  const off = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    baseURL: test.info().project.use.baseURL,
  });
  try {
    const offPage = await off.newPage();
    await offPage.goto(`${campaignPath}?tab=searchterms`);
    const offNotice = offPage.getByTestId("detail-importing");
    await expect(offNotice).toContainText("Search terms are still importing");
    await expect(offNotice.getByRole("link", { name: "Refresh" })).toBeVisible();
    await expect(offPage.locator('meta[http-equiv="refresh"]')).toHaveCount(1);
    await expect(offPage.getByText("Search terms appear here once they are imported.")).toBeVisible();

    // Let the import finish. JavaScript on: the tab updates itself, without a reload.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    release();
    await expect(page.getByTestId("detail-importing")).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // JavaScript off: the page refreshes itself until the import is done.
    await expect(offNotice).toHaveCount(0, { timeout: 60_000 });
    await expect(offPage.getByRole("link", { name: "Download CSV" })).toBeVisible();
  } finally {
    await off.close();
  }
  await waitForDetailImport(request, user.token, SMALL_CUSTOMER_ID);
  expect((await page.request.get(`/export${campaignPath}?tab=keywords`)).status()).toBe(200);
});
