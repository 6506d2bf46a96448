import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Issue 31 points 3 and 4 (in the app): the bell and /alerts, against the built server, JavaScript on
// and off, on a phone and a laptop. The alert is written into the main server's database (as
// impact.spec.ts writes the past) for the large demo account, which no spec syncs, so no check of
// the server's own touches it; the checks themselves are proved in app/server/agency/alerts.server.test.ts.

const DB_FILE = path.join(process.env.E2E_DATA_DIR!, "app.db");
const LARGE_CUSTOMER_ID = "9990001112";
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

/** A fresh open alert of the large demo account, titled uniquely for this test. */
function plantAlert(title: string) {
  const db = new Database(DB_FILE);
  db.pragma("busy_timeout = 15000");
  try {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO alerts (id, customer_id, rule, subject, campaign_id, status, ongoing, resolved_by, title, figures_json, started_on, evidence_path, recommendation_id, created_at, last_seen_at, resolved_at)
       VALUES (?, ?, 'spend_spike', ?, NULL, 'open', 1, NULL, ?, '{}', ?, '/dashboard', NULL, ?, ?, NULL)`,
    ).run(randomUUID(), LARGE_CUSTOMER_ID, randomUUID(), title, now.slice(0, 10), now, now);
  } finally {
    db.close();
  }
}

/** The navigation: the sidebar on a laptop, the opened menu on a phone. */
async function nav(page: Page, phone: boolean) {
  if (phone) await page.getByTestId("mobile-menu").locator("summary").first().click();
  return page.getByRole("navigation", { name: "Main" });
}

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of VIEWPORTS) {
    const phone = viewport.width < 768;
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width} px`, () => {
      test.use({ javaScriptEnabled, viewport: VIEWPORTS[1] });

      test("the bell counts an unread alert; /alerts shows it, resolves it and mutes a rule", async ({ page, request }) => {
        test.setTimeout(180_000);
        await connectDemoAccount(page, request);
        await page.setViewportSize(viewport);
        const title = `Spend spike planted ${randomUUID().slice(0, 8)}`;
        plantAlert(title);
        await page.goto("/dashboard");
        const bell = (await nav(page, phone)).getByRole("link", { name: /^Alerts/ });
        await expect(bell.getByTestId("alert-count")).toHaveText(/^\d+ unread$/);
        await bell.click();
        await expect(page).toHaveURL(/\/alerts$/);
        const item = page.getByTestId("alert").filter({ hasText: title });
        await expect(item).toContainText("New");
        await expect(item).toContainText("Northwind Wholesale");
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

        await item.getByRole("button", { name: `Resolve: ${title}` }).click();
        await expect(page.getByTestId("alert").filter({ hasText: title })).toHaveCount(0);
        await page.getByRole("link", { name: "Resolved", exact: true }).click();
        await expect(page.getByTestId("alert").filter({ hasText: title })).toContainText("resolved by a person");

        // Another alert of the same rule and account; muting the rule there hides it, for this person only.
        const second = `${title} again`;
        plantAlert(second);
        await page.goto("/alerts");
        const again = page.getByTestId("alert").filter({ hasText: second });
        await again.getByRole("button", { name: /^Mute Spend spike for / }).click();
        await expect(page.getByTestId("alert").filter({ hasText: second })).toHaveCount(0);
        await expect(page.getByRole("heading", { name: "Muted" })).toBeVisible();
        await page.getByRole("link", { name: "Show muted" }).click();
        await expect(page.getByTestId("alert").filter({ hasText: second })).toContainText("muted");
      });
    });
  }
}
