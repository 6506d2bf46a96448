import type { APIRequestContext, Page } from "@playwright/test";
import { test } from "./fixtures";
import { connectDemoAccount, expect, RICH_CUSTOMER_ID, type ConnectedUser } from "./ads-fixtures";

// The recommendations on /ai-optimizer against the demo outdoor account:
// Apply → the change set's review page → Apply at Google → history names the
// recommendation, the Dashboard's AI Optimizations card counts it, and the
// recommendation moves to the applied list. Each spec reverts what it applied,
// so the shared emulator account ends as it began. With and without JavaScript.
// Other specs apply change sets to the same demo account at the same time, so
// counts are compared with what they were just before, never absolute.

const panel = (page: Page) => page.getByRole("region", { name: "Recommendations" });
const changesTable = (page: Page) => page.getByRole("table", { name: "Changes in this change set" });
/** The panel's items (an item's alternatives are list items too, inside it). */
const items = (page: Page) => panel(page).locator('li[id^="rec-"]');

/** A weak-ad item whose title no other item has (an ad group's ads can share one), and that title. */
async function uniqueWeakAd(page: Page) {
  const weak = items(page).and(page.locator('[data-type="weak_ad"]'));
  await expect(weak.first()).toBeVisible();
  const titles = await items(page).evaluateAll((els) => els.map((e) => e.querySelector("p")?.textContent ?? ""));
  const weakTitles = await weak.evaluateAll((els) => els.map((e) => e.querySelector("p")?.textContent ?? ""));
  const title = weakTitles.find((t) => titles.filter((x) => x === t).length === 1);
  expect(title, "a weak ad with a title of its own").toBeDefined();
  return { item: items(page).filter({ hasText: title! }), title: title! };
}

/** How many AI optimizations the Dashboard's card says were applied this month (its figure is the money measured: impact.spec.ts). */
async function aiOptimizations(page: Page): Promise<number> {
  await page.goto("/dashboard");
  const card = page.getByRole("region", { name: "AI Optimizations" });
  await expect(card).toBeVisible();
  const text = (await card.getByTestId("ai-applied").textContent()) ?? "";
  const applied = /(\d+) applied this month/.exec(text);
  expect(applied, text).not.toBeNull();
  return Number(applied![1]);
}

/** The recommendations the JSON API lists with one status, by title. */
async function apiTitles(request: APIRequestContext, user: ConnectedUser, status: string): Promise<Array<{ title: string; status: string }>> {
  const res = await request.get(`/api/v1/accounts/${RICH_CUSTOMER_ID}/recommendations?status=${status}`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { recommendations: Array<{ title: string; status: string }> }).recommendations;
}

async function applyRecommendation(page: Page, request: APIRequestContext, user: ConnectedUser, keyword: string) {
  const countBefore = await aiOptimizations(page);
  const title = (r: { title: string }) => r.title.includes(`Enable “${keyword}”`);
  // The engine runs after the detail import the connection waited for: wait for its list.
  await expect.poll(async () => (await apiTitles(request, user, "open")).filter(title).length, { timeout: 60_000 }).toBe(1);

  // Filtered to its type, the whole group open (the panel leads with the top ten, then each group's top five).
  await page.goto("/ai-optimizer?type=paused_converting&group=paused_converting");
  const item = items(page).filter({ hasText: `Enable “${keyword}”` });
  await expect(item).toHaveCount(1);
  // The evidence opens in place.
  await item.getByText("Evidence").click();
  await expect(item.getByText("Judged against:")).toBeVisible();
  await item.getByRole("button", { name: /^(Apply|Review change set)$/ }).click();

  // The review page: nothing applied yet, proposed by the recommendation.
  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  const about = page.getByRole("region", { name: "About this change set" });
  await expect(about).toContainText("Proposed byRecommendationFrom a recommendation");
  await expect(about).not.toContainText("Applied by");
  await expect(changesTable(page)).toContainText("Status: Paused → Enabled");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Applied at Google" }).first()).toBeVisible();
  // The person who pressed Apply is named (issue 29 point 4).
  await expect(about).toContainText(/Applied by\S+@/);
  const changeSetUrl = page.url();

  // History says where it came from.
  await page.goto("/history");
  const entry = page
    .getByRole("row")
    .filter({ hasText: `Enable Keyword “${keyword}”` })
    .first();
  await expect(entry).toContainText(/Recommendation, applied by \S+@/);
  await expect(entry).toContainText("Applied");

  // The Dashboard counts it this month (other specs may have applied theirs meanwhile).
  expect(await aiOptimizations(page)).toBeGreaterThanOrEqual(countBefore + 1);
  const score = page.getByRole("region", { name: "Performance Score" });
  await expect(score.locator("p").first()).toHaveText(/^\d{1,3}$/);

  // The recommendation is listed as applied.
  await page.goto("/ai-optimizer?recs=applied");
  await expect(
    panel(page)
      .getByRole("listitem")
      .filter({ hasText: `Enable “${keyword}”` }),
  ).toBeVisible();
  // …and so says the JSON API.
  expect((await apiTitles(request, user, "applied")).filter(title).map((r) => r.status)).toEqual(["applied"]);
  expect((await apiTitles(request, user, "open")).filter(title)).toHaveLength(0);

  // Put the account back as it was.
  await page.goto(changeSetUrl);
  await page.getByRole("button", { name: "Revert" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Revert: /);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Applied at Google" }).first()).toBeVisible();
}

test("Apply a recommendation → review → Apply → history, the AI Optimizations card and the applied list", async ({ page, request }) => {
  test.setTimeout(240_000);
  const user = await connectDemoAccount(page, request, "/dashboard");
  await applyRecommendation(page, request, user, "65l backpack");
});

test("Camp Stoves' own target CPA (plant P7): Apply → review shows $95.00 → $80.75 → Apply at Google → Revert restores $95.00", async ({ page, request }) => {
  test.setTimeout(240_000);
  await connectDemoAccount(page, request, "/dashboard");
  await page.goto("/ai-optimizer");
  // Filtered by type, then the whole group opened by its "Show all" link when it runs past the top ten and five.
  await panel(page).getByRole("combobox", { name: "Type" }).selectOption("bid_adjustment");
  await panel(page).getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/type=bid_adjustment/);
  const showAll = panel(page).getByRole("link", { name: /^Show all \d+/ });
  if ((await showAll.count()) > 0) await showAll.click();
  const item = items(page).filter({ hasText: "target CPA of ad group Camp Stoves" });
  await expect(item).toHaveCount(1);
  await item.getByRole("button", { name: /^(Apply|Review change set)$/ }).click();

  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  await expect(changesTable(page)).toContainText("Target CPA of ad group “Camp Stoves”");
  await expect(changesTable(page)).toContainText("Target CPA: $95.00 → $80.75");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Applied at Google" }).first()).toBeVisible();

  // Put the account back as it was: the revert's review shows the way back.
  await page.getByRole("button", { name: "Revert" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Revert: /);
  await expect(changesTable(page)).toContainText("Target CPA: $80.75 → $95.00");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Applied at Google" }).first()).toBeVisible();
});

test("without JavaScript: apply, dismiss with a reason, snooze and restore through plain forms", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const user = await connectDemoAccount(page, request, "/dashboard");
  await applyRecommendation(page, request, user, "aggressive climbing shoes");

  // Dismiss a weak ad with a reason: it leaves the open list and waits in Dismissed.
  await page.goto("/ai-optimizer");
  const { item: weak, title } = await uniqueWeakAd(page);
  await weak.getByLabel("Reason for dismissing (optional)").fill("Written by legal");
  await weak.getByRole("button", { name: "Dismiss" }).click();
  await expect(page).toHaveURL(/recs=open/);
  await expect(panel(page).getByText(title, { exact: true })).toHaveCount(0);
  await page.goto("/ai-optimizer?recs=dismissed");
  const dismissed = items(page).filter({ hasText: title });
  await expect(dismissed).toContainText("Reason: Written by legal");
  await dismissed.getByRole("button", { name: "Restore" }).click();
  await page.goto("/ai-optimizer");
  await expect(panel(page).getByText(title, { exact: true })).toHaveCount(1);

  // Snooze for 7 days, then restore.
  const item = items(page).filter({ hasText: title });
  await item.getByRole("button", { name: "Snooze 7 days" }).click();
  await page.goto("/ai-optimizer?recs=snoozed");
  const snoozed = items(page).filter({ hasText: title });
  await expect(snoozed).toContainText("Snoozed until");
  await snoozed.getByRole("button", { name: "Restore" }).click();
  await context.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`beside an open conversation, switching lists, dismissing and restoring keep the conversation on screen (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    request,
  }) => {
    test.slow();
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await connectDemoAccount(page, request, "/dashboard");
    await page.goto("/ai-optimizer");
    await page.getByLabel("Message").fill("How are my campaigns doing?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/\/ai-optimizer\?chat=[0-9a-f-]{36}/);
    const chat = new URL(page.url()).searchParams.get("chat")!;
    const conversation = page.getByRole("region", { name: "Conversation" });
    await expect(conversation).toContainText("How are my campaigns doing?");
    // The page has taken in its new address when the chat is listed (JavaScript on: the address changes just before).
    await expect(
      page.getByRole("navigation", { name: "Past chats" }).getByRole("link", { name: "How are my campaigns doing?" }).filter({ visible: true }),
    ).toHaveCount(1);
    const stillOpen = async (list: string) => {
      await expect(page).toHaveURL((url) => url.searchParams.get("chat") === chat && url.searchParams.get("recs") === list);
      await expect(conversation).toContainText("How are my campaigns doing?");
    };

    const { item: weak, title } = await uniqueWeakAd(page);
    await weak.getByLabel("Reason for dismissing (optional)").fill("Kept beside the chat");
    await weak.getByRole("button", { name: "Dismiss" }).click();
    await stillOpen("open");
    await expect(panel(page).getByText(title, { exact: true })).toHaveCount(0);

    await panel(page)
      .getByRole("link", { name: /^Dismissed \(\d+\)$/ })
      .click();
    await stillOpen("dismissed");
    const dismissed = items(page).filter({ hasText: title });
    await dismissed.getByRole("button", { name: "Restore" }).click();
    await stillOpen("dismissed");
    await expect(panel(page).getByText(title, { exact: true })).toHaveCount(0);

    await panel(page)
      .getByRole("link", { name: /^Open \(\d+\)$/ })
      .click();
    await stillOpen("open");
    await expect(panel(page).getByText(title, { exact: true })).toHaveCount(1);
    await context.close();
  });
}

test("an item on the score page opens its recommendation on the AI Optimizer, beyond its group's top five", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/dashboard");
  await page.goto("/dashboard/score");
  // The last-listed item of the largest group: never among the top five the panel shows at first.
  const links = page.locator('a[href*="group=weak_ad#rec-"]');
  await expect.poll(() => links.count()).toBeGreaterThan(5);
  const link = links.last();
  const id = (await link.getAttribute("href"))!.split("#rec-")[1];
  await link.click();
  await expect(page).toHaveURL(/\/ai-optimizer\?recs=open&group=weak_ad#rec-/);
  await expect(panel(page).locator(`[id="rec-${id}"]`)).toBeVisible();
});

for (const javaScriptEnabled of [true, false]) {
  test(`triage (issue 29 point 5): top ten, filters by type and campaign, two ticked items as one change set, the campaign page's own list (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    request,
  }) => {
    test.slow();
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await connectDemoAccount(page, request, "/dashboard");
    await page.goto("/ai-optimizer");
    await expect(panel(page).getByRole("heading", { name: "Top 10 by impact" })).toBeVisible();
    await expect(panel(page).getByTestId("top-ten").locator('li[id^="rec-"]')).toHaveCount(10);
    await expect(panel(page).getByTestId("rec-totals")).toContainText("(each counted once)");

    // Filter by type: a plain GET form.
    await panel(page).getByRole("combobox", { name: "Type" }).selectOption("wasted_search_term");
    await panel(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/type=wasted_search_term/);
    await expect(items(page).first()).toBeVisible();
    expect(new Set(await items(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-type"))))).toEqual(new Set(["wasted_search_term"]));

    // Tick two and apply them together: one change set, one review.
    const ticks = panel(page).getByRole("checkbox", { name: /to apply with others$/ });
    await ticks.nth(0).check();
    await ticks.nth(1).check();
    await panel(page).getByRole("button", { name: "Apply selected" }).click();
    await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^2 recommendations: /);
    await expect(changesTable(page).getByRole("row")).toHaveCount(3);
    // Nothing goes to Google: discarded, the account stays as it was.
    await page.getByRole("button", { name: "Discard" }).click();
    await expect(page.getByText("Discarded: nothing was sent to Google.").first()).toBeVisible();

    // The filter by campaign, and the campaign page's own recommendations.
    await page.goto("/ai-optimizer");
    const campaigns = panel(page).getByRole("combobox", { name: "Campaign" });
    const [id, name] = await campaigns
      .locator("option")
      .nth(1)
      .evaluate((o) => [(o as HTMLOptionElement).value, o.textContent ?? ""]);
    await page.goto(`/campaigns/${id}`);
    const own = page.getByRole("region", { name: "Recommendations for this campaign" });
    await expect(own).toContainText(/\d+ open recommendations?/);
    await own.getByRole("link", { name: /in the AI Optimizer$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/ai-optimizer\\?campaign=${id}`));
    await expect(panel(page).getByRole("combobox", { name: "Campaign" })).toHaveValue(id);
    expect(name).not.toBe("");
    await expect(items(page).first()).toBeVisible();
    await context.close();
  });
}
