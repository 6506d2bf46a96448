import type { Locator, Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Campaign pages that lead with data (issue 32, point 6): at a 1440 × 900
// laptop the open tab's table starts on the first screen, and the Ads tab has
// a compact table (one row per ad) beside the full cards, switched by a link
// (?view=table), so it works with JavaScript on and off.

test.describe.configure({ timeout: 180_000 });

const LAPTOP = { width: 1440, height: 900 };
/** Search | Tents in the rich demo account (emulator/ads/demo/PLANTED.md). */
const TENTS = "/campaigns/17000000008";

/** The element's top edge, in px from the top of the page, with the page scrolled to the top. */
async function topOf(page: Page, locator: Locator) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await locator.boundingBox();
  expect(box, "the element is laid out").not.toBeNull();
  return box!.y;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`1440 px, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: LAPTOP });

    test("every tab's table starts above the fold; the Ads tab switches between cards and a compact table", async ({ page, request }) => {
      await connectDemoAccount(page, request);

      for (const [tab, caption] of [
        ["", "Ad groups"],
        ["?tab=keywords", "Keywords"],
        ["?tab=searchterms", "Search terms"],
      ] as const) {
        await page.goto(`${TENTS}${tab}`);
        const table = page.getByRole("table", { name: caption });
        await expect(table.locator("tbody tr").first()).toBeVisible();
        // The header row and at least the first body row are on the first screen.
        const firstRow = table.locator("tbody tr").first();
        expect(await topOf(page, firstRow), `${caption}: first row below the fold`).toBeLessThan(LAPTOP.height - 40);
      }

      // The Ads tab opens on the full cards, with a link to the compact table.
      await page.goto(`${TENTS}?tab=ads`);
      const views = page.getByRole("navigation", { name: "Ads view" });
      await expect(views.getByRole("link", { name: "Cards" })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("article").first()).toBeVisible();
      await expect(page.getByRole("table", { name: "Ads" })).toHaveCount(0);
      const cards = await page.getByRole("article").count();

      await views.getByRole("link", { name: "Table" }).click();
      await expect(page).toHaveURL(/[?&]view=table/);
      await expect(views.getByRole("link", { name: "Table" })).toHaveAttribute("aria-current", "page");
      const table = page.getByRole("table", { name: "Ads" });
      await expect(table).toBeVisible();
      await expect(page.getByRole("article")).toHaveCount(0);
      // One row per ad: the same ads as the cards, with strength, asset counts, status and metrics.
      await expect(table.locator("tbody tr")).toHaveCount(cards);
      for (const header of ["Ad group", "Ad strength", "Headlines", "Descriptions", "Status", "Impressions", "Clicks", "Cost"]) {
        await expect(table.getByRole("columnheader", { name: header, exact: true }).first()).toBeVisible();
      }
      const firstRow = table.locator("tbody tr").first();
      await expect(firstRow).toContainText(/Excellent|Good|Average|Poor|Pending|—/);
      // Asset counts are whole numbers of headlines (3–15) and descriptions (2–4).
      const cells = await firstRow.locator("td").allInnerTexts();
      expect(cells.some((c) => /^(?:[3-9]|1[0-5])$/.test(c.trim()))).toBe(true);
      expect(await topOf(page, firstRow), "Ads table: first row below the fold").toBeLessThan(LAPTOP.height - 40);

      // The sort applies to the table view too, and the view survives it.
      await page.getByRole("form", { name: "Sort ads" }).getByLabel("Sort by").selectOption("adStrength");
      await page.getByRole("form", { name: "Sort ads" }).getByRole("button", { name: "Sort" }).click();
      await expect(page).toHaveURL(/sort=adStrength/);
      await expect(page).toHaveURL(/view=table/);
      await expect(page.getByRole("table", { name: "Ads" }).locator("tbody tr")).toHaveCount(cards);

      // Back to the cards.
      await views.getByRole("link", { name: "Cards" }).click();
      await expect(page).not.toHaveURL(/view=table/);
      await expect(page.getByRole("article")).toHaveCount(cards);

      // An unknown view is ignored with a notice, and the cards are shown.
      await page.goto(`${TENTS}?tab=ads&view=grid`);
      await expect(page.getByText(/Ignored an invalid view/)).toBeVisible();
      await expect(page.getByRole("article").first()).toBeVisible();
    });
  });
}
