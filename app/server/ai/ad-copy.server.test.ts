import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { blocksGeneratedLine, lintRsa } from "~/lib/ad-lint";
import { claimSourcesOf, generateAdCopy, MAX_REPAIR_ROUNDS, NO_MODEL_NOTICE, regenerateLine, type AdCopyBrief, type AdCopyGrounding } from "./ad-copy.server";

// The pipeline with a scripted model (the SDK's MockLanguageModelV3): each call plays the next
// answer, and the prompts it was sent are recorded, so a test can see what the repair asked for.

const brief: AdCopyBrief = {
  product: "waterproof hiking boots",
  audience: "weekend hikers",
  tone: "professional",
  keywords: ["hiking boots", "waterproof boots"],
  facts: ["Free shipping over $50", "60-day returns"],
};
const grounding: AdCopyGrounding = {
  existing: [
    { text: "Boots Built for Wet Trails", fieldType: "HEADLINE", label: "BEST" },
    { text: "Cheap Boots Here", fieldType: "HEADLINE", label: "LOW" },
    { text: "Hand-stitched boots tested on real trails. See every model online.", fieldType: "DESCRIPTION", label: "GOOD" },
  ],
};

function answer(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 100, text: 100, reasoning: 0 },
    },
    warnings: [],
  };
}
const json = (v: unknown) => answer(JSON.stringify(v));

/** The text of the user turn the model was sent on call i. */
function userPrompt(model: MockLanguageModelV3, i: number): string {
  const prompt = (model.doGenerateCalls[i] as LanguageModelV3CallOptions).prompt;
  return prompt
    .filter((m) => m.role === "user")
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .map((p) => ("text" in p ? p.text : ""))
    .join("\n");
}

const GOOD_HEADLINES = [
  "Waterproof Hiking Boots",
  "Hiking Boots for Wet Days",
  "Built for Weekend Trails",
  "Dry Feet on Every Hike",
  "Grip on Muddy Ground",
  "Light Enough for Long Days",
];
// Trivially fixable in code: kept as "Dry Feet All Day" and "Grippy Soles".
const FIXABLE_HEADLINES = ["DRY FEET ALL DAY", "Grippy Soles!"];
const BAD_HEADLINES = [
  "Waterproof Hiking Boots Built For Every Trail", // too long (45)
  "waterproof hiking boots!", // duplicate of the first (and "!")
  "HIKING BOOTS ON SALE", // shouting, fixable, but the sale is made up
  "Save 40% on Hiking Boots", // made-up discount
  "The Best Boots in Town", // unsupported superlative
  "Cheap Boots Here Today", // close to a LOW asset
];
const GOOD_DESCRIPTIONS = ["Waterproof hiking boots that keep weekend hikers dry from the first step to the last."];
const BAD_DESCRIPTIONS = [
  "Get 50% off all boots today only, the lowest prices you will ever see online anywhere.", // made-up discount
  "Waterproof hiking boots that keep weekend hikers dry from the first step to the last!!", // duplicate + "!!"
  "Call 555-123-4567 to order.", // phone number
];

describe("generateAdCopy with a model", () => {
  it("keeps only valid lines, repairs only the failed slots, and fills the rest from templates", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        json({
          headlines: [...GOOD_HEADLINES, ...FIXABLE_HEADLINES, ...BAD_HEADLINES],
          descriptions: [...GOOD_DESCRIPTIONS, ...BAD_DESCRIPTIONS],
          path1: "hiking-boots",
          path2: "waterproof",
        }),
        answer('{"headlines": ["Trail Ready Boots", '), // broken JSON
        json({
          headlines: ["Trail Ready Boots", "Sure Footing in the Rain", "FREE RETURNS!!"],
          descriptions: ["Free shipping over $50 and 60-day returns on every pair of waterproof boots."],
          path1: "",
          path2: "",
        }),
      ],
    });
    const result = await generateAdCopy(brief, grounding, { model });

    // Three calls: the first and at most two repair rounds.
    expect(model.doGenerateCalls).toHaveLength(1 + MAX_REPAIR_ROUNDS);
    expect(result.source).toBe("model");

    // Only valid lines come out: the whole ad passes the gate, grounding included.
    const lint = lintRsa(result, { claimSources: claimSourcesOf(brief) });
    expect(lint.ok).toBe(true);
    expect([...lint.headlines, ...lint.descriptions].flat().filter(blocksGeneratedLine)).toEqual([]);
    expect(result.headlines).toHaveLength(15);
    expect(result.descriptions).toHaveLength(4);
    const texts = [...result.headlines, ...result.descriptions].map((l) => l.text);
    for (const bad of [...BAD_HEADLINES, ...BAD_DESCRIPTIONS, "FREE RETURNS!!", "Free Returns!"]) expect(texts).not.toContain(bad);
    for (const good of [...GOOD_HEADLINES, "Dry Feet All Day", "Grippy Soles", "Trail Ready Boots", "Sure Footing in the Rain"]) expect(texts).toContain(good);
    expect(texts.join(" ")).not.toMatch(/DRY FEET|!|[Ss]ale/);
    expect(texts).toContain(GOOD_DESCRIPTIONS[0]);
    expect(texts).toContain("Free shipping over $50 and 60-day returns on every pair of waterproof boots.");
    expect(result.path1).toBe("hiking-boots");
    expect(result.path2).toBe("waterproof");

    // The first call over-generates and carries the grounding.
    const first = userPrompt(model, 0);
    expect(first).toContain("Write 20 headlines and 6 descriptions");
    expect(first).toMatch(/Style examples[^]*Boots Built for Wet Trails/);
    expect(first).toMatch(/Counter-examples[^]*Cheap Boots Here/);
    expect(first).toContain("F1: Free shipping over $50");

    // The repair asks only for the empty slots, says why each line was refused, and lists what was kept.
    const repair = userPrompt(model, 1);
    expect(repair).toContain("Write exactly 7 new headlines and 3 new descriptions.");
    expect(repair).not.toContain("Write 20 headlines");
    expect(repair).toMatch(/Already kept[^]*- headline: Waterproof Hiking Boots/);
    expect(repair).toMatch(/Waterproof Hiking Boots Built For Every Trail”: 45\/30/);
    expect(repair).toMatch(/“Save 40% on Hiking Boots”: “40%” isn't in your facts/);
    expect(repair).toMatch(/“Hiking Boots On Sale”: “sale” isn't in your facts/); // the capitals were fixed, the claim can't be
    expect(repair).not.toMatch(/Dry Feet All Day”:|Grippy Soles”:/);
    expect(repair).toMatch(/“Cheap Boots Here Today”: too close to “Cheap Boots Here”/);
    expect(repair).toMatch(/“Call 555-123-4567 to order\.”: Phone numbers/);
    // Round 2 follows broken JSON: it says so, and asks for the same missing slots, no more.
    const second = userPrompt(model, 2);
    expect(second).toContain("could not be used");
    expect(second).toContain("Write exactly 7 new headlines and 3 new descriptions.");

    expect(result.notices.join(" ")).toMatch(/came from templates/);
    expect(result.strength.score).toBeGreaterThan(0);
    expect(result.strength.reasons).toBeInstanceOf(Array);
  });

  it("stops after one call when the model's lines fill the ad", async () => {
    const headlines = [
      "Waterproof Hiking Boots",
      "Hiking Boots for Wet Days",
      "Built for Weekend Trails",
      "Dry Feet on Every Hike",
      "Grip on Muddy Ground",
      "Light Enough for Long Days",
      "Trail Ready Boots",
      "Sure Footing in the Rain",
      "Made for Rocky Paths",
      "Comfort Mile After Mile",
      "Boots That Breathe",
      "Laced for Support",
      "Step Out With Confidence",
      "Ready for the Weekend",
      "Cushioned Every Step",
      "Tough Leather Uppers",
      "Sizes for Every Foot",
    ];
    const descriptions = [
      "Waterproof hiking boots that keep weekend hikers dry from the first step to the last.",
      "Grippy soles, cushioned midsoles and tough uppers for rocky, muddy or wet trails.",
      "Free shipping over $50 and 60-day returns on every pair of our waterproof boots.",
      "Find your size online, compare the models and order the pair that suits your hikes.",
      "Breathable linings keep feet cool while the waterproof shell keeps the rain out.",
    ];
    const model = new MockLanguageModelV3({ doGenerate: [json({ headlines, descriptions, path1: "boots", path2: "waterproof" })] });
    const result = await generateAdCopy(brief, grounding, { model });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(result.headlines.map((h) => h.text)).toEqual(headlines.slice(0, 15));
    expect(result.descriptions.map((d) => d.text)).toEqual(descriptions.slice(0, 4));
    expect(result.notices).toEqual([]);
    expect(lintRsa(result).ok).toBe(true);
  });

  it("falls back to templates, and says so, when the model can't be reached", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:11434");
      },
    });
    const result = await generateAdCopy(brief, grounding, { model });
    expect(result.source).toBe("templates");
    expect(result.notices[0]).toMatch(/could not be reached.*ECONNREFUSED/);
    expect(result.headlines.length).toBeGreaterThanOrEqual(9);
    expect(lintRsa(result).ok).toBe(true);
  });
});

describe("generateAdCopy without a model", () => {
  it("builds a valid RSA from templates and says no model is configured", async () => {
    const result = await generateAdCopy(brief, grounding, { model: null });
    expect(result.source).toBe("templates");
    // Templates write as many headlines as they have something specific for, and say so when it is fewer than a full ad's.
    expect(result.headlines.length).toBeGreaterThanOrEqual(9);
    expect(result.notices).toEqual([
      NO_MODEL_NOTICE,
      `${result.headlines.length} headlines say something specific without repeating each other; add facts (what sets it apart, delivery, guarantees) or more keywords for more.`,
    ]);
    expect(result.descriptions).toHaveLength(4);
    expect(result.headlines[0].text).toBe("Boots Built for Wet Trails"); // the BEST asset first
    expect(result.headlines.some((h) => /cheap boots/i.test(h.text))).toBe(false); // never the LOW one
    expect(result.headlines.filter((h) => /hiking boots|waterproof boots/i.test(h.text)).length).toBeGreaterThanOrEqual(2);
    expect(lintRsa(result, { claimSources: claimSourcesOf(brief) }).ok).toBe(true);
    expect(result.strength.reasons.join(" ")).not.toMatch(/Google's rating/);
  });
});

describe("regenerateLine", () => {
  it("asks the model for that one line and keeps the first candidate that passes", async () => {
    const ad = await generateAdCopy(brief, grounding, { model: null });
    const model = new MockLanguageModelV3({
      doGenerate: [json({ headlines: [ad.headlines[0].text, "BOOTS!!!", "Sure Footing in the Rain"], descriptions: [], path1: "", path2: "" })],
    });
    const next = await regenerateLine(brief, grounding, ad, "headline", 4, { model });
    expect(next).toEqual({ text: "Sure Footing in the Rain", source: "model" });
    expect(userPrompt(model, 0)).toContain(`Replace the headline “${ad.headlines[4].text}”`);
  });

  it("falls back to a template line without a model", async () => {
    const ad = await generateAdCopy(brief, grounding, { model: null });
    const next = await regenerateLine(brief, grounding, ad, "description", 1, { model: null });
    expect(next?.source).toBe("templates");
    const replaced = { ...ad, descriptions: ad.descriptions.map((d, i) => (i === 1 ? { text: next!.text } : d)) };
    expect(next!.text).not.toBe(ad.descriptions[1].text);
    expect(lintRsa(replaced).ok).toBe(true);
  });
});
