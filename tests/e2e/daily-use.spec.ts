import fs from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect, waitForDetailImport, type ConnectedUser } from "./ads-fixtures";

// Screens an advertiser can live in (issue 15), at a 390 px phone and a
// 1440 px laptop: the phone menu, tables that scroll in their own box, the
// campaigns table's money columns in view, a 1,200-keyword tab paged and
// sorted, CSV downloads of the current view, and the chart's tooltip.

test.describe.configure({ timeout: 180_000 });

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1440, height: 900 };
/** The emulator's third demo account (EMULATOR_LARGE_ACCOUNT_KEYWORDS=1200 in playwright.config.ts). */
const LARGE_CUSTOMER_ID = "9990001112";
const LARGE_CAMPAIGN = "Search | Tents #1";

/** The page itself never scrolls sideways: wide tables scroll inside their own box. */
async function expectNoPageScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(innerWidth);
}

async function useLargeAccount(page: Page, request: APIRequestContext): Promise<ConnectedUser> {
  const user = await connectDemoAccount(page, request);
  await page.goto("/settings");
  await page.getByLabel(/Northwind Wholesale/).check();
  await page.getByRole("button", { name: "Use selected account" }).click();
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText("Northwind Wholesale");
  const warm = await request.get(`/api/v1/accounts/${LARGE_CUSTOMER_ID}/summary`, { headers: { Authorization: `Bearer ${user.token}` }, timeout: 120_000 });
  expect(warm.status()).toBe(200);
  await waitForDetailImport(request, user.token, LARGE_CUSTOMER_ID);
  return user;
}

async function downloadCsv(page: Page, link = page.getByRole("link", { name: "Download CSV" })) {
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const text = fs.readFileSync((await download.path())!, "utf8");
  return {
    name: download.suggestedFilename(),
    lines: text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n"),
  };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`phone, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the navigation is a menu, every screen fits, tables scroll in their own box with the name column kept", async ({ page, request }) => {
      await connectDemoAccount(page, request, "/dashboard");
      await page.setViewportSize(PHONE);
      await page.goto("/dashboard");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeHidden();
      await page.getByText("Menu", { exact: true }).click();
      await expect(nav).toBeVisible();
      await nav.getByRole("link", { name: "Campaigns" }).click();
      await expect(page).toHaveURL(/\/campaigns$/);
      await expect(page.getByRole("heading", { level: 1, name: "Campaigns" })).toBeVisible();
      // The menu is closed again on the new page.
      await expect(nav).toBeHidden();

      const box = page.getByTestId("table-scroll").first();
      const scroll = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
      const nameHeader = page.getByRole("columnheader", { name: "Campaign", exact: true });
      const before = (await nameHeader.boundingBox())!;
      await box.evaluate((el) => el.scrollTo(el.scrollWidth, 0));
      await expect
        .poll(async () => (await page.getByRole("columnheader", { name: "Conv. value/cost", exact: true }).boundingBox())?.x)
        .toBeLessThan(PHONE.width);
      // The name column stayed where it was while the numbers moved under it.
      expect(Math.round((await nameHeader.boundingBox())!.x)).toBe(Math.round(before.x));
      await expectNoPageScroll(page);

      for (const path of [
        "/dashboard",
        "/campaigns/17000000008?tab=keywords",
        "/campaigns/17000000008?tab=searchterms",
        "/history",
        "/ai-optimizer",
        "/ad-generator",
        "/settings",
      ]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoPageScroll(page);
      }

      // No room for the past chats beside the conversation: they fold above it.
      await page.goto("/ai-optimizer");
      await page.getByLabel("Message").fill("How are my campaigns doing?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page).toHaveURL(/\/ai-optimizer\?chat=/);
      await page.goto("/ai-optimizer");
      await expect(page.getByText("AI Assistant Ready")).toBeVisible();
      await page.getByText("Past chats (1)", { exact: true }).click();
      const past = page.getByRole("navigation", { name: "Past chats" }).getByRole("link", { name: "How are my campaigns doing?" });
      // Its time in the account's zone (the demo account is in New York), as every other screen shows times.
      await expect(past).toHaveAttribute("title", /^How are my campaigns doing\? · .+ E[SD]T$/);
      await past.click();
      await expect(page).toHaveURL(/\/ai-optimizer\?chat=/);
      await expect(page.getByRole("region", { name: "Conversation" })).toContainText("How are my campaigns doing?");
      await expectNoPageScroll(page);
    });
  });
}

test.describe("laptop, 1440 px", () => {
  test.use({ viewport: LAPTOP });

  test("the campaigns table shows its money columns without scrolling; the column chooser is kept per user", async ({ page, request }) => {
    await connectDemoAccount(page, request);
    await page.goto("/campaigns");
    const box = page.getByTestId("table-scroll");
    const boxRight = await box.evaluate((el) => el.getBoundingClientRect().right);
    for (const name of ["Cost", "Conversions", "Cost/conv.", "Conv. value/cost"]) {
      const header = page.getByRole("columnheader", { name, exact: true });
      const rect = (await header.boundingBox())!;
      expect(rect.x + rect.width, name).toBeLessThanOrEqual(Math.min(boxRight, LAPTOP.width) + 1);
    }
    const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth + 1);

    // Hide two columns: kept on the server, so a reload (or another browser) shows the same.
    await page.getByText("Columns", { exact: true }).click();
    const chooser = page.getByRole("form", { name: "Choose columns" });
    await chooser.getByLabel("Impressions").uncheck();
    await chooser.getByLabel("Bidding").uncheck();
    await chooser.getByRole("button", { name: "Save columns" }).click();
    await expect(page.getByRole("columnheader", { name: "Impressions" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("columnheader", { name: "Bidding" })).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Cost", exact: true })).toBeVisible();
    await expect(page.getByText("Columns (10 of 12)")).toBeVisible();

    // The AI Optimizer fits the screen: a long list of recommendations scrolls in its own box and
    // never stretches the page (its screen-reader labels once did, by tens of thousands of pixels);
    // the composer stays on screen below the demo banner.
    await page.goto("/ai-optimizer");
    const recommendations = page.getByRole("region", { name: "Recommendations" });
    await expect.poll(() => recommendations.getByRole("listitem").count()).toBeGreaterThan(20);
    const size = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, view: window.innerHeight }));
    expect(size.height).toBeLessThanOrEqual(size.view + 1);
    await expect(page.getByRole("button", { name: "Send" })).toBeInViewport({ ratio: 1 });
  });

  test("a campaign tab of 1,200 keywords is paged and sorted in the database, and downloads as CSV", async ({ page, request }) => {
    await useLargeAccount(page, request);
    await page.goto("/campaigns");
    await page.getByRole("link", { name: LARGE_CAMPAIGN, exact: true }).click();
    const tabs = page.getByRole("navigation", { name: "Campaign sections" });
    await expect(tabs.getByRole("link", { name: /Keywords/ })).toContainText("1,200");
    await tabs.getByRole("link", { name: /Keywords/ }).click();
    const table = page.getByRole("table", { name: "Keywords" });
    const summary = page.getByTestId("page-summary");
    await expect(summary).toHaveText("Showing 1–50 of 1,200 keywords");
    await expect(table.locator("tbody tr")).toHaveCount(50);
    await expect(page.getByTestId("totals-row")).toContainText("Total (1,200 keywords)");

    // Sorted by cost, biggest first, by default.
    const costs = async () => (await table.locator("tbody tr td:nth-child(12)").allInnerTexts()).map((t) => Number(t.replace(/[^0-9.]/g, "")));
    const firstPage = await costs();
    expect(firstPage).toEqual([...firstPage].sort((a, b) => b - a));

    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await expect(summary).toHaveText("Showing 51–100 of 1,200 keywords");
    expect(Math.max(...(await costs()))).toBeLessThanOrEqual(Math.min(...firstPage));
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 24" }).click();
    await expect(summary).toHaveText("Showing 1,151–1,200 of 1,200 keywords");

    // Sort by keyword text: A→Z from the first page on, then Z→A.
    await table.getByRole("link", { name: "Keyword", exact: true }).click();
    await expect(table.getByRole("columnheader", { name: "Keyword", exact: true })).toHaveAttribute("aria-sort", "ascending");
    await expect(summary).toHaveText("Showing 1–50 of 1,200 keywords");
    const texts = (await table.locator("tbody th[scope=row]").allInnerTexts()).map((t) => t.toLowerCase());
    expect(texts).toEqual([...texts].sort());
    await table.getByRole("link", { name: "Keyword", exact: true }).click();
    await expect(table.getByRole("columnheader", { name: "Keyword", exact: true })).toHaveAttribute("aria-sort", "descending");
    const desc = (await table.locator("tbody th[scope=row]").allInnerTexts()).map((t) => t.toLowerCase());
    expect(desc).toEqual([...desc].sort().reverse());
    expect(desc[0] >= texts[texts.length - 1]).toBe(true);

    // The CSV is the whole filtered view in the same order, not the page.
    const csv = await downloadCsv(page);
    expect(csv.name).toMatch(/^campaign-17000000000-keywords-.*\.csv$/);
    expect(csv.lines).toHaveLength(1201);
    expect(csv.lines[0].startsWith("Keyword,Match type,Negative,Ad group,Status")).toBe(true);
    expect(csv.lines[1].split(",")[0].toLowerCase()).toBe(desc[0]);

    // Filter by text (the first keyword's own text): fewer rows, fewer pages, and the CSV follows.
    await page.getByRole("search", { name: "Search keywords" }).getByRole("searchbox").fill(desc[0]);
    await page.getByRole("search", { name: "Search keywords" }).getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(summary).not.toHaveText(/of 1,200 keywords$/);
    const filtered = Number((await summary.innerText()).match(/of ([\d,]+) keywords/)![1].replace(/,/g, ""));
    expect(filtered).toBeLessThan(1200);
    expect(filtered).toBeGreaterThan(0);
    const csv2 = await downloadCsv(page);
    expect(csv2.lines).toHaveLength(filtered + 1);
  });

  test("the current campaigns view downloads as CSV", async ({ page, request }) => {
    await connectDemoAccount(page, request);
    await page.goto("/campaigns?status=paused&range=90d");
    const rows = await page
      .getByRole("table", { name: /^Campaigns of / })
      .locator("tbody tr")
      .count();
    const csv = await downloadCsv(page);
    expect(csv.name).toMatch(/^campaigns-1112223334-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.lines).toHaveLength(rows + 1);
    expect(csv.lines.slice(1).every((l) => l.split(",")[2] === "Paused")).toBe(true);
  });
});

for (const viewport of [LAPTOP, PHONE]) {
  test(`the chart's tooltip shows the day's numbers, by pointer and by keyboard (${viewport.width} px)`, async ({ page, request }) => {
    await connectDemoAccount(page, request, "/dashboard");
    await page.setViewportSize(viewport);
    await page.goto("/dashboard");
    const chart = page.getByTestId("performance-chart");
    await chart.scrollIntoViewIfNeeded();
    const tooltip = page.getByRole("tooltip");
    // Hydration can land after the first move: move until the tooltip answers.
    await expect(async () => {
      const rect = (await chart.boundingBox())!;
      await page.mouse.move(rect.x + rect.width * 0.5, rect.y + rect.height * 0.4);
      await page.mouse.move(rect.x + rect.width * 0.5 + 1, rect.y + rect.height * 0.4);
      await expect(tooltip).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(tooltip).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(tooltip).toContainText(/Spend\$[\d,]+\.\d{2}/);
    await expect(tooltip).toContainText(/Clicks[\d,]+/);
    await page.mouse.move(0, 0);
    await expect(tooltip).toBeHidden();

    // Keyboard: the chart takes focus; the arrow keys walk the days.
    await chart.focus();
    await page.keyboard.press("End");
    const last = await tooltip.innerText();
    await page.keyboard.press("ArrowLeft");
    await expect(tooltip).not.toHaveText(last);

    // The same numbers as a table, behind a disclosure that takes no room while closed.
    const table = page.getByRole("table", { name: /Spend, clicks and conversions/ });
    await expect(table).toBeHidden();
    await page.getByText("Show the numbers as a table").click();
    await expect(table).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(30);

    // Compare with the previous period: on the spend card and in the chart.
    await page.getByRole("link", { name: /Compare with the previous period/ }).click();
    await expect(page.getByRole("region", { name: "Total Spend" })).toContainText(/vs \$[\d,]+\.\d{2}/);
    await expect(page.getByTestId("previous-line")).toHaveCount(3);
    await expectNoPageScroll(page);
  });
}
