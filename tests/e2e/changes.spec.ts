import type { APIRequestContext, Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, SMALL_CUSTOMER_ID, expect, proposePausingTwoCampaigns, waitForDetailImport, type ConnectedUser } from "./ads-fixtures";

// Change sets against the demo bakery account (EUR). Every spec that changes
// something reverts it, so the shared emulator account ends as it began.

const CAKES = "Suche | Torten & Kuchen";

async function useBakery(page: Page, request: APIRequestContext): Promise<ConnectedUser> {
  // The first test here waits for the bakery's first sync (made active below): room for a busy machine.
  test.slow();
  const user = await connectDemoAccount(page, request);
  await page.goto("/settings");
  await page.getByLabel(/Northwind Bakery Berlin/).check();
  await page.getByRole("button", { name: "Use selected account" }).click();
  await expect(page.getByRole("link", { name: "Account settings" })).toContainText("Northwind Bakery Berlin");
  const warm = await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/summary`, { headers: { Authorization: `Bearer ${user.token}` }, timeout: 120_000 });
  expect(warm.status()).toBe(200);
  await waitForDetailImport(request, user.token, SMALL_CUSTOMER_ID);
  return user;
}

async function openCampaign(page: Page, name: string, tab?: string) {
  await page.goto("/campaigns");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  if (tab) {
    await page
      .getByRole("navigation", { name: "Campaign sections" })
      .getByRole("link", { name: new RegExp(`^${tab}`) })
      .click();
    await expect(page).toHaveURL(/tab=/);
  }
}

const settings = (page: Page) => page.getByRole("region", { name: "Campaign settings" });
const changesTable = (page: Page) => page.getByRole("table", { name: "Changes in this change set" });

/** The new-ad form's three headlines (the third always the same) and two descriptions. */
async function fillNewAd(page: Page, headline1: string, headline2: string) {
  await page.getByLabel("Headline 1", { exact: true }).fill(headline1);
  await page.getByLabel("Headline 2", { exact: true }).fill(headline2);
  await page.getByLabel("Headline 3", { exact: true }).fill("Order Online Today");
  await page.getByLabel("Description 1", { exact: true }).fill("Baked every morning in Berlin with local butter and flour.");
  await page.getByLabel("Description 2", { exact: true }).fill("Pick up in store or get it delivered the same day.");
}

async function applyHere(page: Page, applied: RegExp) {
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: applied })).toBeVisible();
}

test("pause a campaign: review with Google's validation, apply, see it in history, revert it", async ({ page, request }) => {
  const user = await useBakery(page, request);
  await openCampaign(page, CAKES);
  await expect(settings(page).getByText("Enabled", { exact: true })).toBeVisible();
  await settings(page).getByRole("button", { name: "Pause campaign" }).click();

  // The review: before → after, Google's verdict, nothing sent yet.
  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pause Campaign “${CAKES}”`);
  await expect(page.getByRole("status").filter({ hasText: "Google validated the change." })).toBeVisible();
  const row = changesTable(page).getByRole("row", { name: new RegExp(CAKES.replace(/[|&]/g, ".")) });
  await expect(row).toContainText("Status: Enabled → Paused");
  await expect(row).toContainText("Accepted by Google (validated)");
  await page.goto("/campaigns");
  await expect(page.getByRole("row", { name: new RegExp(CAKES.replace(/[|&]/g, ".")) })).toContainText("Enabled");
  await page.goBack();

  await applyHere(page, /Applied at Google: 1 change/);
  await expect(changesTable(page)).toContainText("Applied");
  await openCampaign(page, CAKES);
  await expect(settings(page).getByText("Paused", { exact: true })).toBeVisible();
  await expect(settings(page).getByRole("button", { name: "Enable campaign" })).toBeVisible();

  // History: when, who, what, before → after, status, Revert.
  await page.goto("/history");
  await expect(page.getByRole("heading", { name: "Change History" })).toBeVisible();
  const entry = page
    .getByRole("row")
    .filter({ hasText: `Pause Campaign “${CAKES}”` })
    .first();
  await expect(entry).toContainText(user.email);
  await expect(entry).toContainText("Ads AI Manager");
  await expect(entry).toContainText("Status: Enabled → Paused");
  await expect(entry).toContainText("Applied");
  // Outside changes are imported from change_event with their origin.
  await expect(page.getByText("Google Ads (web)").first()).toBeVisible();

  await entry.getByRole("button", { name: /^Revert/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Revert: Pause Campaign “${CAKES}”`);
  await expect(changesTable(page)).toContainText("Status: Paused → Enabled");
  await applyHere(page, /Applied at Google: 1 change/);
  await openCampaign(page, CAKES);
  await expect(settings(page).getByText("Enabled", { exact: true })).toBeVisible();

  // Filters: our own changes only, then campaigns only, then a name search.
  await page.goto("/history");
  await page.getByLabel("Source", { exact: true }).selectOption("user");
  await page.getByLabel("Resource", { exact: true }).selectOption("campaign");
  await page.getByLabel("Search by name").fill("Torten");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/source=user/);
  const rows = page.getByRole("table", { name: "Change history" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Undo: Pause Campaign");
  // Reverted sets cannot be reverted twice.
  await expect(rows.nth(1).getByRole("button", { name: /^Revert/ })).toHaveCount(0);
});

test("bulk: pause three keywords at once, then undo them together", async ({ page, request }) => {
  await useBakery(page, request);
  await openCampaign(page, CAKES, "Keywords");
  const table = page.getByRole("table", { name: "Keywords" });
  const enabledRows = table.locator("tbody tr").filter({ hasText: "Enabled" }).filter({ hasNotText: "Negative" });
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    const box = enabledRows.nth(i).getByRole("checkbox");
    names.push(((await box.getAttribute("aria-label")) ?? "").replace(/^Select /, ""));
    await box.check();
  }
  await page.getByRole("form", { name: "Change selected keywords" }).getByRole("button", { name: "Pause selected" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pause 3 keywords");
  await expect(changesTable(page).locator("tbody tr")).toHaveCount(3);
  await applyHere(page, /Applied at Google: 3 changes/);
  const review = page.url();

  await openCampaign(page, CAKES, "Keywords");
  for (const name of names) {
    await expect(page.getByRole("row", { name: new RegExp(`^Select ${name.replace(/[()|&[\]"+]/g, ".")}`) })).toContainText("Paused");
  }
  await page.goto(review);
  await page.getByRole("button", { name: "Revert" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Revert: Pause 3 keywords");
  await applyHere(page, /Applied at Google: 3 changes/);
});

test("bad input is refused next to the field and changes nothing: budget 0, a 31-character headline", async ({ page, request }) => {
  await useBakery(page, request);
  await openCampaign(page, CAKES);
  const budget = page.getByRole("form", { name: "Change daily budget" });
  const before = await budget.getByLabel(/Daily budget/).inputValue();
  // The browser runs the action's schema first: a refused amount never leaves the page.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  for (const [value, message] of [
    ["0", "Daily budget must be greater than 0"],
    ["-5", "Daily budget must be greater than 0"],
    ["abc", "Daily budget must be a number"],
  ] as const) {
    await budget.getByLabel(/Daily budget/).fill(value);
    await budget.getByRole("button", { name: "Review budget change" }).click();
    await expect(budget.getByRole("alert")).toHaveText(message);
    await expect(budget.getByLabel(/Daily budget/)).toHaveAttribute("aria-invalid", "true");
    await expect(budget.getByLabel(/Daily budget/)).toHaveAccessibleDescription(message);
    await expect(budget.getByLabel(/Daily budget/)).toBeFocused();
    await expect(page).toHaveURL(/\/campaigns\/\d+$/);
  }
  // Typing a good amount clears the message before anything is sent.
  await budget.getByLabel(/Daily budget/).fill("12.50");
  await expect(budget.getByRole("alert")).toHaveCount(0);
  expect(posts).toEqual([]);
  await page.goto("/history?source=user");
  await expect(page.getByText("Daily budget of")).toHaveCount(0);

  // A large move needs the second confirmation.
  await openCampaign(page, CAKES);
  await budget.getByLabel(/Daily budget/).fill(String(Number(before) * 3));
  await budget.getByRole("button", { name: "Review budget change" }).click();
  await expect(changesTable(page)).toContainText("large change");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "confirm the large change" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Google validated the change." })).toBeVisible();
  await page.getByLabel(/Yes, apply the large change/).check();
  await applyHere(page, /Applied at Google: 1 change/);
  await page.getByRole("button", { name: "Revert" }).click();
  await page.getByLabel(/Yes, apply the large change/).check();
  await applyHere(page, /Applied at Google: 1 change/);
  await openCampaign(page, CAKES);
  await expect(budget.getByLabel(/Daily budget/)).toHaveValue(before);
});

test("create a responsive search ad: limits checked before sending, then reviewed, applied and listed", async ({ page, request }) => {
  await useBakery(page, request);
  await openCampaign(page, CAKES, "Ads");
  await page.getByRole("link", { name: "New responsive search ad" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New responsive search ad" })).toBeVisible();
  const stamp = Date.now().toString(36).slice(-5);
  await fillNewAd(page, "A headline of 31 characters!!!!", `Fresh Cakes ${stamp}`);
  await page.getByLabel(/^Path 1/).fill("torten");
  await page.getByRole("button", { name: "Review new ad" }).click();
  await expect(page.getByText("Headlines can be at most 30 characters")).toBeVisible();
  await expect(page.getByLabel("Headline 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/ads\/new/);

  await page.getByLabel("Headline 1", { exact: true }).fill("Berlin Birthday Cakes");
  await page.getByRole("button", { name: "Review new ad" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^New responsive search ad “Berlin Birthday Cakes” in “/);
  await expect(changesTable(page)).toContainText(`Fresh Cakes ${stamp}`);
  await applyHere(page, /Applied at Google: 1 change/);

  // The new ad arrives with the sync the apply started.
  await expect(async () => {
    await openCampaign(page, CAKES, "Ads");
    await expect(page.getByText(`Fresh Cakes ${stamp}`).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.goto("/history?resourceKind=ad&source=user");
  await expect(page.getByRole("row").filter({ hasText: "New responsive search ad “Berlin Birthday Cakes”" }).first()).toBeVisible();
});

test("without JavaScript: propose, apply and revert through plain forms", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await useBakery(page, request);
  await openCampaign(page, CAKES);
  // The server runs the same schema: the message sits next to the field, with what was typed.
  const budget = page.getByRole("form", { name: "Change daily budget" });
  await budget.getByLabel(/Daily budget/).fill("12.555");
  await budget.getByRole("button", { name: "Review budget change" }).click();
  await expect(budget.getByRole("alert")).toHaveText("Daily budget can have at most 2 decimals");
  await expect(budget.getByLabel(/Daily budget/)).toHaveAttribute("aria-invalid", "true");
  await expect(budget.getByLabel(/Daily budget/)).toHaveAccessibleDescription("Daily budget can have at most 2 decimals");
  await expect(budget.getByLabel(/Daily budget/)).toHaveValue("12.555");
  await expect(page).toHaveURL(/\/campaigns\/\d+$/);

  const firstBox = page.getByRole("table", { name: "Ad groups" }).locator("tbody tr").first().getByRole("checkbox");
  await firstBox.check();
  const bar = page.getByRole("form", { name: "Change selected ad groups" });
  await bar.getByLabel(/Max. CPC/).fill("0");
  await bar.getByRole("button", { name: "Set max. CPC" }).click();
  await expect(page.getByText("Bid must be greater than 0")).toBeVisible();

  await page.getByRole("table", { name: "Ad groups" }).locator("tbody tr").first().getByRole("checkbox").check();
  await bar.getByLabel(/Max. CPC/).fill("0,85");
  await bar.getByRole("button", { name: "Set max. CPC" }).click();
  await expect(page).toHaveURL(/\/changes\//);
  await expect(changesTable(page)).toContainText("€0.85");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Applied at Google");
  await page.getByRole("button", { name: "Revert" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Revert: /);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Applied at Google");
  await context.close();
});

test("bulk from the campaigns list, then discarded: nothing is sent and history stays as it was", async ({ page, request }) => {
  await useBakery(page, request);
  await proposePausingTwoCampaigns(page);
  await page.goto("/history");
  await expect(page.getByRole("region", { name: "Waiting for review" })).toContainText("Pause 2 campaigns");
  await page.getByRole("region", { name: "Waiting for review" }).getByRole("link", { name: "Pause 2 campaigns" }).click();
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Discarded: nothing was sent to Google." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toHaveCount(0);
  await page.goto("/history?source=user");
  await expect(page.getByText("Pause 2 campaigns")).toHaveCount(0);

  // Nothing selected: with JavaScript the bulk buttons are disabled until a row is ticked
  // (without it the server refuses an empty selection: forms.server.test.ts).
  await page.goto("/campaigns");
  const bar = page.getByRole("form", { name: "Change selected campaigns" });
  await expect(bar.getByRole("button", { name: "Pause selected" })).toBeDisabled();
  await expect(bar).toContainText("Tick rows to act on them");
  await page.getByRole("checkbox", { name: "Select all campaigns" }).check();
  await expect(bar.getByRole("button", { name: "Pause selected" })).toBeEnabled();
  await page.getByRole("checkbox", { name: "Select all campaigns" }).uncheck();
  await expect(bar.getByRole("button", { name: "Pause selected" })).toBeDisabled();
});

// Undoing a new ad removes it, and a removed ad is gone for good: the review asks for the word.
for (const javaScriptEnabled of [true, false]) {
  test(`a removal cannot be undone: the review says so and applies only once REMOVE is typed (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await useBakery(page, request);
    await openCampaign(page, CAKES, "Ads");
    await page.getByRole("link", { name: "New responsive search ad" }).click();
    const stamp = Date.now().toString(36).slice(-5);
    await fillNewAd(page, "Cakes for Every Party", `Short Lived ${stamp}`);
    await page.getByRole("button", { name: "Review new ad" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^New responsive search ad “Cakes for Every Party”/);
    // A new ad is no removal: no word to type.
    await expect(page.getByLabel(/Type REMOVE/)).toHaveCount(0);
    await applyHere(page, /Applied at Google: 1 change/);

    await page.getByRole("button", { name: "Revert" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Revert: /);
    await expect(changesTable(page)).toContainText("Permanent: Google cannot undo a removal.");
    await expect(page.getByRole("form", { name: "Apply" })).toContainText("Removing cannot be undone");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    const word = page.getByLabel("Type REMOVE to confirm the removal");
    await expect(word).toHaveAttribute("aria-invalid", "true");
    await expect(word).toHaveAccessibleDescription(/removing cannot be undone/);
    await expect(page.getByRole("status").filter({ hasText: "Google validated the change." })).toBeVisible();

    await word.fill("remove");
    await applyHere(page, /Applied at Google: 1 change/);
    await context.close();
  });
}
