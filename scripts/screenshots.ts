// Full-page screenshots of the main screens at a phone width (390 px) and a
// laptop width (1440 px), written to docs/screens/ and linked from the README.
//
//   npm run build && PORT=3361 APP_URL=http://localhost:3361 DATA_DIR=/tmp/shots node build/server.js &
//   BASE_URL=http://localhost:3361 npx tsx scripts/screenshots.ts
//
// It signs up a fresh user, connects the demo Google Ads account through the
// emulator's consent screen (demo mode), waits for the import, then visits
// each screen. Chromium is Debian's /usr/bin/chromium when present.
import fs from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";

const BASE_URL = process.env.BASE_URL ?? "http://localhost:3000";
const OUT = path.resolve("docs/screens");
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;
const TENTS = "17000000008";

const SCREENS: Array<{ file: string; path: string; prepare?: (page: Page) => Promise<void> }> = [
  { file: "dashboard", path: "/dashboard?compare=previous" },
  { file: "campaigns", path: "/campaigns" },
  { file: "campaign-keywords", path: `/campaigns/${TENTS}?tab=keywords` },
  { file: "campaign-search-terms", path: `/campaigns/${TENTS}?tab=searchterms` },
  { file: "history", path: "/history" },
  {
    // A draft left by ticked rows on the campaign list (made once, the first time round).
    file: "drafts",
    path: "/drafts",
    prepare: async (page) => {
      if (await page.getByRole("table", { name: "Drafts, newest first" }).count()) return;
      await page.goto(`${BASE_URL}/campaigns`);
      const boxes = page
        .getByRole("table", { name: /^Campaigns of / })
        .locator("tbody tr")
        .getByRole("checkbox");
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByRole("form", { name: "Change selected campaigns" }).getByRole("button", { name: "Pause selected" }).click();
      await page.waitForURL(/\/changes\//);
      await page.goto(`${BASE_URL}/drafts`);
      await page.getByRole("table", { name: "Drafts, newest first" }).waitFor();
    },
  },
  {
    // The weak-ad recommendation's ad group (Kids Sleeping Bags), written without a model.
    file: "ad-generator",
    path: "/ad-generator?adGroupId=140000000078",
    prepare: async (page) => {
      for (let i = 0; i < 60 && !(await page.getByRole("button", { name: "Generate Ad Copy" }).isEnabled()); i++) {
        await page.getByLabel("Target Audience").fill("families who camp");
        await page.waitForTimeout(250);
      }
      await page.getByRole("button", { name: "Generate Ad Copy" }).click();
      await page.getByText("Every line passes the checks.").waitFor();
      // The loaders run again after the post: wait until the form is idle (not "Generating...").
      await page.getByRole("button", { name: "Generate Ad Copy" }).waitFor();
    },
  },
  {
    file: "chart-tooltip",
    path: "/dashboard",
    prepare: async (page) => {
      const chart = page.getByTestId("performance-chart");
      await chart.scrollIntoViewIfNeeded();
      // Until the page has hydrated, moving the pointer shows nothing: try again.
      for (let i = 0; i < 60 && !(await page.getByTestId("chart-tooltip").count()); i++) {
        const box = (await chart.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.6 + (i % 2), box.y + box.height * 0.3);
        await page.waitForTimeout(250);
      }
      await page.getByTestId("chart-tooltip").waitFor();
    },
  },
  {
    file: "menu",
    path: "/campaigns",
    prepare: async (page) => {
      const menu = page.getByTestId("mobile-menu");
      if (await menu.isVisible()) await menu.locator("summary").click();
    },
  },
];

async function signIn(page: Page) {
  const email = `screens-${Date.now()}@example.com`;
  const password = "screenshots-password";
  const res = await page.request.post(`${BASE_URL}/api/v1/auth/register`, { data: { email, password } });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()}`);
  await page.goto(`${BASE_URL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard/);
  await page.goto(`${BASE_URL}/api/v1/auth/google?returnTo=/dashboard`);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/dashboard/);
  // Wait for the first import to finish.
  for (let i = 0; i < 120; i++) {
    await page.goto(`${BASE_URL}/dashboard`);
    if (await page.getByTestId("performance-chart").count()) return;
    await page.waitForTimeout(1000);
  }
  throw new Error("the demo account's import did not finish");
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const executablePath = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  // A sync keeps the single server process busy for a while on a loaded machine.
  page.setDefaultTimeout(120_000);
  await signIn(page);
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const screen of SCREENS) {
      if (screen.file === "menu" && size.name !== "phone") continue;
      // ONLY=campaigns-desktop (comma-separated) to redo a few while adjusting a screen.
      if (process.env.ONLY && !process.env.ONLY.split(",").includes(`${screen.file}-${size.name}`)) continue;
      await page.goto(`${BASE_URL}${screen.path}`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await screen.prepare?.(page);
      const file = path.join(OUT, `${screen.file}-${size.name}.png`);
      await page.screenshot({ path: file, fullPage: screen.file !== "chart-tooltip" && screen.file !== "menu" });
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  await browser.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
