import { campaignNames, campaignRows, connectDemoAccount, money, RICH_ACCOUNT_NAME, expect } from "./ads-fixtures";
import { test } from "./fixtures";

// The connected screens with JavaScript off: every control is a link or a
// form, and the server renders each result.
test.use({ javaScriptEnabled: false });
test.describe.configure({ timeout: 150_000 });

test("campaigns without JavaScript: sort, filter, search, page, custom range, detail tabs", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  await page.goto("/campaigns");
  const table = page.getByRole("table", { name: `Campaigns of ${RICH_ACCOUNT_NAME}` });
  expect(await campaignRows(page).count()).toBeGreaterThanOrEqual(12);

  const cost = table.getByRole("columnheader", { name: /^Cost/ }).first();
  await cost.getByRole("link").click();
  await expect(page).toHaveURL(/sort=cost&dir=asc/);
  await expect(cost).toHaveAttribute("aria-sort", "ascending");
  // The server streams the page: read rows only once the document has loaded.
  await page.waitForLoadState("load");
  const costs = (await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.children[10]?.textContent ?? ""))).map(money);
  expect(costs).toEqual([...costs].sort((a, b) => a - b));

  await page.getByRole("navigation", { name: "Status filter" }).getByRole("link", { name: "Paused" }).click();
  await expect(campaignRows(page)).toHaveCount(2);
  // The sort survives the filter.
  await expect(cost).toHaveAttribute("aria-sort", "ascending");

  await page.getByRole("navigation", { name: "Status filter" }).getByRole("link", { name: "All" }).click();
  await page.getByLabel("Search by name").fill("search |");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=search/);
  // Eleven "Search | …" campaigns; the Display and Performance Max ones and the brand campaign drop out.
  await expect(campaignRows(page)).toHaveCount(11);
  for (const name of await campaignNames(page)) expect(name).toMatch(/^Search \|/);

  await page.getByRole("navigation", { name: "Rows per page" }).getByRole("link", { name: "10", exact: true }).click();
  await expect(campaignRows(page)).toHaveCount(10);
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2" }).click();
  await expect(page.getByTestId("page-summary")).toContainText("Showing 11–");
  await expect(page).toHaveURL(/q=search/);

  const form = page.getByRole("form", { name: "Custom date range" });
  const to = await form.getByLabel("To").inputValue();
  const from = await form.getByLabel("From").inputValue();
  await form.getByLabel("From").fill(to);
  await form.getByRole("button", { name: "Apply range" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${to}&to=${to}`));
  await expect(page.getByTestId("range-label")).toContainText("Custom range");
  // The search and page size stay; the page goes back to 1.
  await expect(page).toHaveURL(/q=search/);
  await expect(page.getByTestId("page-summary")).toContainText("Showing 1–10");
  expect(from < to).toBe(true);

  // A reversed custom range: told, and the default shows.
  await form.getByLabel("From").fill(to);
  await form.getByLabel("To").fill(from);
  await form.getByRole("button", { name: "Apply range" }).click();
  await expect(page.getByText(/The start date must be on or before the end date/)).toBeVisible();

  await page.goto("/campaigns?q=tents");
  await page.getByRole("link", { name: "Search | Tents", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Search | Tents" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Campaign sections" });
  await expect(page.getByRole("table", { name: "Ad groups" })).toContainText("Family Tents");
  await tabs.getByRole("link", { name: /Keywords/ }).click();
  await expect(page.getByRole("table", { name: "Keywords" })).toContainText("cheap camping tents");
  await tabs.getByRole("link", { name: /^Ads/ }).click();
  await expect(page.getByTestId("rsa-preview").first()).toBeVisible();
  await expect(page.getByTestId("rsa-display-url").first()).toHaveText(/^northwind-outdoor\.example/);
  await tabs.getByRole("link", { name: /Search terms/ }).click();
  await expect(page.getByRole("table", { name: "Search terms" })).toContainText("free camping sites near me");
  await page.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/tab=searchterms&range=7d|range=7d&tab=searchterms/);
  await expect(tabs.getByRole("link", { name: /Search terms/ })).toHaveAttribute("aria-current", "page");
});

test("dashboard without JavaScript: cards, chart and range links", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/dashboard");
  await page.goto("/dashboard");
  await expect(page.getByRole("region", { name: "Total Spend" })).toContainText(/\$[\d,]+\.\d{2}/);
  await expect(page.getByRole("img", { name: /Spend, clicks and conversions/ })).toBeVisible();
  await page.getByRole("link", { name: "Last 90 days" }).click();
  // A <details> disclosure: opens without JavaScript.
  await page.getByText("Show the numbers as a table").click();
  await expect(page.getByRole("table", { name: /Spend, clicks and conversions/ }).locator("tbody tr")).toHaveCount(90);
  await expect(page.getByRole("region", { name: "Total Spend" })).toContainText("Last 90 days");
});

test("Sync now without JavaScript: progress, then the page refreshes itself until the sync ends", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  await page.goto("/campaigns?range=7d");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page).toHaveURL(/\/campaigns\?range=7d$/);
  if (await page.locator("progress").isVisible()) {
    await expect(page.getByRole("status")).toContainText("Syncing");
    // The table stays while a sync runs: the previous data is still good.
    await expect(campaignRows(page).first()).toBeVisible();
  }
  // No clicks from here: the <noscript> refresh reloads the page until the sync is over.
  await expect(page.getByRole("button", { name: "Sync now" })).toBeEnabled({ timeout: 90_000 });
  await page.waitForLoadState("load");
  await expect(page.locator("progress")).toHaveCount(0);
  await expect(page.getByTestId("last-synced")).toContainText("Updated");
});
