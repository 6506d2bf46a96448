import { test } from "./fixtures";
import { connectDemoAccount, expect } from "./ads-fixtures";

// Issue 31 point 4 (webhooks): the /settings section's plain forms against the built server, JavaScript on
// and off, on a phone and a laptop. The delivery itself (signature, retry after a 500, the log's rows) is
// proved against a real local receiver in app/server/agency/alert-webhook.server.test.ts.

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of VIEWPORTS) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width} px`, () => {
      test.use({ javaScriptEnabled, viewport: VIEWPORTS[1] });

      test("a webhook is refused with a clear error, saved with its secret, given a new one, and removed", async ({ page, request }) => {
        test.setTimeout(180_000);
        await connectDemoAccount(page, request);
        await page.setViewportSize(viewport);
        await page.goto("/settings");
        const section = page.locator("section", { has: page.getByRole("heading", { name: "Alert webhooks" }) });
        await expect(section).toContainText("No webhooks yet.");
        await expect(section).toContainText("Nothing sent yet.");

        await section.getByLabel("Webhook URL").fill("http://hooks.example.com/x");
        await section.getByRole("button", { name: "Save webhook" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "The URL must start with https://" })).toBeVisible();
        await expect(page.getByRole("list", { name: "Your alert webhooks" })).toHaveCount(0);

        await section.getByLabel("Webhook URL").fill("https://hooks.example.com/services/e2e");
        await section.getByRole("button", { name: "Save webhook" }).click();
        const list = page.getByRole("list", { name: "Your alert webhooks" });
        await expect(list).toContainText("https://hooks.example.com/services/e2e");
        const secret = list.getByLabel(/^Signing secret for /);
        await expect(secret).toHaveValue(/^whsec_/);
        const first = await secret.inputValue();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

        await list.getByRole("button", { name: "New secret" }).click();
        await expect(list.getByLabel(/^Signing secret for /)).not.toHaveValue(first);
        await expect(list.getByLabel(/^Signing secret for /)).toHaveValue(/^whsec_/);

        await list.getByRole("button", { name: /^Remove the webhook of / }).click();
        await expect(page.getByRole("list", { name: "Your alert webhooks" })).toHaveCount(0);
        await expect(page.locator("section", { has: page.getByRole("heading", { name: "Alert webhooks" }) })).toContainText("No webhooks yet.");
      });
    });
  }
}
