import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A box that scrolls must be the containing block of what it holds: an
// absolutely positioned descendant (Tailwind's sr-only labels are) otherwise
// takes the page as its containing block, and the page grows by the box's
// whole scroll height (the AI Optimizer once stretched to ~39,000 px; ADR 014).
const SCROLLS = /\boverflow(?:-[xy])?-(?:auto|scroll)\b/;
const POSITIONED = /(?:^|\s)(?:relative|absolute|fixed|sticky)(?:\s|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".tsx") && !entry.name.includes(".test.") ? [full] : [];
  });
}

describe("scroll boxes", () => {
  it("every element that scrolls is positioned, so its contents cannot stretch the page", () => {
    const app = path.resolve(__dirname, "..");
    const offenders = sources(app).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/className=(?:"([^"]*)"|\{`([^`]*)`\})/g)]
        .map((m) => m[1] ?? m[2])
        .filter((classes) => SCROLLS.test(classes) && !POSITIONED.test(classes))
        .map((classes) => `${path.relative(app, file)}: ${classes}`),
    );
    expect(offenders).toEqual([]);
  });
});
