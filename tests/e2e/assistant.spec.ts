import { test, type APIRequestContext, type Page } from "@playwright/test";
import { connectDemoAccount, expect, RICH_CUSTOMER_ID, type ConnectedUser } from "./ads-fixtures";

// Connecting waits for the demo account's first import, which can take a minute on a busy machine.
test.describe.configure({ timeout: 150_000 });

// The assistant on the default (model-less) server: connected, the built-in
// analyst answers from the account's data and says no model is configured.

const lastAnswer = (page: Page) => page.getByRole("region", { name: "Conversation" }).locator('li[data-role="assistant"]').last();

/** The analyst proposes the rules engine's findings: it runs right after the first import, so wait for them. */
async function waitForRecommendations(request: APIRequestContext, user: ConnectedUser) {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/accounts/${RICH_CUSTOMER_ID}/recommendations`, { headers: { Authorization: `Bearer ${user.token}` } });
        return res.ok() ? ((await res.json()) as { recommendations: unknown[] }).recommendations.length : 0;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
}

/** Types a question and sends it (JavaScript on: streamed; off: the form posts and the page comes back with the answer). */
async function ask(page: Page, question: string, answers: number) {
  const input = page.getByLabel("Message");
  await expect(async () => {
    await input.fill(question);
    await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("region", { name: "Conversation" }).locator('li[data-role="assistant"]')).toHaveCount(answers, { timeout: 30_000 });
}

test("no model configured: the built-in analyst answers what is wasting money, with evidence and a proposal to review", async ({ page, request }) => {
  const user = await connectDemoAccount(page, request, "/ai-optimizer");
  await waitForRecommendations(request, user);
  await expect(page.getByText("No AI model configured: the built-in analyst answers")).toBeVisible();
  const input = page.getByLabel("Message");
  await expect(async () => {
    await input.fill("What is wasting money?");
    await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await input.press("Enter");
  await expect(lastAnswer(page)).toContainText("No AI model is configured");
  await expect(lastAnswer(page)).toContainText("AI_MODEL");
  await expect(
    lastAnswer(page)
      .getByTestId("evidence")
      .filter({ hasText: /^Read 10 search terms/ }),
  ).toBeVisible();
  await expect(lastAnswer(page)).toContainText("Search terms that cost money without a single conversion");
  // The answer's Markdown table is a real table, and no image or outside link is rendered.
  await expect(lastAnswer(page).locator("table.border-collapse").filter({ hasText: "Search term" })).toBeVisible();
  await expect(lastAnswer(page).locator("img")).toHaveCount(0);
  // What it drafts is the rules engine's first waste finding, as the engine wrote it.
  await expect(lastAnswer(page)).toContainText("What the rules engine would do about it");
  const first = ((await lastAnswer(page).locator("ol > li strong").first().textContent()) ?? "").trim();
  expect(first).not.toBe("");
  await lastAnswer(page).getByRole("link", { name: "Review the proposal" }).click();
  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(first);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a named campaign is the one drafted, a period is the calendar one, and the no-model notice comes once", async ({ page, request }) => {
      const user = await connectDemoAccount(page, request, "/ai-optimizer");
      await waitForRecommendations(request, user);
      await ask(page, "Increase the Tents budget by 10%", 1);
      await expect(lastAnswer(page)).toContainText("No AI model is configured");
      await expect(lastAnswer(page)).toContainText(/Search \| Tents has a daily budget of \$/);
      await expect(lastAnswer(page)).not.toContainText("Climbing Gear");

      await ask(page, "why did conversions drop last week?", 2);
      await expect(lastAnswer(page)).toContainText(/Conversions (did not drop: [+−]|: [+−])/);
      await expect(lastAnswer(page)).toContainText(/in last week \([A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}, \d{4}\)/);
      // Said once per chat: not again in the second answer.
      await expect(lastAnswer(page)).not.toContainText("No AI model is configured");

      await ask(page, "Write me 3 headlines for tents", 3);
      await expect(lastAnswer(page)).toContainText("I can't write ad copy in this chat");
      await expect(lastAnswer(page).getByRole("link", { name: "ad generator" })).toHaveAttribute("href", "/ad-generator");

      await page
        .getByRole("region", { name: "Conversation" })
        .locator('li[data-role="assistant"]')
        .first()
        .getByRole("link", { name: "Review the proposal" })
        .click();
      await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Set the daily budget of Search \| Tents from \$[\d,.]+ to \$[\d,.]+ \(\+10%\)$/);
    });
  });
}
