import { test } from "@playwright/test";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Connecting waits for the demo account's first import, which can take a minute on a busy machine.
test.describe.configure({ timeout: 150_000 });

// The assistant with a model configured: this project's server has
// AI_MODEL=openai-compatible:fake-model and AI_BASE_URL pointing at the fake
// OpenAI-compatible server in tests/fake-llm (streamed chat.completions with
// tool calls), so the real provider package, route, useChat and page run.

const conversation = (page: import("@playwright/test").Page) => page.getByRole("region", { name: "Conversation" });
const lastAnswer = (page: import("@playwright/test").Page) => conversation(page).locator('li[data-role="assistant"]').last();

async function ask(page: import("@playwright/test").Page, question: string) {
  const input = page.getByLabel("Message");
  const sent = conversation(page).locator('li[data-role="user"]').filter({ hasText: question });
  const before = await sent.count();
  // A revalidation (the first sync or analysis finishing) can re-render the form between
  // filling and sending; send again until the question is in the conversation.
  await expect(async () => {
    if ((await sent.count()) > before) return;
    await input.fill(question);
    await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 1000 });
    await input.press("Enter");
    await expect(sent).toHaveCount(before + 1, { timeout: 3000 });
  }).toPass();
}

test("streams the answer token by token, shows what it read with the figures expandable, and lists the chat", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/ai-optimizer");
  await expect(page.getByText("Model: openai-compatible:fake-model")).toBeVisible();
  // Record every length the answer's text had while it was written.
  await page.evaluate(() => {
    const w = window as unknown as { lengths: number[] };
    w.lengths = [];
    new MutationObserver(() => {
      const answers = document.querySelectorAll('li[data-role="assistant"]');
      const last = answers[answers.length - 1];
      if (last) w.lengths.push((last.textContent ?? "").length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await ask(page, "How are my campaigns doing?");
  await expect(conversation(page).locator('li[data-role="user"]')).toHaveText(/How are my campaigns doing\?/);
  const evidence = lastAnswer(page).getByTestId("evidence");
  await expect(evidence.filter({ hasText: /^Read the account totals/ })).toBeVisible();
  await expect(evidence.filter({ hasText: /^Read 14 campaigns, / })).toBeVisible();
  await expect(lastAnswer(page)).toContainText("Here is what I found.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(lastAnswer(page)).toContainText(/tokens$/);
  const lengths = await page.evaluate(() => (window as unknown as { lengths: number[] }).lengths);
  expect(new Set(lengths).size).toBeGreaterThan(5);

  // The figures behind "Read 14 campaigns" are one click away.
  const campaigns = evidence.filter({ hasText: /^Read 14 campaigns/ });
  await campaigns.locator("summary").click();
  await expect(campaigns.getByRole("table")).toContainText("Search | Climbing Gear");

  // Kept: the address names the chat, it is in the list, and a reload shows it.
  await expect(page).toHaveURL(/\/ai-optimizer\?chat=[0-9a-f-]{36}$/);
  await expect(page.getByRole("navigation", { name: "Past chats" }).getByRole("link", { name: "How are my campaigns doing?" })).toBeVisible();
  await page.reload();
  await expect(
    lastAnswer(page)
      .getByTestId("evidence")
      .filter({ hasText: /^Read 14 campaigns/ }),
  ).toBeVisible();
  await page.getByRole("navigation", { name: "Past chats" }).getByRole("link", { name: "New chat" }).click();
  await expect(page.getByText("AI Assistant Ready")).toBeVisible();

  // /settings: the model in use (never a key, nor the endpoint's host) and this month's tokens.
  await page.goto("/settings");
  await expect(page.getByTestId("ai-model")).toHaveText("openai-compatible:fake-model (own endpoint, AI_BASE_URL)");
  await expect(page.locator("main")).not.toContainText("127.0.0.1");
  await expect(page.getByTestId("ai-tokens")).not.toHaveText(/^0 /);
  // Per feature, with today's uses against the daily limit.
  await expect(page.getByTestId("ai-usage-chat")).toContainText(/AI assistant.*[1-9][\d,]* tokens this month over \d+ calls? · today 1 of 200 messages/);
  await expect(page.getByTestId("ai-usage-ad_copy")).toContainText("Ad generator");
});

test("a proposal card links to the review page, where only the person's Apply changes Google Ads", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/ai-optimizer");
  await ask(page, "Propose to pause my cheapest enabled campaign");
  const card = lastAnswer(page).getByTestId("proposal");
  await expect(card).toContainText(/Proposed change set: Pause /);
  await expect(lastAnswer(page)).toContainText("Nothing changes in Google Ads until you press Apply");
  await card.getByRole("link", { name: "Review change set" }).click();
  await expect(page).toHaveURL(/\/changes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Pause /);
  await expect(page.getByRole("status").filter({ hasText: "Google validated the change." })).toBeVisible();
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Applied at Google: 1 change/ })).toBeVisible();
  await page.goto("/history");
  await expect(page.getByRole("row").filter({ hasText: /Pause/ }).first()).toContainText("Assistant");
});

test("Stop ends a long answer; a provider error keeps the question and offers Retry", async ({ page, request }) => {
  await connectDemoAccount(page, request, "/ai-optimizer");
  await ask(page, "Give me a slow answer please");
  await expect(lastAnswer(page)).toContainText("word3");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  const stoppedAt = (await lastAnswer(page).textContent())?.length ?? 0;
  await expect(lastAnswer(page)).not.toContainText("word399");
  expect(stoppedAt).toBeGreaterThan(0);

  await ask(page, "This should fail with 401");
  await expect(conversation(page).getByRole("alert")).toContainText("The model provider rejected the API key (HTTP 401)");
  await expect(conversation(page).locator('li[data-role="user"]').last()).toHaveText(/fail with 401/);
  await expect(conversation(page).getByRole("button", { name: "Retry" })).toBeVisible();
  // The question and the error are stored: after a reload they are still there, with Retry.
  await page.reload();
  await expect(conversation(page).locator('li[data-role="user"]').last()).toHaveText(/fail with 401/);
  await expect(conversation(page).getByRole("alert")).toContainText("rejected the API key");
  await expect(lastAnswer(page).getByText("Stopped.")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the same form posts and the server renders the whole answer with its evidence", async ({ page, request }) => {
    await connectDemoAccount(page, request, "/ai-optimizer");
    await page.getByLabel("Message").fill("What is wasting money?");
    await page.getByRole("button", { name: "Send" }).click();
    // The answer's address points at the end of the conversation, so the browser scrolls to it.
    await expect(page).toHaveURL(/\/ai-optimizer\?chat=[0-9a-f-]{36}#chat-end$/);
    const conversation = page.getByRole("region", { name: "Conversation" });
    const box = await conversation.evaluate((el) => ({ top: el.scrollTop, height: el.scrollHeight, view: el.clientHeight }));
    expect(box.height, "the answer overflows the conversation's box").toBeGreaterThan(box.view);
    expect(box.top + box.view).toBeGreaterThanOrEqual(box.height - 2);
    await expect(lastAnswer(page)).toContainText("Here is what I found.");
    await expect(
      lastAnswer(page)
        .getByTestId("evidence")
        .filter({ hasText: /^Read 10 search terms/ }),
    ).toBeVisible();
  });
});
