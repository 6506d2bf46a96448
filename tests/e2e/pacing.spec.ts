import { test } from "./fixtures";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Issue 31 point 2: the dashboard's budget pacing, JavaScript on and off, on a phone and a laptop.
// The plan belongs to the account (shared by everyone who reaches it), so each test sets its own amount.

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of VIEWPORTS) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width} px`, () => {
      test.use({ javaScriptEnabled, viewport: VIEWPORTS[1] });

      test("a monthly budget is set on the dashboard, paced, and a bad one is said", async ({ page, request }) => {
        test.setTimeout(180_000);
        await connectDemoAccount(page, request, "/dashboard");
        await page.setViewportSize(viewport);
        const section = page.getByRole("region", { name: /Budget pacing/ });
        // The plan is the account's, and an earlier test may have set one: an empty amount removes it.
        await section.getByLabel(/Monthly budget/).fill("");
        await section.getByRole("button", { name: "Save" }).click();
        await expect(section).toContainText("Set a monthly budget");
        const budget = section.getByLabel(/Monthly budget/);
        await budget.fill("-3");
        await section.getByRole("button", { name: "Save" }).click();
        await expect(section.getByRole("alert")).toHaveText("The monthly budget must be greater than 0");

        const amount = String(1000 + viewport.width + (javaScriptEnabled ? 1 : 0));
        await section.getByLabel(/Monthly budget/).fill(amount);
        await section.getByRole("button", { name: "Save" }).click();
        await expect(section.getByLabel(/Monthly budget/)).toHaveValue(amount);
        await expect(section).toContainText("Spent this month");
        await expect(section).toContainText("Projected month-end");
        await expect(section).toContainText(`of $${Number(amount).toLocaleString("en-US")}`);
        await expect(section.getByText(/^(On plan|Over plan|Under plan)/)).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      });
    });
  }
}
