import { expect, test } from "./fixtures";

test("the sidebar lists the five screens and highlights the active one", async ({ signedInPage: page }) => {
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, path, heading] of [
    ["Dashboard", "/dashboard", "Dashboard"],
    ["Campaigns", "/campaigns", "Campaigns"],
    ["AI Optimizer", "/ai-optimizer", "AI Optimizer"],
    ["Ad Generator", "/ad-generator", "Ad Generator"],
    ["History", "/history", "Change History"],
  ] as const) {
    await nav.getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  }
});

test("dashboard, unconnected: the seed's cards and Getting Started", async ({ signedInPage: page }) => {
  const card = (name: string) => page.getByRole("region", { name });
  await expect(card("Active Campaigns")).toContainText("-");
  await expect(card("Active Campaigns")).toContainText("Connect Google Ads account");
  await expect(card("Total Spend")).toContainText("$0");
  await expect(card("AI Optimizations")).toContainText("0");
  await expect(card("Performance Score")).toContainText("AI analysis");
  const steps = page.getByRole("region", { name: "Getting Started" }).getByRole("listitem");
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText("Connect Google Ads Account");
  await expect(steps.nth(1)).toHaveClass(/opacity-50/);
  await expect(steps.nth(2)).toHaveClass(/opacity-50/);
  await expect(steps.nth(0)).not.toHaveClass(/opacity-50/);
});

test("campaigns and history, unconnected: the seed's empty states", async ({ signedInPage: page }) => {
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "No Campaigns Yet" })).toBeVisible();
  await expect(page.getByText("Connect your Google Ads account to view and manage campaigns")).toBeVisible();
  await expect(page.getByRole("link", { name: "Connect Google Ads" })).toHaveAttribute("href", /^\/api\/v1\/auth\/google/);
  await page.goto("/history");
  await expect(page.getByRole("heading", { name: "No History Yet" })).toBeVisible();
  for (const item of ["Bid adjustments", "Keyword additions and removals", "Ad copy changes", "Budget modifications", "AI optimization actions"]) {
    await expect(page.getByText(item)).toBeVisible();
  }
});

test("chat: thinking for about a second, then the connect-first reply", async ({ signedInPage: page }) => {
  await page.goto("/ai-optimizer");
  await expect(page.getByText("AI Assistant Ready")).toBeVisible();
  const send = page.getByRole("button", { name: "Send" });
  await expect(send).toBeDisabled();
  await page.getByLabel("Message").fill("   ");
  await expect(send).toBeDisabled();
  await page.getByLabel("Message").fill("How are my campaigns doing?");
  await expect(send).toBeEnabled();
  const started = Date.now();
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByText("AI is thinking...")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("");
  await expect(send).toBeDisabled();
  await expect(page.locator('[data-role="user"]')).toContainText("How are my campaigns doing?");
  await expect(page.locator('[data-role="assistant"]')).toContainText("connect your Google Ads account first");
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  await expect(page.getByText("AI is thinking...")).toHaveCount(0);
});

test("ad generator: Generating... for about 2 s, then 3 ads", async ({ signedInPage: page }) => {
  await page.goto("/ad-generator");
  await expect(page.getByText("Ready to Generate")).toBeVisible();
  await expect(page.getByLabel("Tone")).toHaveValue("professional");
  // Only responsive search ads are made: the seed's Ad Type select is gone (issue 29, ADR 026).
  await expect(page.getByLabel("Ad Type")).toHaveCount(0);
  const button = page.getByRole("button", { name: "Generate Ad Copy" });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription("Fill in Product/Service and Target Audience to generate.");
  await page.getByLabel("Product/Service").fill("hiking boots");
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription("Fill in Target Audience to generate.");
  await page.getByLabel("Target Audience").fill("weekend hikers");
  await page.getByLabel("Tone").selectOption("urgent");
  await button.click();
  await expect(page.getByRole("button", { name: "Generating..." })).toBeDisabled();
  const ads = page.getByTestId("generated-ad");
  await expect(ads).toHaveCount(3, { timeout: 5000 });
  await expect(ads.first()).toContainText("Hiking Boots");
  for (let i = 0; i < 3; i++) {
    const ad = ads.nth(i);
    expect((await ad.locator("h3").innerText()).length).toBeLessThanOrEqual(30);
    await expect(ad.getByRole("button", { name: "Copy" })).toBeVisible();
    await expect(ad.getByRole("button", { name: "Edit" })).toBeVisible();
    await expect(ad.getByRole("link", { name: "Use in Campaign" })).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Generate Ad Copy" })).toBeEnabled();
});
