import type { APIRequestContext, Page } from "@playwright/test";
import { expect as baseExpect, newUser, type TestUser } from "./fixtures";

/**
 * A sync of the demo account (started by a page view every 5 minutes, or by
 * Sync now in another test) keeps the single server process busy for several
 * seconds, so assertions in these specs wait longer than the suite default.
 */
export const expect = baseExpect.configure({ timeout: 25_000 });

/** The demo account with the planted campaigns (see emulator/ads/demo/PLANTED.md). */
export const RICH_CUSTOMER_ID = "1112223334";
export const RICH_ACCOUNT_NAME = "Northwind Outdoor Gear";
export const SMALL_CUSTOMER_ID = "5556667778";

export interface ConnectedUser extends TestUser {
  token: string;
}

/**
 * A fresh password user who connects the demo Google account through the
 * emulator's consent screen. Each test gets its own app user (and so its own
 * active account): the demo Google sign-in itself maps to one shared user that
 * other specs switch between accounts. Waits until the demo account's data has
 * been imported once (the first sync of a run takes a few seconds).
 */
export async function connectDemoAccount(page: Page, request: APIRequestContext, returnTo = "/campaigns"): Promise<ConnectedUser> {
  const user = newUser();
  expect((await request.post("/api/v1/auth/register", { data: user })).status()).toBe(201);
  await page.goto("/login");
  // Under load, hydration can land after the typing and reset the fields: type until the form has taken them.
  await expect(async () => {
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Sign in" }).click();
  // No ?token= in the address, JavaScript on or off (the server hands the token over; ADR 012).
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/api/v1/auth/google?returnTo=${encodeURIComponent(returnTo)}`);
  await expect(page.getByRole("heading", { name: /wants access to your Google Account/ })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(new RegExp(`${returnTo.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText(RICH_ACCOUNT_NAME);

  const login = await request.post("/api/v1/auth/login", { data: user });
  expect(login.status()).toBe(200);
  const { access_token: token } = (await login.json()) as { access_token: string };
  // The API answers an account's first request only once its data is imported.
  const warm = await request.get(`/api/v1/accounts/${RICH_CUSTOMER_ID}/summary`, {
    headers: { Authorization: `Bearer ${token}` },
    timeout: 120_000,
  });
  expect(warm.status()).toBe(200);
  await waitForDetailImport(request, token, RICH_CUSTOMER_ID);
  return { ...user, token };
}

/**
 * Waits until the account's keyword, ad and search-term performance is in. A
 * first sync makes the campaigns available first (status "ok", which is when
 * the API's first answer comes) and imports those right after, then runs the
 * recommendations engine: specs that look at them wait for this.
 */
export async function waitForDetailImport(request: APIRequestContext, token: string, customerId: string) {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/accounts/${customerId}/sync`, { headers: { Authorization: `Bearer ${token}` } });
        return res.ok() ? ((await res.json()) as { detail: { status: string } }).detail.status : `HTTP ${res.status()}`;
      },
      { timeout: 120_000 },
    )
    .toBe("ok");
}

/** The visible body rows of the campaigns table (the totals row is in the footer). */
export function campaignRows(page: Page) {
  return page.getByRole("table", { name: /^Campaigns of / }).locator("tbody tr");
}

/** Campaign names in table order. */
export async function campaignNames(page: Page): Promise<string[]> {
  return page
    .getByRole("table", { name: /^Campaigns of / })
    .locator("tbody th[scope=row]")
    .allInnerTexts();
}

/** A money cell ("$1,234.56", "€0.00") as a number. */
export function money(text: string): number {
  return Number(text.replace(/[^0-9.-]/g, ""));
}

/** Ticked rows on the campaign list: the first two campaigns, "Pause selected" → the proposal's review page (nothing applied). */
export async function proposePausingTwoCampaigns(page: Page) {
  await page.goto("/campaigns");
  const boxes = page
    .getByRole("table", { name: /^Campaigns of / })
    .locator("tbody tr")
    .getByRole("checkbox");
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByRole("form", { name: "Change selected campaigns" }).getByRole("button", { name: "Pause selected" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pause 2 campaigns");
}
