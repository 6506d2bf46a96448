import type { Page } from "@playwright/test";
import { expect, mirroredToken, signInViaForm, test } from "./fixtures";

const DEMO_EMAIL = "demo.advertiser@example.com";

async function consent(page: Page, opts: { allow?: boolean; untickAds?: boolean } = {}) {
  await expect(page.getByRole("heading", { name: /wants access to your Google Account/ })).toBeVisible();
  await expect(page.getByText(DEMO_EMAIL).first()).toBeVisible();
  if (opts.untickAds) await page.getByRole("checkbox").first().uncheck();
  await page.getByRole("button", { name: opts.allow === false ? "Cancel" : "Allow" }).click();
}

test.describe("Sign in with Google Ads (demo mode)", () => {
  test("full round trip: consent, session, token mirrored, accounts listed", async ({ page, request }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with Google Ads" }).click();
    await expect(page).toHaveURL(/\/emulator\/o\/oauth2\/v2\/auth\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.get("scope")).toBe("openid email https://www.googleapis.com/auth/adwords");
    await consent(page);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Demo mode:")).toBeVisible();
    // Mirrored after hydration, which on the connected dashboard can come after the text is visible.
    const token = await mirroredToken(page);
    const state = await page.evaluate(() => JSON.parse(localStorage.getItem("auth-storage") ?? "null"));
    expect(state).toEqual({ user: { email: DEMO_EMAIL }, token, isAuthenticated: true });

    const res = await request.get("/api/v1/accounts", { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    const { accounts } = await res.json();
    expect(accounts).toEqual(
      expect.arrayContaining([
        { customerId: "1234567890", name: "Northwind Digital (MCC)", currencyCode: "USD", timeZone: "America/New_York", manager: true },
        expect.objectContaining({ customerId: "1112223334", manager: false }),
        expect.objectContaining({ customerId: "5556667778", currencyCode: "EUR", manager: false }),
      ]),
    );
    for (const a of accounts) expect(a.customerId).toMatch(/^\d{10}$/);

    await page.getByRole("link", { name: "Account settings" }).click();
    await expect(page.getByText(`Connected as ${DEMO_EMAIL}`)).toBeVisible();
    await expect(page.getByLabel(/Northwind Outdoor Gear/)).toBeChecked();
    await page.getByLabel(/Northwind Bakery Berlin/).check();
    await page.getByRole("button", { name: "Use selected account" }).click();
    await expect(page.getByLabel(/Northwind Bakery Berlin/)).toBeChecked();
    await expect(page.getByRole("link", { name: "Account settings" })).toContainText("Northwind Bakery Berlin");
  });

  test("Cancel on the consent screen: back to /login with a clear message, nothing stored", async ({ page }) => {
    await page.goto("/api/v1/auth/google");
    await consent(page, { allow: false });
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Google sign-in was cancelled.").first()).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("signing in with Google lands on the page asked for while signed out", async ({ page }) => {
    await page.goto("/campaigns?status=paused");
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole("link", { name: "Sign in with Google Ads" }).click();
    await consent(page);
    await expect(page).toHaveURL(/\/campaigns\?status=paused$/);
    await expect(page.getByRole("heading", { name: "Campaigns", exact: true })).toBeVisible();
  });

  test("without JavaScript, the same message shows as a banner on the page it lands on", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/api/v1/auth/google");
    await consent(page, { allow: false });
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId("flash")).toHaveText("Google sign-in was cancelled.");
    // A flash shows once: the next page has none.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Google Ads AI Manager" })).toBeVisible();
    await expect(page.getByTestId("flash")).toHaveCount(0);
    await context.close();
  });

  test("Unticking the Ads scope is refused with a clear message", async ({ page }) => {
    await page.goto("/api/v1/auth/google");
    await consent(page, { untickAds: true });
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(/Google Ads access was not granted/).first()).toBeVisible();
  });

  test("a forged state is refused without a session", async ({ page }) => {
    await page.goto("/api/v1/auth/google/callback?state=forged&code=4%2Ffake");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(/could not be verified/).first()).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a password user connects Google Ads from Campaigns and can disconnect it", async ({ page, user }) => {
    await signInViaForm(page, user);
    await page.getByRole("link", { name: "Campaigns" }).click();
    // The Dashboard has a "Connect Google Ads" link too: wait until Campaigns has loaded.
    await expect(page.getByRole("heading", { name: "No Campaigns Yet" })).toBeVisible();
    await page.getByRole("link", { name: "Connect Google Ads" }).click();
    await consent(page);
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(page.getByText("Google Ads connected").first()).toBeVisible();

    await page.getByRole("link", { name: "Account settings" }).click();
    await expect(page.getByText(`Connected as ${DEMO_EMAIL}`)).toBeVisible();
    // Still the password user's own session.
    await expect(page.locator("aside")).toContainText(user.email);
    await page.getByRole("button", { name: "Disconnect Google Ads" }).click();
    await expect(page.getByText("Not connected.")).toBeVisible();
  });
});
