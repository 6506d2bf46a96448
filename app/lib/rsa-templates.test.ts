import { describe, expect, it } from "vitest";
import { adTextWidth, blocksGeneratedLine, lintRsa } from "./ad-lint";
import { fitWidth, generateTemplateRsa, regenerateTemplateLine, toPath, type RsaBrief } from "./rsa-templates";

const brief: RsaBrief = {
  product: "waterproof hiking boots",
  audience: "weekend hikers",
  tone: "professional",
  keywords: ["hiking boots", "waterproof boots", "trail shoes"],
  facts: ["Free shipping over $50", "60-day returns"],
};

describe("generateTemplateRsa", () => {
  it("builds a complete, valid RSA from the brief and covers the keywords", () => {
    const ad = generateTemplateRsa(brief);
    expect(ad.headlines).toHaveLength(15);
    expect(ad.descriptions).toHaveLength(4);
    expect(lintRsa(ad).ok).toBe(true);
    expect(ad.path1).toBe("hiking-boots");
    expect(ad.path2).toBe("waterproof");
    const covering = ad.headlines.filter((h) => /hiking boots|waterproof boots/i.test(h.text));
    expect(covering.length).toBeGreaterThanOrEqual(2);
    expect(ad.headlines.map((h) => h.text)).toContain("Free Shipping Over $50");
  });

  it("puts the ad group's BEST/GOOD assets first and never reuses a LOW one", () => {
    const ad = generateTemplateRsa({
      ...brief,
      existing: [
        { text: "Boots Built for Wet Trails", fieldType: "HEADLINE", label: "BEST" },
        { text: "Hiking Boots", fieldType: "HEADLINE", label: "LOW" },
        { text: "Hand-stitched in Portugal and tested on real trails. See every model online.", fieldType: "DESCRIPTION", label: "GOOD" },
      ],
    });
    expect(ad.headlines[0].text).toBe("Boots Built for Wet Trails");
    expect(ad.descriptions[0].text).toMatch(/^Hand-stitched/);
    expect(ad.headlines.some((h) => h.text.toLowerCase() === "hiking boots")).toBe(false);
    expect(lintRsa(ad).ok).toBe(true);
  });

  it("states no number the user did not give", () => {
    const ad = generateTemplateRsa({ product: "garden design", audience: "homeowners", tone: "urgent" });
    const text = [...ad.headlines, ...ad.descriptions].map((l) => l.text).join(" ");
    expect(text).not.toMatch(/\d|%|\$|\bbest\b|#1|free/i);
  });

  // Property: whatever the user types, the output passes the gate with a full set of lines.
  it("always passes the gate, for many random briefs", () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const pieces = [
      "boots",
      "CRM software",
      "ハイキングブーツ",
      "日本語の長い商品名です",
      "FREE STUFF",
      "call 555-123-4567",
      "🥾 boots",
      "click here",
      "dog grooming",
      "a",
      "emergency plumber",
      "wedding photography",
      "x".repeat(60),
      "SaaS",
      "café",
      "best deals!!",
      "www.example.com",
      "tax   advice",
      "B o o t s",
      "{KeyWord:Boots}",
      "{broken",
      "solar panels",
      "yoga",
    ];
    for (let i = 0; i < 300; i++) {
      const words = (n: number) => Array.from({ length: n }, () => pick(pieces)).join(" ");
      const b: RsaBrief = {
        product: words(1 + Math.floor(rand() * 3)),
        audience: words(1 + Math.floor(rand() * 2)),
        tone: pick(["professional", "casual", "urgent", "friendly"]),
        keywords: Array.from({ length: Math.floor(rand() * 6) }, () => words(1 + Math.floor(rand() * 2))),
        facts: Array.from({ length: Math.floor(rand() * 3) }, () => words(2)),
      };
      const ad = generateTemplateRsa(b);
      const lint = lintRsa(ad, { claimSources: [b.product, b.audience, ...(b.keywords ?? []), ...(b.facts ?? [])] });
      expect(lint.ok, JSON.stringify({ b, ad, lint })).toBe(true);
      const blocked = [...lint.headlines, ...lint.descriptions].flat().filter(blocksGeneratedLine);
      expect(blocked, JSON.stringify({ b, blocked })).toEqual([]);
      expect(ad.headlines).toHaveLength(15);
      expect(ad.descriptions).toHaveLength(4);
    }
  });
});

describe("regenerateTemplateLine", () => {
  it("replaces one line with a valid line that repeats none of the others", () => {
    const ad = generateTemplateRsa(brief);
    const next = regenerateTemplateLine(brief, ad, "headline", 3);
    expect(next).toBeTruthy();
    const replaced = { ...ad, headlines: ad.headlines.map((h, i) => (i === 3 ? { text: next! } : h)) };
    expect(next).not.toBe(ad.headlines[3].text);
    expect(lintRsa(replaced).ok).toBe(true);
    const d = regenerateTemplateLine(brief, ad, "description", 0)!;
    expect(lintRsa({ ...ad, descriptions: ad.descriptions.map((x, i) => (i === 0 ? { text: d } : x)) }).ok).toBe(true);
  });
});

describe("regenerateTemplateLine on a full ad", () => {
  it("finds a fresh line for every slot, one after another", () => {
    let ad = generateTemplateRsa(brief);
    for (const kind of ["headline", "description"] as const) {
      const count = kind === "headline" ? ad.headlines.length : ad.descriptions.length;
      for (let i = 0; i < count; i++) {
        const next = regenerateTemplateLine(brief, ad, kind, i);
        expect(next, `${kind} ${i}`).toBeTruthy();
        const replace = (l: { text: string }[]) => l.map((x, j) => (j === i ? { text: next! } : x));
        ad = kind === "headline" ? { ...ad, headlines: replace(ad.headlines) } : { ...ad, descriptions: replace(ad.descriptions) };
        expect(lintRsa(ad).ok).toBe(true);
      }
    }
  });
});

describe("fitting", () => {
  it("cuts at a word boundary by width and makes paths", () => {
    expect(fitWidth("Premium Waterproof Hiking Boots Now", 30)).toBe("Premium Waterproof Hiking");
    expect(adTextWidth(fitWidth("日本 語の 長い 商品名 です ハイキング ブーツ", 30)!)).toBeLessThanOrEqual(30);
    expect(fitWidth("x".repeat(40), 30)).toBeNull();
    expect(toPath("Waterproof Hiking Boots")).toBe("waterproof");
    expect(toPath("Hiking Boots!")).toBe("hiking-boots");
  });
});
