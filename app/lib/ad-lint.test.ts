import { describe, expect, it } from "vitest";
import { claimsIn, unsupportedClaims } from "./ad-claims";
import { isGenericLine } from "./ad-filler";
import {
  adTextWidth,
  blocksGeneratedLine,
  autofixLine,
  duplicateKey,
  editorialFix,
  estimateStrength,
  isNearDuplicate,
  lintLine,
  lintRsa,
  type LineKind,
  type LintCode,
} from "./ad-lint";

const codes = (text: string, kind: LineKind) =>
  lintLine(text, kind)
    .filter((i) => i.severity === "error")
    .map((i) => i.code);

describe("adTextWidth", () => {
  it.each([
    ["Hiking Boots", 12],
    ["日本の靴", 8], // wide CJK characters count 2
    ["ハイキング", 10],
    ["한국어", 6],
    ["Ｆｕｌｌ", 8], // full-width Latin counts 2
    ["Café", 4], // NFC: é is one character
    ["Cafe\u0301", 4], // decomposed é normalises to one
    ["{KeyWord:Boots} on sale", 13], // keyword insertion counts only its default
    ["{keyword:Trail Running Shoes}", 19],
  ])("%s → %d", (text, width) => {
    expect(adTextWidth(text)).toBe(width);
  });
});

describe("lintLine: good lines pass", () => {
  it.each<[string, LineKind]>([
    ["Waterproof Hiking Boots", "headline"],
    ["Free Shipping Over $50", "headline"],
    ["Open 24/7 in NYC", "headline"],
    ["Rated 5* by Hikers", "headline"],
    ["Boots & Gear, Shipped Fast", "headline"],
    ["Shop {KeyWord:Hiking Boots}", "headline"],
    ["YouTube Ads Made Simple", "headline"],
    ["4K TVs From $299", "headline"],
    ["日本製のハイキングブーツ", "headline"], // 24 width units
    ["Save 20% today. Order online and get it by Friday!", "description"],
    ["Trusted by 10,000+ hikers, with 2.5 km of trails tested per pair, and free returns.", "description"],
    ["hiking-boots", "path"],
    ["Sale", "path"],
  ])("%s (%s)", (text, kind) => {
    expect(lintLine(text, kind)).toEqual([]);
  });
});

describe("lintLine: bad lines fail with the rule that applies", () => {
  it.each<[string, LineKind, LintCode]>([
    ["", "headline", "EMPTY"],
    ["Waterproof Hiking Boots For Everyone", "headline", "TOO_LONG"],
    ["x".repeat(91), "description", "TOO_LONG"],
    ["日本製の軽量防水ハイキングブーツ", "headline", "TOO_LONG"], // 16 chars but 32 width units
    ["{KeyWord:Waterproof Hiking Boots For All}", "headline", "TOO_LONG"], // the default is what counts
    ["path-that-is-way-too-long", "path", "TOO_LONG"],
    ["Buy {KEYWORD:Boots}", "headline", "INVALID_DKI"],
    ["Buy {KeyWord:} Now", "headline", "INVALID_DKI"],
    ["Buy {KeyWord:Boots", "headline", "INVALID_DKI"],
    ["{KeyWord:Boots}{keyword:shoes}", "headline", "INVALID_DKI"],
    ["Great Boots!", "headline", "EXCLAMATION_IN_HEADLINE"],
    ["Great boots! Order now! Ships today.", "description", "EXCLAMATION_BUDGET"],
    ["Great boots?? Order now.", "description", "PUNCT_REPEATED"],
    ["Boots on sale...", "headline", "PUNCT_REPEATED"],
    ["Boots on sale…", "headline", "PUNCT_REPEATED"],
    ["Boots -- on sale", "headline", "PUNCT_REPEATED"],
    ["FREE Hiking Boots", "headline", "CAPITALIZATION"],
    ["HIKING BOOTS ON SALE", "headline", "CAPITALIZATION"],
    ["FlOwErS Delivered", "headline", "CAPITALIZATION"],
    ["FrEe Delivery", "headline", "CAPITALIZATION"],
    ["Hiking Boots 🥾", "headline", "EMOJI"],
    ["Hiking Boots ✅", "headline", "EMOJI"],
    ["Hiking Boots ★★", "headline", "UNSUPPORTED_CHARACTER"],
    ["• Hiking Boots", "headline", "UNSUPPORTED_CHARACTER"],
    ["ﾊｲｷﾝｸﾞ Boots", "headline", "UNSUPPORTED_CHARACTER"],
    ["Call 555-123-4567", "headline", "PHONE_NUMBER"],
    ["Call +44 20 7946 0958 today", "description", "PHONE_NUMBER"],
    ["Call 1-800-FLOWERS", "headline", "PHONE_NUMBER"],
    ["Click Here For Boots", "headline", "CLICK_HERE"],
    ["Great boots. Click now to see more.", "description", "CLICK_HERE"],
    ["Visit www.boots.com", "headline", "URL_OR_EMAIL"],
    ["Write to sales@boots.com", "headline", "URL_OR_EMAIL"],
    ["Hiking  Boots", "headline", "SPACING"],
    ["Sale,buy boots", "headline", "SPACING"],
    ["Boots , on sale", "headline", "SPACING"],
    ["B o o t s On Sale", "headline", "SPACING"],
    ["Boots Boots On Sale", "headline", "REPEATED_WORD"],
    ["Fl@wers Delivered", "headline", "SYMBOL_MISUSE"],
    ["*Free* Delivery", "headline", "SYMBOL_MISUSE"],
    ["Shop #boots", "headline", "SYMBOL_MISUSE"],
    ["Great boots @ low cost", "description", "SYMBOL_MISUSE"],
    ["Boots ~ Sale", "headline", "UNSUPPORTED_CHARACTER"],
    ["hiking boots", "path", "PATH_CHARACTERS"],
    ["a/b", "path", "PATH_CHARACTERS"],
  ])("%s (%s) → %s", (text, kind, code) => {
    expect(codes(text, kind)).toContain(code);
  });
});

describe("autofixLine", () => {
  it("fixes only spacing and doubled punctuation", () => {
    expect(autofixLine("  Hiking   Boots ,  on sale!!  ")).toBe("Hiking Boots, on sale!");
    expect(autofixLine("Boots\u200B Sale")).toBe("Boots Sale");
    expect(lintLine(autofixLine("Great boots!!  Order now."), "description")).toEqual([]);
  });
});

describe("duplicates and near-duplicates", () => {
  it("normalises case and punctuation", () => {
    expect(duplicateKey("Free Shipping!")).toBe(duplicateKey("free shipping"));
    expect(duplicateKey("Free-Shipping")).toBe(duplicateKey("Free Shipping"));
  });
  it.each([
    ["Free Shipping", "Free Shipping Today", true],
    ["Waterproof Hiking Boots", "Hiking Boots, Waterproof", true],
    ["Lightweight Trail Shoes", "Lightweight Trail Shoe", true],
    ["Free Shipping", "Handmade in Portugal", false],
    ["Waterproof Hiking Boots", "Boots for Long Trails", false],
  ])("%s ~ %s → %s", (a, b, near) => {
    expect(isNearDuplicate(a, b)).toBe(near);
  });
});

const line = (text: string) => ({ text });
const goodAd = {
  headlines: [
    "Waterproof Hiking Boots",
    "Free Shipping Over $50",
    "Handmade in Portugal",
    "Boots for Long Trails",
    "Vibram Soles That Grip",
    "Shop Trail Runners",
    "Sizes 36 to 48",
    "Light, Tough, Comfortable",
    "Returns Within 60 Days",
    "Made for Wet Weather",
    "Hiking Gear Since 1998",
  ].map(line),
  descriptions: [
    "Our waterproof boots keep your feet dry on every trail. Order today and ship for free.",
    "Handmade in Portugal with Vibram soles. Try them for 60 days with free returns.",
  ].map(line),
  path1: "boots",
  path2: "hiking",
};

describe("lintRsa", () => {
  it("passes a complete, clean ad", () => {
    const result = lintRsa(goodAd);
    expect(result.ok).toBe(true);
    expect(result.ad).toEqual([]);
  });

  it.each<[string, (ad: typeof goodAd) => void, (r: ReturnType<typeof lintRsa>) => LintCode[]]>([
    [
      "too few headlines",
      (ad) => {
        ad.headlines = ad.headlines.slice(0, 2);
      },
      (r) => r.ad.map((i) => i.code),
    ],
    [
      "too many headlines",
      (ad) => {
        ad.headlines = [...ad.headlines, ...Array.from({ length: 5 }, (_, i) => line(`Model ${i + 100} Boot`))];
      },
      (r) => r.ad.map((i) => i.code),
    ],
    [
      "too few descriptions",
      (ad) => {
        ad.descriptions = ad.descriptions.slice(0, 1);
      },
      (r) => r.ad.map((i) => i.code),
    ],
    [
      "too many descriptions",
      (ad) => {
        ad.descriptions = [...ad.descriptions, line("Alpha one."), line("Beta two."), line("Gamma three.")];
      },
      (r) => r.ad.map((i) => i.code),
    ],
    [
      "path2 without path1",
      (ad) => {
        ad.path1 = "";
      },
      (r) => r.path2.map((i) => i.code),
    ],
    [
      "a duplicate headline",
      (ad) => {
        ad.headlines.push(line("waterproof hiking boots!"));
      },
      (r) => r.headlines.at(-1)!.map((i) => i.code),
    ],
    [
      "a near-duplicate headline",
      (ad) => {
        ad.headlines.push(line("Free Shipping Over $50 Today"));
      },
      (r) => r.headlines.at(-1)!.map((i) => i.code),
    ],
    [
      'two descriptions with "!"',
      (ad) => {
        ad.descriptions = ad.descriptions.map((d) => line(`${d.text.slice(0, -1)}!`));
      },
      (r) => r.ad.map((i) => i.code),
    ],
  ])("refuses %s", (_name, mutate, pick) => {
    const ad = structuredClone(goodAd);
    mutate(ad);
    const result = lintRsa(ad);
    expect(result.ok).toBe(false);
    expect(pick(result).length).toBeGreaterThan(0);
  });
});

describe("pins", () => {
  const pinned = (pins: Array<string | undefined>) => ({
    ...goodAd,
    headlines: goodAd.headlines.slice(0, pins.length).map((h, i) => ({ ...h, pinnedField: pins[i] })),
  });
  it("accepts pins that leave the always-shown positions fillable", () => {
    expect(lintRsa(pinned(["HEADLINE_1", undefined, undefined])).ok).toBe(true);
    expect(lintRsa(pinned(["HEADLINE_1", "HEADLINE_1", "HEADLINE_2"])).ok).toBe(true);
    expect(lintRsa(pinned(["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"])).ok).toBe(true);
  });
  it("refuses pins that leave position 2 with nothing of its own", () => {
    const r = lintRsa(pinned(["HEADLINE_1", "HEADLINE_1", "HEADLINE_3"]));
    expect(r.ok).toBe(false);
    expect(r.ad.map((i) => i.code)).toContain("PIN_INFEASIBLE");
    expect(r.ad[0].message).toMatch(/position 2/);
  });
  it("refuses a description position on a headline", () => {
    const r = lintRsa(pinned(["DESCRIPTION_1", undefined, undefined]));
    expect(r.headlines[0].map((i) => i.code)).toContain("PIN_INVALID");
  });
});

describe("claims: every number, price, offer and superlative needs a source", () => {
  const sources = ["Free shipping over $50", "60-day returns", "Trusted by 10,000+ hikers", "waterproof hiking boots"];
  it.each<[string, boolean]>([
    ["Free Shipping Over $50", true],
    ["Ships Free on Orders Over $50", true],
    ["60-Day Returns", true],
    ["10,000+ Happy Hikers", true],
    ["Waterproof Hiking Boots", true],
    ["Save 30% Today", false], // made-up discount
    ["Free Returns", false], // "free" is about shipping in the facts
    ["Boots From $49", false], // a price nobody gave
    ["The Best Hiking Boots", false], // superlative
    ["#1 Boot Brand", false],
    ["Boots on Sale Now", false],
    ["Lifetime Guarantee", false],
  ])("%s → supported: %s", (line, ok) => {
    expect(unsupportedClaims(line, sources).length === 0).toBe(ok);
    const warned = lintLine(line, "headline", { claimSources: sources }).some((i) => i.code === "UNSUPPORTED_CLAIM");
    expect(warned).toBe(!ok);
  });
  it("finds numbers, offers and superlatives", () => {
    expect(
      claimsIn("Save 20% on the best boots, free shipping")
        .map((c) => c.kind)
        .sort(),
    ).toEqual(["number", "offer", "offer", "superlative"]);
    expect(claimsIn("Comfortable boots for long trails")).toEqual([]);
  });
  it("is a warning on its own but keeps a generated line out", () => {
    const [issue] = lintLine("Save 30% Today", "headline", { claimSources: [] });
    expect(issue.severity).toBe("warning");
    expect(blocksGeneratedLine(issue)).toBe(true);
    expect(lintRsa({ ...goodAd, headlines: [...goodAd.headlines, line("Save 30% Today")] }, { claimSources: [] }).ok).toBe(true);
  });
});

describe("estimateStrength", () => {
  it("rewards a full, varied, keyword-covering ad and explains what is missing", () => {
    const full = estimateStrength(goodAd, ["hiking boots", "trail"]);
    const thin = estimateStrength({ headlines: goodAd.headlines.slice(0, 3), descriptions: goodAd.descriptions.slice(0, 2) }, ["sandals"]);
    expect(full.score).toBeGreaterThan(thin.score);
    expect(thin.reasons).toContain("Add more unique headlines.");
    expect(thin.reasons).toContain("Include popular keywords in your headlines.");
    const pinned = estimateStrength({ ...goodAd, headlines: goodAd.headlines.map((h, i) => (i === 0 ? { ...h, pinnedField: "HEADLINE_1" } : h)) }, [
      "hiking boots",
      "trail",
    ]);
    expect(pinned.score).toBeLessThan(full.score);
    expect(pinned.reasons.join(" ")).toMatch(/Unpin/);
  });

  // The filler the old professional templates padded a retail ad with (issue 29 point 6).
  const FILLER = ["Request a Quote Today", "Talk to Our Team", "Plan Your Next Step", "Learn More Today", "Find the Right Fit", "Helpful Advice Available"];

  it("tells generic filler from lines that say something", () => {
    for (const t of [...FILLER, "Shop Now", "Questions? Ask Us", "Get Started Today", "Order Online Today", "We're Here to Help"]) {
      expect(isGenericLine(t), t).toBe(true);
    }
    for (const t of [...goodAd.headlines.map((h) => h.text), "Kids Sleeping Bags", "Made for Families", "Northwind Outdoor Gear", "Shop Down Jackets"]) {
      expect(isGenericLine(t), t).toBe(false);
    }
  });

  it("generic filler lowers the estimate instead of raising it", () => {
    const keywords = ["hiking boots", "trail"];
    const base = { ...goodAd, headlines: goodAd.headlines.slice(0, 9) };
    const padded = { ...base, headlines: [...base.headlines, ...FILLER.map(line)] };
    const before = estimateStrength(base, keywords);
    const after = estimateStrength(padded, keywords);
    expect(after.score).toBeLessThan(before.score);
    expect(after.band).not.toBe("Excellent");
    expect(after.reasons.join(" ")).toMatch(/5 more generic lines than one call to action \(“Talk to Our Team”, “Plan Your Next Step”, “Learn More Today”…\)/);
    // One call to action is good practice: it counts like any line.
    const oneCta = estimateStrength({ ...base, headlines: [...base.headlines, line("Shop Now")] }, keywords);
    expect(oneCta.score).toBeGreaterThanOrEqual(before.score);
    expect(oneCta.reasons.join(" ")).not.toMatch(/generic/);
  });
});

describe("editorialFix (generated lines)", () => {
  it.each<[string, LineKind, string]>([
    ["HIKING BOOTS ON SALE", "headline", "Hiking Boots On Sale"],
    ["Waterproof Boots!", "headline", "Waterproof Boots"],
    ["Great Boots!!  ", "headline", "Great Boots"],
    ["FREE Shipping on USA Orders", "headline", "Free Shipping on USA Orders"],
    ["Boots for the trail! Order today.", "description", "Boots for the trail! Order today."],
    ["Tough boots , built to last", "description", "Tough boots, built to last"],
  ])("%s → %s", (raw, kind, fixed) => {
    expect(editorialFix(raw, kind)).toBe(fixed);
  });
  it("leaves what it cannot fix to the gate", () => {
    expect(lintLine(editorialFix("Great! Boots", "headline"), "headline").map((i) => i.code)).toContain("EXCLAMATION_IN_HEADLINE");
  });
});
