import { expect, mirroredToken, newUser, signInViaForm, test } from "./fixtures";

test.describe("signed out", () => {
  for (const path of ["/", "/dashboard", "/campaigns", "/ai-optimizer", "/ad-generator", "/history"]) {
    test(`${path} redirects to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test("an unknown URL is a real 404 page", async ({ page }) => {
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("the login screen shows the seed's texts and the Google link", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Google Ads AI Manager" })).toBeVisible();
    await expect(page.getByText("AI-powered Google Ads optimization platform")).toBeVisible();
    const google = page.getByRole("link", { name: "Sign in with Google Ads" });
    await expect(google).toHaveAttribute("href", "/api/v1/auth/google");
    await expect(page.getByText("Requires Google Ads API access")).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });
});

test.describe("registration", () => {
  test("creates an account, reports success and does not sign in", async ({ page }) => {
    const user = newUser();
    await page.goto("/login");
    // Typing before hydration can be reset by it (and a click before it submits natively): wait for the scripts.
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Create account" }).click();
    // The sign-up form replaces the sign-in one (a new form): typing into the old one would be lost.
    await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Check your email" }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem("auth-token"))).toBeNull();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a duplicate email gets the same answer as a new one, and its password does not work", async ({ page, user }) => {
    await page.goto("/login?mode=register");
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Email").fill(user.email.toUpperCase());
    await page.getByLabel("Password").fill("another-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Check your email" }).first()).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("another-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  });

  // /login is checked by the server only (no zod in its JavaScript, ADR 008 amendment): the same answer with JavaScript on and off.
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled });

      test("a short password is refused next to the field", async ({ page }) => {
        const email = newUser().email;
        await page.goto("/login?mode=register");
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Password").fill("short");
        await page.getByRole("button", { name: "Create account" }).click();
        await expect(page.getByText("Password must be at least 8 characters").first()).toBeVisible();
        const password = page.getByLabel("Password");
        await expect(password).toHaveAttribute("aria-invalid", "true");
        await expect(password).toHaveAccessibleDescription("Password must be at least 8 characters");
        // Said next to the field, not again in a banner above the form.
        await expect(page.getByRole("alert")).toHaveCount(0);
        await expect(page.getByLabel("Email")).toHaveValue(email);
        // Without JavaScript the page is new: what was typed comes back from the server, except the password.
        if (!javaScriptEnabled) await expect(password).toHaveValue("");
      });

      test("signing in lands on the page asked for while signed out", async ({ page, user }) => {
        await page.goto("/campaigns?status=paused");
        await expect(page).toHaveURL(/\/login$/);
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await page.getByLabel("Email").fill(user.email);
        await page.getByLabel("Password").fill(user.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await expect(page).toHaveURL(/\/campaigns\?status=paused$/);
        // Once: the next sign-in goes to the dashboard again.
        await page.getByRole("button", { name: "Logout" }).click();
        await expect(page).toHaveURL(/\/login$/);
        await signInViaForm(page, user);
      });

      test("a blank sign-in names each missing field", async ({ page }) => {
        await page.goto("/login");
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await page.getByRole("button", { name: "Sign in" }).click();
        await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Email is required");
        await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
        await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Password is required");
        await expect(page).toHaveURL(/\/login$/);
      });
    });
  }
});

test.describe("sign in", () => {
  test("goes to the dashboard and mirrors the session's token into localStorage", async ({ page, user, request }) => {
    await signInViaForm(page, user);
    await expect(page).not.toHaveURL(/token=/);
    await mirroredToken(page);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem("auth-token"),
      state: JSON.parse(localStorage.getItem("auth-storage") ?? "null"),
    }));
    expect(stored.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(stored.state).toEqual({ user: { email: user.email }, token: stored.token, isAuthenticated: true });
    const me = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${stored.token}` } });
    expect(await me.json()).toEqual({ email: user.email });
  });

  test("a wrong password shows the server's detail (once: accounts.spec.ts)", async ({ page, user }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("/ redirects to /dashboard once signed in, and /login does too", async ({ signedInPage: page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("logout ends the session server-side and clears both storage keys", async ({ signedInPage: page, request }) => {
    const token = await mirroredToken(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem("auth-token"), localStorage.getItem("auth-storage")])).toEqual([null, null]);
    const me = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a corrupt auth-storage is logged and the app goes on", async ({ signedInPage: page }) => {
    // Corrupt the mirror only after the hydrated app wrote it, or its write
    // overwrites the corruption and nothing is left to log after the reload.
    await mirroredToken(page);
    await page.evaluate(() => localStorage.setItem("auth-storage", "{not json"));
    const logged = page.waitForEvent("console", (msg) => msg.type() === "error" && msg.text() === "Failed to parse auth token");
    await page.reload();
    await logged;
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    // The app goes on: navigation still works and the mirror is cleaned up.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).click();
    await expect(page.getByRole("heading", { name: "Change History" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("auth-storage"))).toBeNull();
  });

  test("someone else's ?token= is stripped and never mirrored or trusted", async ({ browser, user, request }) => {
    const other = newUser();
    await request.post("/api/v1/auth/register", { data: other });
    const login = await request.post("/api/v1/auth/login", { data: other });
    const { access_token: foreign } = await login.json();

    // Signed out: a token link signs nobody in.
    const anon = await browser.newPage();
    await anon.goto(`/dashboard?token=${foreign}`);
    await expect(anon).toHaveURL(/\/login$/);
    expect(await anon.evaluate(() => localStorage.getItem("auth-token"))).toBeNull();

    // Signed in as someone else: the foreign token is stripped and not mirrored.
    const page = await browser.newPage();
    await signInViaForm(page, user);
    const own = await mirroredToken(page);
    await page.goto(`/campaigns?token=${foreign}`);
    await expect(page).toHaveURL(/\/campaigns$/);
    expect(await page.evaluate(() => localStorage.getItem("auth-token"))).toBe(own);
  });
});
