import { test } from "@playwright/test";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Connecting waits for the demo account's first import, which can take a minute on a busy machine.
test.describe.configure({ timeout: 150_000 });

// The assistant on the default (model-less) server: connected, the built-in
// analyst answers from the account's data and says no model is configured.

const lastAnswer = (page: import("@playwright/test").Page) => page.getByRole("region", { name: "Conversation" }).locator('li[data-role="assistant"]').last();

test("no model configured: the built-in analyst answers what is wasting money, with evidence and a proposal to review", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/ai-optimizer");
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
  await lastAnswer(page).getByRole("link", { name: "Review the proposal" }).click();
  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Exclude /);
});
