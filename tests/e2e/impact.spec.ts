import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect, RICH_CUSTOMER_ID } from "./ads-fixtures";

// Did it work? (issue 33): History shows each applied change set's measured
// effect with its small chart, the change set's page the whole record, and the
// Dashboard's AI Optimizations card the money measured this month — with
// JavaScript on and off.
//
// A change's effect is measured from 7 days after it, and no test can wait
// weeks: the past is written into the main server's database, as the change
// pipeline leaves it once Google applied a change. It is the demo's own past:
// Search | Trail Running stopped serving 21 days ago (emulator/ads/demo), and
// here that pause is the assistant's, applied then. Ski & Snow's budget change
// two days ago is too early to tell.

const DB_FILE = path.join(process.env.E2E_DATA_DIR!, "app.db");
const TZ = "America/New_York";
const PAUSE_ID = "7e57a000-0000-4000-8000-000000000021";
const BUDGET_ID = "7e57a000-0000-4000-8000-000000000002";

/** 11:00 in the account's zone, `days` days ago, as UTC ISO. */
function daysAgo(days: number): string {
  const day = new Date(Date.now() - days * 86_400_000).toLocaleDateString("en-CA", { timeZone: TZ });
  const noonUtc = new Date(`${day}T16:00:00.000Z`);
  return noonUtc.toISOString();
}

/** The applied change sets this spec measures, once per run (both users see the account's history). */
function seedPast(email: string) {
  const db = new Database(DB_FILE);
  db.pragma("busy_timeout = 15000");
  try {
    const user = db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: string };
    const campaign = (name: string) =>
      db.prepare("SELECT id, budget_resource_name FROM ads_campaigns WHERE customer_id = ? AND name = ?").get(RICH_CUSTOMER_ID, name) as {
        id: string;
        budget_resource_name: string;
      };
    const insert = (id: string, title: string, source: string, at: string, change: { kind: string; rn: string; before: object; after: object }) => {
      db.prepare(
        `INSERT OR IGNORE INTO change_sets (id, user_id, customer_id, source, source_detail, title, status, atomic, needs_confirmation, revert_of, created_at, validated_at, approved_at, applied_at, error, recommendation_id)
         VALUES (?, ?, ?, ?, NULL, ?, 'applied', 1, 0, NULL, ?, ?, ?, ?, NULL, NULL)`,
      ).run(id, user.id, RICH_CUSTOMER_ID, source, title, at, at, at, at);
      // A change set's page is its owner's: the specs run one at a time, each as its own user.
      db.prepare("UPDATE change_sets SET user_id = ? WHERE id = ?").run(user.id, id);
      db.prepare(
        `INSERT OR IGNORE INTO changes (id, change_set_id, seq, resource_kind, operation, resource_name, label, before_json, after_json, operation_json, status, error_code, error_message, field_path, result_resource_name, request_id, applied_at)
         VALUES (?, ?, 0, ?, 'update', ?, ?, ?, ?, ?, 'applied', NULL, NULL, NULL, NULL, NULL, ?)`,
      ).run(
        id.replace(/^7e57a/, "7e57c"),
        id,
        change.kind,
        change.rn,
        title,
        JSON.stringify(change.before),
        JSON.stringify(change.after),
        JSON.stringify({ update: { resourceName: change.rn } }),
        at,
      );
    };
    const trail = campaign("Search | Trail Running");
    insert(PAUSE_ID, "Pause Search | Trail Running", "assistant", daysAgo(21), {
      kind: "campaign",
      rn: `customers/${RICH_CUSTOMER_ID}/campaigns/${trail.id}`,
      before: { status: "ENABLED" },
      after: { status: "PAUSED" },
    });
    const ski = campaign("Search | Ski & Snow");
    insert(BUDGET_ID, "Budget of Search | Ski & Snow", "user", daysAgo(2), {
      kind: "campaign_budget",
      rn: ski.budget_resource_name,
      before: { amountMicros: 50_000_000 },
      after: { amountMicros: 55_000_000 },
    });
  } finally {
    db.close();
  }
}

const historyRow = (page: Page, title: string) =>
  page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: title, exact: true }) })
    .first();

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("History, the change set's page and the Dashboard show the measured effect", async ({ page, request }) => {
      test.setTimeout(180_000);
      const user = await connectDemoAccount(page, request, "/dashboard");
      seedPast(user.email);

      await page.goto("/history");
      const paused = historyRow(page, "Pause Search | Trail Running");
      const effect = paused.getByTestId("impact-summary");
      await expect(effect).toContainText("Measured effect");
      // Its traffic stopped: every cent of its cost went, whatever the rest of the account did.
      await expect(effect).toContainText(/Over 14 days: cost −\$[\d,]+ a month \(−100 %, 90 % interval −100 % to −100 %\)/);
      await expect(
        effect.getByRole("img", { name: /^Daily cost from .+: the changed entities \(solid blue\) against comparable untouched ones/ }),
      ).toBeVisible();
      const early = historyRow(page, "Budget of Search | Ski & Snow").getByTestId("impact-summary");
      await expect(early).toContainText("Too early");
      await expect(early).toContainText(/^Too earlyMeasured from [A-Z][a-z]{2} \d{1,2}, \d{4}/);

      await effect.getByRole("link", { name: "How it was measured" }).click();
      await expect(page).toHaveURL(new RegExp(`/changes/${PAUSE_ID}#impact$`));
      const section = page.getByRole("region", { name: "Did it work?" });
      await expect(section.getByTestId("impact-headline")).toHaveText(/^Over 14 days: cost −\$[\d,]+ a month \(−100 %/);
      await expect(section.getByRole("table", { name: /^7 days after/ })).toBeVisible();
      await expect(section.getByRole("table", { name: /^14 days after .* measured effect$/ })).toBeVisible();
      await expect(section.getByRole("img", { name: /^Daily cost from/ })).toBeVisible();
      await section.getByText("How it was measured", { exact: true }).click();
      await expect(section).toContainText(/Compared with: \d+ untouched campaigns/);
      await expect(section).toContainText("Method: difference-in-differences on daily figures");

      // The card: money measured on this month's days. The pause's 14 measured days end 7 days ago,
      // in the month before during a month's first 7 days.
      await page.goto("/dashboard");
      const card = page.getByRole("region", { name: "AI Optimizations" });
      const dayOfMonth = Number(new Date().toLocaleDateString("en-CA", { timeZone: TZ }).slice(8, 10));
      if (dayOfMonth >= 8) {
        await expect(card.getByTestId("ai-measured-money")).toHaveText(/^−?\$[\d,]+$/);
        await expect(card.getByTestId("ai-measured-money")).not.toHaveText("$0");
        await expect(card.getByTestId("ai-applied")).toContainText(/^Measured: saved \$[\d,]+, (earned|lost) \$[\d,]+ · \d+ applied this month$/);
      } else {
        await expect(card.getByTestId("ai-measured-money")).toHaveText("$0");
      }
    });
  });
}

test("GET /api/v1/change-sets/{id}/impact answers the same record", async ({ page, request }) => {
  const user = await connectDemoAccount(page, request, "/dashboard");
  seedPast(user.email);
  const res = await request.get(`/api/v1/change-sets/${PAUSE_ID}/impact`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status()).toBe(200);
  const { impact } = (await res.json()) as { impact: { verdict: string; headline: string; control: { count: number } } };
  expect(impact.verdict).toBe("effect");
  expect(impact.control.count).toBeGreaterThan(3);
});

test("at 390 px and 1440 px the verdicts fit: the pages never scroll sideways", async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await connectDemoAccount(page, request, "/dashboard");
  seedPast(user.email);
  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    for (const url of ["/history", `/changes/${PAUSE_ID}`, "/dashboard", "/dashboard/score"]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, `${url} at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(innerWidth);
      if (process.env.IMPACT_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.IMPACT_SCREENSHOTS}/${url.split("/")[1]}-${url.split("/").length}-${size.width}.png`, fullPage: true });
    }
  }
});
