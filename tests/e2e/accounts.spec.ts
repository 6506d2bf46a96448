import { expect, newUser, signInViaForm, test, type TestUser } from "./fixtures";

// Issue 25 points 7, 8 and 9 (the accounts part), against the built server, JavaScript on and off.

const LOOPBACK_IP = (baseURL: string) => baseURL.replace("://localhost:", "://127.0.0.1:");

async function signInAt(page: import("@playwright/test").Page, origin: string, user: TestUser, javaScriptEnabled: boolean) {
  await page.goto(`${origin}/login`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    // Point 7: signed in at 127.0.0.1 while APP_URL is localhost, "Connect Google Ads" ended signed in as the Google user.
    test("connecting Google Ads from another host name stops with an explanation and keeps the person signed in", async ({ page, user, baseURL }) => {
      const origin = LOOPBACK_IP(baseURL!);
      await signInAt(page, origin, user, javaScriptEnabled);
      await page.goto(`${origin}/settings`);
      await page.getByRole("link", { name: "Connect Google Ads" }).click();
      await expect(page).toHaveURL(`${origin}/settings`);
      const explanation = /Google Ads can only be connected at http:\/\/localhost:\d+/;
      if (javaScriptEnabled) await expect(page.getByRole("status").filter({ hasText: explanation })).toBeVisible();
      else await expect(page.getByTestId("flash")).toHaveText(explanation);
      // Still the same person, still not connected, and never the demo Google user.
      await expect(page.locator("aside")).toContainText(user.email);
      await expect(page.getByText("Not connected.")).toBeVisible();
      await expect(page.locator("aside")).not.toContainText("demo.advertiser@example.com");
    });

    // Point 8: one message for a failed sign-in, not a toast and a banner.
    test("a wrong password is said once, above the form", async ({ page, user }) => {
      await page.goto("/login");
      if (javaScriptEnabled) await page.waitForLoadState("networkidle");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill("wrong-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
      await expect(page.getByText("Invalid email or password")).toHaveCount(1);
      await expect(page).toHaveURL(/\/login$/);
    });

    test("the create-account mode has its own title, and the page says it is a demo", async ({ page }) => {
      await page.goto("/login");
      await expect(page).toHaveTitle("Sign in · Google Ads AI Manager");
      await expect(page.getByTestId("demo-mode")).toContainText("Demo mode.");
      await page.getByRole("link", { name: "Create account" }).click();
      await expect(page).toHaveTitle("Create account · Google Ads AI Manager");
      await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
      // The seed's texts stay.
      await expect(page.getByRole("heading", { name: "Google Ads AI Manager" })).toBeVisible();
      await expect(page.getByText("Requires Google Ads API access")).toBeVisible();
    });

    // Point 9: password reset (the full mailed flow is tests/integration/password-reset.test.ts).
    test("Forgot password answers the same for any address, and a bad link says so", async ({ page, user }) => {
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      for (const email of [user.email, newUser().email]) {
        await page.goto("/forgot-password");
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await page.getByLabel("Email").fill(email);
        await page.getByRole("button", { name: "Send reset link" }).click();
        await expect(page.getByRole("status")).toHaveText(
          "If an account uses this address, we sent it a link to choose a new password. The link works for 1 hour.",
        );
      }
      await page.goto("/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
      await expect(page.getByRole("alert")).toHaveText(/invalid, expired or already used/);
      await page.getByRole("link", { name: "Ask for a new link" }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
    });

    test("/settings lists the signed-in devices, and Sign out everywhere ends them all", async ({ browser, page, user }) => {
      const elsewhere = await browser.newContext();
      const other = await elsewhere.newPage();
      await signInViaForm(other, user);
      await signInViaForm(page, user);
      await page.goto("/settings");
      const sessions = page.getByRole("list", { name: "Active sessions" }).getByRole("listitem");
      await expect(sessions).toHaveCount(2);
      await expect(sessions.filter({ hasText: "This device" })).toHaveCount(1);
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await other.goto("/dashboard");
      await expect(other).toHaveURL(/\/login$/);
      await elsewhere.close();
    });
  });
}
