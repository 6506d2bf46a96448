import { test } from "./fixtures";
import { connectDemoAccount, expect, RICH_ACCOUNT_NAME } from "./ads-fixtures";

// Issue 31 point 1: the accounts overview and the header's account switcher, against the built
// server, JavaScript on and off, on a phone and a laptop. The main e2e server's demo manager has
// three client accounts (the third, the large test account, is never synced by these specs).

const SMALL_ACCOUNT_NAME = "Northwind Bakery Berlin";
const MANAGER_NAME = "Northwind Digital (MCC)";
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of VIEWPORTS) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width} px`, () => {
      // Connected at laptop size (the fixture reads the sidebar), then looked at in this size.
      test.use({ javaScriptEnabled, viewport: VIEWPORTS[1] });

      test("the overview lists every client account, sorts, filters, and opens one", async ({ page, request }) => {
        test.setTimeout(180_000);
        await connectDemoAccount(page, request);
        await page.setViewportSize(viewport);
        // More than one client account: the product's address lands on the overview.
        await page.goto("/");
        await expect(page).toHaveURL(/\/accounts$/);
        await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();
        const table = page.getByRole("table", { name: "Client accounts" });
        const rows = table.locator("tbody tr");
        await expect(rows).toHaveCount(3);
        await expect(rows.first()).toContainText(MANAGER_NAME);
        // The synced account shows its spend; the page never scrolls sideways as a whole (the table may).
        await expect(table.getByRole("rowheader", { name: new RegExp(RICH_ACCOUNT_NAME) })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

        // Sort by cost, biggest first: a link, so it works without JavaScript.
        await table.getByRole("link", { name: "Cost", exact: true }).click();
        await expect(page).toHaveURL(/[?&]sort=spend/);
        await expect(table.getByRole("columnheader", { name: "Cost", exact: true })).toHaveAttribute("aria-sort", "descending");
        await expect(rows.first().getByRole("rowheader")).toContainText(RICH_ACCOUNT_NAME);

        // Filter by name.
        const search = page.getByRole("search", { name: "Search accounts" });
        await search.getByLabel("Search").fill("bakery");
        await search.getByRole("button", { name: "Search" }).click();
        await expect(page).toHaveURL(/[?&]q=bakery/);
        await expect(rows).toHaveCount(1);
        await expect(rows.first()).toContainText(SMALL_ACCOUNT_NAME);

        // The CSV is the same list.
        const href = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
        expect(href).toMatch(/^\/export\/accounts\?(.*&)?q=bakery/);
        // The browser's own cookies: page.request shares them.
        const csv = await page.request.get(href!);
        expect(csv.status()).toBe(200);
        const lines = (await csv.text()).trim().split("\n");
        expect(lines).toHaveLength(2);
        expect(lines[1]).toContain(SMALL_ACCOUNT_NAME);

        // Open makes it the active account and goes to its dashboard.
        await rows
          .first()
          .getByRole("button", { name: `Open ${SMALL_ACCOUNT_NAME}` })
          .click();
        await expect(page).toHaveURL(/\/dashboard$/);
        if (viewport.width < 768) await page.getByTestId("mobile-menu").locator("summary").first().click();
        await expect(page.getByRole("link", { name: "Account settings" })).toContainText(SMALL_ACCOUNT_NAME);
      });

      test("the header's switcher changes the account and stays on the screen", async ({ page, request }) => {
        test.setTimeout(180_000);
        await connectDemoAccount(page, request);
        await page.setViewportSize(viewport);
        await page.goto("/history");
        const scope = viewport.width < 768 ? page.getByTestId("mobile-menu") : page.locator("aside");
        if (viewport.width < 768) await scope.locator("summary").first().click();
        const switcher = scope.getByTestId("account-switcher");
        // On a laptop it is a disclosure of its own; in the phone's menu it is shown open.
        if (viewport.width >= 768) await switcher.locator("summary").click();
        const group = switcher.getByRole("group", { name: MANAGER_NAME });
        await expect(group.getByRole("button")).toHaveCount(3);
        await expect(group.getByRole("button", { name: new RegExp(RICH_ACCOUNT_NAME) })).toHaveAttribute("aria-current", "true");
        if (javaScriptEnabled) {
          // With JavaScript the box narrows the list as one types.
          await switcher.getByLabel("Find an account").fill("bakery");
          await expect(group.getByRole("button")).toHaveCount(1);
        }
        await group.getByRole("button", { name: new RegExp(SMALL_ACCOUNT_NAME) }).click();
        await expect(page).toHaveURL(/\/history$/);
        // Done once the switch is confirmed (the address stays the same).
        if (javaScriptEnabled) await expect(page.getByRole("status").filter({ hasText: `Now working on ${SMALL_ACCOUNT_NAME}` })).toBeVisible();
        else await expect(page.getByTestId("flash")).toHaveText(`Now working on ${SMALL_ACCOUNT_NAME}`);
        if (viewport.width < 768) await page.getByTestId("mobile-menu").locator("summary").first().click();
        await expect(page.getByRole("link", { name: "Account settings" })).toContainText(SMALL_ACCOUNT_NAME);
        if (!javaScriptEnabled) {
          // Without JavaScript the box searches the overview.
          // (The phone's menu is still open from above.)
          const again = (viewport.width < 768 ? page.getByTestId("mobile-menu") : page.locator("aside")).getByTestId("account-switcher");
          if (viewport.width >= 768) await again.locator("summary").click();
          await again.getByLabel("Find an account").fill("wholesale");
          await again.getByLabel("Find an account").press("Enter");
          await expect(page).toHaveURL(/\/accounts\?q=wholesale$/);
          await expect(page.getByRole("table", { name: "Client accounts" }).locator("tbody tr")).toHaveCount(1);
        }
      });
    });
  }
}
