import { campaignNames, campaignRows, connectDemoAccount, money, RICH_ACCOUNT_NAME, RICH_CUSTOMER_ID, SMALL_CUSTOMER_ID, expect } from "./ads-fixtures";
import { test } from "./fixtures";

// The connected screens with the demo account. Every test connects its own
// user; the demo data is shared and only read here.
test.describe.configure({ timeout: 150_000 });

const COLUMNS = [
  "Campaign",
  "Status",
  "Type",
  "Budget/day",
  "Bidding",
  "Impressions",
  "Clicks",
  "CTR",
  "Avg. CPC",
  "Cost",
  "Conversions",
  "Cost/conv.",
  "Conv. value/cost",
];

test("campaigns: table, sort by cost, filter, search, page, range", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  await page.goto("/campaigns");
  const table = page.getByRole("table", { name: `Campaigns of ${RICH_ACCOUNT_NAME}` });
  await expect(table).toBeVisible();
  // The first column holds the row checkboxes (bulk actions).
  await expect(table.locator("thead th")).toHaveText([/^$/, ...COLUMNS.map((c) => new RegExp(`^${c.replace(/[.()/]/g, "\\$&")}`))]);
  expect(await campaignRows(page).count()).toBeGreaterThanOrEqual(12);
  await expect(page.getByTestId("totals-row")).toContainText("Total (14 campaigns)");
  await expect(page.getByTestId("last-synced")).toContainText("Updated");
  await expect(page.getByTestId("range-label")).toContainText(/\w{3} \d{1,2} – \w{3} \d{1,2}, \d{4}/);

  // Default: cost, biggest first.
  const cost = table.getByRole("columnheader", { name: /^Cost/ }).first();
  await expect(cost).toHaveAttribute("aria-sort", "descending");
  const costs = async () => (await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.children[10]?.textContent ?? ""))).map(money);
  const before = await costs();
  expect(before).toEqual([...before].sort((a, b) => b - a));

  // Click Cost: ascending.
  await cost.getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=cost&dir=asc/);
  await expect(cost).toHaveAttribute("aria-sort", "ascending");
  const after = await costs();
  expect(after).toEqual([...after].sort((a, b) => a - b));

  // Sort by name.
  await table
    .getByRole("columnheader", { name: /^Campaign/ })
    .getByRole("link")
    .click();
  await expect(table.getByRole("columnheader", { name: /^Campaign/ })).toHaveAttribute("aria-sort", "ascending");
  const names = await campaignNames(page);
  expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

  // Paused only.
  await page.getByRole("navigation", { name: "Status filter" }).getByRole("link", { name: "Paused" }).click();
  await expect(page).toHaveURL(/status=paused/);
  await expect(campaignRows(page)).toHaveCount(2);
  await expect(table).toContainText("Search | Trail Running");
  await expect(table).toContainText("Search | Ski & Snow");
  for (const badge of await table.locator("tbody tr td:nth-child(3)").allInnerTexts()) expect(badge).toBe("Paused");

  // Search across all statuses.
  await page.getByRole("navigation", { name: "Status filter" }).getByRole("link", { name: "All" }).click();
  await expect(campaignRows(page)).toHaveCount(14);
  await page.getByLabel("Search by name").fill("tents");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=tents/);
  await expect(campaignRows(page)).toHaveCount(1);
  await expect(table).toContainText("Search | Tents");
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(campaignRows(page)).toHaveCount(14);

  // Ten per page: two pages.
  await page.getByRole("navigation", { name: "Rows per page" }).getByRole("link", { name: "10", exact: true }).click();
  await expect(campaignRows(page)).toHaveCount(10);
  await expect(page.getByTestId("page-summary")).toHaveText("Showing 1–10 of 14 campaigns");
  const firstPage = await campaignNames(page);
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
  await expect(page.getByTestId("page-summary")).toHaveText("Showing 11–14 of 14 campaigns");
  await expect(campaignRows(page)).toHaveCount(4);
  const secondPage = await campaignNames(page);
  expect(secondPage.filter((n) => firstPage.includes(n))).toEqual([]);
  // The totals cover every page, not just this one.
  await expect(page.getByTestId("totals-row")).toContainText("Total (14 campaigns)");

  // Last 7 days: fewer clicks than the last 30.
  const totalClicks = async () => money(await page.getByTestId("totals-row").locator("td").nth(6).innerText());
  const clicks30 = await totalClicks();
  await page.getByRole("navigation", { name: "Date range" }).getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "true");
  await expect.poll(totalClicks).toBeLessThan(clicks30);
  // Changing the range goes back to page 1 and keeps the rest.
  await expect(page.getByTestId("page-summary")).toHaveText("Showing 1–10 of 14 campaigns");

  // A custom range.
  const form = page.getByRole("form", { name: "Custom date range" });
  const to = await form.getByLabel("To").inputValue();
  await form.getByLabel("From").fill(to);
  await form.getByRole("button", { name: "Apply range" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${to}&to=${to}`));
  await expect(page.getByTestId("range-label")).toContainText("Custom range");
  await expect.poll(totalClicks).toBeLessThan(clicks30);
});

test("campaigns: bad query values fall back with a message, never an error", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  const res = await page.goto("/campaigns?sort=bogus&status=zombie&page=-3&from=2026-13-45&to=x");
  expect(res?.status()).toBe(200);
  await expect(page.getByText(/Ignored an invalid sort column, status filter, page number/)).toBeVisible();
  await expect(page.getByText(/Showing the last 30 days/)).toBeVisible();
  await expect(campaignRows(page)).toHaveCount(14);
  // Far past the last page: the last page.
  await page.goto("/campaigns?page=99&pageSize=10");
  await expect(page.getByTestId("page-summary")).toHaveText("Showing 11–14 of 14 campaigns");
});

test("campaign detail: ad groups, keywords, ads with an RSA preview, search terms", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  await page.goto("/campaigns?range=90d");
  await page.getByRole("link", { name: "Search | Tents", exact: true }).click();
  await expect(page).toHaveURL(/\/campaigns\/\d+\?range=90d$/);
  await expect(page.getByRole("heading", { level: 1, name: "Search | Tents" })).toBeVisible();
  const settings = page.getByRole("region", { name: "Campaign settings" });
  await expect(settings).toContainText("Enabled");
  await expect(settings).toContainText("Search");
  await expect(settings).toContainText(/\$[\d,]+\.\d{2}\/day/);
  await expect(page.getByRole("region", { name: "Campaign metrics" })).toContainText("Impressions");
  await expect(page.getByRole("link", { name: "Last 90 days" })).toHaveAttribute("aria-current", "true");

  const tabs = page.getByRole("navigation", { name: "Campaign sections" });
  await expect(tabs.getByRole("link", { name: /Ad groups/ })).toHaveAttribute("aria-current", "page");
  const adGroups = page.getByRole("table", { name: "Ad groups" });
  await expect(adGroups).toContainText("Family Tents");
  await expect(adGroups.locator("thead th")).toContainText(["Ad group", "Status", "Default max. CPC", "Impressions", "Clicks", "CTR"]);

  await tabs.getByRole("link", { name: /Keywords/ }).click();
  await expect(page).toHaveURL(/tab=keywords/);
  const keywords = page.getByRole("table", { name: "Keywords" });
  await expect(keywords.locator("thead th")).toContainText(["Keyword", "Match type", "Ad group", "Status", "Max. CPC", "Quality score"]);
  await expect(keywords).toContainText("cheap camping tents");
  await expect(keywords.locator("tbody")).toContainText(/Broad|Phrase|Exact/);
  await expect(keywords.locator("tbody")).toContainText(/\d+\/10/);

  await tabs.getByRole("link", { name: /^Ads/ }).click();
  await expect(page).toHaveURL(/tab=ads/);
  const preview = page.getByTestId("rsa-preview").first();
  await expect(preview).toBeVisible();
  await expect(preview.getByTestId("rsa-display-url")).toHaveText(/^northwind-outdoor\.example\//);
  await expect(preview.getByTestId("rsa-headline")).toHaveText(/.+ \| .+ \| .+/);
  await expect(preview.getByTestId("rsa-description")).not.toBeEmpty();
  await expect(page.getByText(/^Ad strength: /).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Headlines/ }).first()).toBeVisible();
  await expect(page.getByText(/^(Best|Good|Low|Learning)$/).first()).toBeVisible();

  await tabs.getByRole("link", { name: /Search terms/ }).click();
  await expect(page).toHaveURL(/tab=searchterms/);
  const terms = page.getByRole("table", { name: "Search terms" });
  await expect(terms).toContainText("free camping sites near me");
  await expect(terms.locator("thead th")).toContainText(["Search term", "Added/Excluded", "Ad group", "Keyword", "Impressions"]);

  await page.getByRole("link", { name: "← All campaigns" }).click();
  await expect(page).toHaveURL(/\/campaigns\?range=90d$/);
});

test("campaign detail: unknown campaign and another account's campaign are 404s", async ({ page, request }) => {
  const { token } = await connectDemoAccount(page, request);
  const auth = { Authorization: `Bearer ${token}` };
  expect((await page.goto("/campaigns/999999999"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect((await page.goto("/campaigns/not-a-number"))?.status()).toBe(404);

  // A campaign of the outdoor account that the bakery account does not have
  // (campaign ids are only unique within an account).
  const outdoor = (await (await request.get(`/api/v1/accounts/${RICH_CUSTOMER_ID}/campaigns`, { headers: auth })).json()) as {
    campaigns: Array<{ id: string }>;
  };
  const bakeryRes = await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/campaigns`, { headers: auth, timeout: 120_000 });
  const bakery = (await bakeryRes.json()) as { campaigns: Array<{ id: string }> };
  const onlyOutdoor = outdoor.campaigns.find((c) => !bakery.campaigns.some((b) => b.id === c.id));
  expect(onlyOutdoor).toBeTruthy();
  expect((await page.goto(`/campaigns/${onlyOutdoor!.id}`))?.status()).toBe(200);

  await page.goto("/settings");
  await page.getByLabel(/Northwind Bakery Berlin/).check();
  await page.getByRole("button", { name: "Use selected account" }).click();
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText("Northwind Bakery Berlin");
  expect((await page.goto(`/campaigns/${onlyOutdoor!.id}`))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  // The 404 stays inside the app's frame: navigation and account are still there.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Account settings" })).toBeVisible();
});

test("dashboard, connected: cards and a chart over the chosen range", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/dashboard");
  await page.goto("/dashboard");
  const card = (name: string) => page.getByRole("region", { name });
  await expect(card("Active Campaigns").locator("p").first()).toHaveText(/^\d{1,2}$/);
  await expect(card("Active Campaigns")).toContainText("Enabled campaigns");
  await expect(card("Active Campaigns")).not.toContainText("Connect Google Ads account");
  await expect(card("Total Spend")).toContainText(/\$[\d,]+\.\d{2}/);
  await expect(card("Total Spend")).toContainText("Last 30 days");
  // Other specs apply recommendations and assistant proposals to the same demo account,
  // and the engine scores it after each sync: the money measured from them (impact.spec.ts), a count and a score (or "-") are shown.
  await expect(card("AI Optimizations").locator("p").first()).toHaveText(/^−?\$[\d,]+$/);
  await expect(card("AI Optimizations")).toContainText("This month");
  await expect(card("AI Optimizations")).toContainText(/\d+ applied this month/);
  await expect(card("Performance Score").locator("p").first()).toHaveText(/^(-|\d{1,3})$/);
  await expect(card("Performance Score")).toContainText("AI analysis");
  await expect(page.getByRole("region", { name: "Getting Started" })).toHaveCount(0);

  const chart = page.getByRole("img", { name: /Spend, clicks and conversions/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("g[data-series]")).toHaveCount(3);
  // The numbers as a table sit behind a disclosure (it stays open across client-side range changes).
  await page.getByText("Show the numbers as a table").click();
  await expect(page.getByRole("table", { name: /Spend, clicks and conversions/ }).locator("tbody tr")).toHaveCount(30);
  const spend30 = money(await card("Total Spend").locator("p").first().innerText());

  await page.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByRole("table", { name: /Spend, clicks and conversions/ }).locator("tbody tr")).toHaveCount(7);
  await expect(card("Total Spend")).toContainText("Last 7 days");
  expect(money(await card("Total Spend").locator("p").first().innerText())).toBeLessThan(spend30);

  await page.getByRole("link", { name: "Last 90 days" }).click();
  await expect(page.getByRole("table", { name: /Spend, clicks and conversions/ }).locator("tbody tr")).toHaveCount(90);
});

test("sign in with Google: the dashboard is connected", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Google Ads" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Whichever demo account the shared demo user has active, its data shows (or is being imported).
  await expect(page.getByRole("region", { name: "Data freshness" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Getting Started" })).toHaveCount(0);
});
