import { connectDemoAccount, expect } from "./ads-fixtures";
import { test } from "./fixtures";

// The ad generator with a model configured (AI_MODEL=openai-compatible:… pointed at the fake
// server in tests/fake-llm): the model's good lines are shown, its shouting is fixed in code,
// its made-up discounts and over-long headline are not shown, and templates fill what the
// repairs left empty. ("Sale" would be allowed here: the ad group's own ads say it.)

test.describe.configure({ timeout: 180_000 });

test("with a model: the model's valid lines, none of its invalid ones, the rest from templates", async ({ page, request }) => {
  await connectDemoAccount(page, request);
  await page.goto("/ad-generator?adGroupId=140000000078");
  await expect(page.getByLabel("Campaign and ad group")).toHaveValue("140000000078");
  await expect(page.getByText("No AI model is configured")).toHaveCount(0);
  await expect(async () => {
    await page.getByLabel("Target Audience").fill("families who camp");
    await expect(page.getByRole("button", { name: "Generate Ad Copy" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Generate Ad Copy" }).click();

  const ad = page.getByRole("form", { name: "Generated ad" });
  await expect(ad.getByText("Written by the AI model, checked line by line.")).toBeVisible();
  await expect(ad.getByText(/lines? came from templates because the model's lines failed the checks or ran short/)).toBeVisible();
  await expect(ad.getByTestId("headline-line")).toHaveCount(15);
  await expect(ad.getByText("Every line passes the checks.")).toBeVisible();
  const headlines = await ad.locator('input[name="headline"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  expect(headlines.slice(0, 3)).toEqual(["Made for Happy Campers", "Warm Nights Under Canvas", "Packs Small, Sleeps Warm"]);
  expect(headlines).toContain("Zip Up and Sleep Tight"); // from the repair round
  const all = [...headlines, ...(await ad.locator('input[name="description"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))].join(
    " | ",
  );
  expect(headlines).toContain("Huge Winter Blowout"); // "HUGE WINTER BLOWOUT", fixed in code
  expect(all).not.toMatch(/60%|HUGE|Half price|Every Single Camping Trip/);
  await expect(ad.getByLabel("Path 1", { exact: true })).toHaveValue("sleeping-bags");
});
