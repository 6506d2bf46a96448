import { describe, expect, it } from "vitest";
import { lintLine } from "./ad-lint";
import { AdFormSchema, DESCRIPTION_MAX, fitTo, generateTemplateAds, HEADLINE_MAX, TONES } from "./ad-templates";

describe("generateTemplateAds", () => {
  it("returns 3 ads built from the product and audience", () => {
    const ads = generateTemplateAds(AdFormSchema.parse({ product: "hiking boots", targetAudience: "weekend hikers" }));
    expect(ads).toHaveLength(3);
    expect(ads[0].headline).toContain("Hiking Boots");
    expect(ads.some((a) => a.description.includes("weekend hikers"))).toBe(true);
    for (const ad of ads) expect(ad.cta.length).toBeGreaterThan(0);
  });

  it("always stays within Google's limits, whatever the input length and tone", () => {
    const long = "ultra lightweight waterproof breathable trail running shoes with carbon plates";
    for (const tone of TONES) {
      for (const ad of generateTemplateAds(AdFormSchema.parse({ product: long, targetAudience: long, tone }))) {
        expect(ad.headline.length).toBeLessThanOrEqual(HEADLINE_MAX);
        expect(ad.description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
        expect(ad.headline).not.toMatch(/\s$/);
      }
    }
  });

  it("uses the seed's defaults and refuses blank fields", () => {
    expect(AdFormSchema.parse({ product: "x", targetAudience: "y" })).toMatchObject({ tone: "professional" });
    expect(AdFormSchema.safeParse({ product: "  ", targetAudience: "y" }).success).toBe(false);
    expect(AdFormSchema.safeParse({ product: "x", targetAudience: "y", tone: "angry" }).success).toBe(false);
  });
});

describe("the seed's calls to action", () => {
  it("fit a service as well as a product: nothing only a shop or only a service would say", () => {
    for (const tone of TONES) {
      for (const product of ["hiking boots", "tax advice"]) {
        for (const ad of generateTemplateAds(AdFormSchema.parse({ product, targetAudience: "families", tone }))) {
          expect(`${ad.headline} ${ad.cta} ${ad.description}`).not.toMatch(/\b(shop|buy|quote|book|premium|offer)\b/i);
        }
      }
    }
  });
});

describe("the seed's lines pass the gate", () => {
  it("for every tone, with no claim the user did not type", () => {
    for (const tone of TONES) {
      const form = AdFormSchema.parse({ product: "hiking boots", targetAudience: "weekend hikers", tone });
      for (const ad of generateTemplateAds(form)) {
        const sources = [form.product, form.targetAudience];
        expect(lintLine(ad.headline, "headline", { claimSources: sources }), ad.headline).toEqual([]);
        expect(lintLine(ad.description, "description", { claimSources: sources }), ad.description).toEqual([]);
      }
    }
  });
});

describe("fitTo", () => {
  it("cuts at a word boundary", () => {
    expect(fitTo("Premium Waterproof Hiking Boots Now", 30)).toBe("Premium Waterproof Hiking");
    expect(fitTo("short", 30)).toBe("short");
  });
});
