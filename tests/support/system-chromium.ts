import fs from "node:fs";

/**
 * Debian's Chromium where it exists (machines without internet); otherwise Playwright's own
 * browser (`npx playwright install chromium`). The flags keep it from calling out to Google's
 * services, which this machine's closed network refuses.
 */
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));

export const chromiumLaunchOptions = systemChromium
  ? {
      executablePath: systemChromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    }
  : undefined;
