import type { Page } from "@playwright/test";
import { expect, signInViaForm, test } from "./fixtures";

// Runs in its own Playwright project, after all others: revoking the demo
// Google user's grants would break any test signed in with it at the same time.
const DEMO_EMAIL = "demo.advertiser@example.com";

async function consent(page: Page) {
  await expect(page.getByRole("heading", { name: /wants access to your Google Account/ })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
}

test("access revoked at Google: a Reconnect banner, and Reconnect restores the connection", async ({ page, user, request }) => {
  await signInViaForm(page, user);
  await page.goto("/api/v1/auth/google?returnTo=/settings");
  await consent(page);
  await expect(page).toHaveURL(/\/settings$/);
  // Another test's grant may be live too: revoke-all models the user removing the app at Google.
  const revoked = await request.post("/emulator/__emulator/revoke-all", { data: { email: DEMO_EMAIL } });
  expect(revoked.ok()).toBe(true);
  await page.getByRole("button", { name: "Reload accounts" }).click();
  const banner = page.getByRole("alert").filter({ hasText: "Google Ads needs to be reconnected" });
  await expect(banner).toBeVisible();
  await banner.getByRole("link", { name: "Reconnect" }).click();
  await consent(page);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("alert").filter({ hasText: "needs to be reconnected" })).toHaveCount(0);
});
