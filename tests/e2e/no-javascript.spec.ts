import { expect, newUser, test } from "./fixtures";

// Every form works with JavaScript off: the server renders each result.
test.use({ javaScriptEnabled: false });

test("register, sign in, use every screen and log out without JavaScript", async ({ page }) => {
  const user = newUser();
  await page.goto("/login");
  await page.getByRole("link", { name: "Create account" }).click();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText("Check your email");

  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");

  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  await page.getByRole("link", { name: "AI Optimizer" }).click();
  await page.getByLabel("Message").fill("Which keywords waste money?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator('[data-role="user"]')).toContainText("Which keywords waste money?");
  await expect(page.locator('[data-role="assistant"]')).toContainText("connect your Google Ads account first");
  await page.getByLabel("Message").fill("And budgets?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator('[data-role="user"]')).toHaveCount(2);

  await page.getByRole("link", { name: "Ad Generator" }).click();
  await page.getByLabel("Product/Service").fill("trail running shoes");
  await page.getByLabel("Target Audience").fill("marathon runners");
  await page.getByRole("button", { name: "Generate Ad Copy" }).click();
  await expect(page.getByTestId("generated-ad")).toHaveCount(3);
  await expect(page.getByTestId("generated-ad").first()).toContainText("Trail Running Shoes");

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("the generator refuses blank fields with field errors", async ({ page, user }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.goto("/ad-generator");
  // Spaces pass the browser's own `required` check; the server still refuses them.
  await page.getByLabel("Product/Service").fill("   ");
  await page.getByLabel("Target Audience").fill("   ");
  await page.getByRole("button", { name: "Generate Ad Copy" }).click();
  await expect(page.getByText("Product/Service is required")).toBeVisible();
  await expect(page.getByText("Target Audience is required")).toBeVisible();
});
