// @vitest-environment node
import { describe, expect, it } from "vitest";
import { isProductWordNegative, stem } from "./negatives.server";

// The product-word test behind issue 28 point 1: singular/plural and simple
// stem variants of a keyword's words are the same product word.

describe("stem", () => {
  it("joins singulars, plurals and simple -ing/-ed forms", () => {
    const pairs: Array<[string, string]> = [
      ["toy", "toys"],
      ["box", "boxes"],
      ["battery", "batteries"],
      ["knife", "knives"],
      ["glove", "gloves"],
      ["glass", "glasses"],
      ["camp", "camping"],
      ["hike", "hiking"],
      ["run", "running"],
      ["kid", "kid's"],
    ];
    for (const [a, b] of pairs) expect(stem(b), `${a} / ${b}`).toBe(stem(a));
  });

  it("keeps different words apart", () => {
    for (const [a, b] of [
      ["toy", "diy"],
      ["tent", "tend"],
      ["free", "tree"],
      ["pattern", "patter"],
    ])
      expect(stem(a), `${a} / ${b}`).not.toBe(stem(b));
  });
});

describe("isProductWordNegative", () => {
  const keywords = ["kids toys", "wooden toys"];
  it("is true when every meaningful word is a keyword word (by stem)", () => {
    expect(isProductWordNegative("toy", keywords)).toBe(true);
    expect(isProductWordNegative("wooden toy", keywords)).toBe(true);
    expect(isProductWordNegative("toys for kids", keywords)).toBe(true);
  });
  it("is false when one word is not the product's", () => {
    expect(isProductWordNegative("diy toy", keywords)).toBe(false);
    expect(isProductWordNegative("free", keywords)).toBe(false);
    expect(isProductWordNegative("for", keywords)).toBe(false);
  });
});
