// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { Context } from "./context.server";
import { isBrandNegative } from "./negatives.server";
import { negativeProblem } from "./safety.server";

// Issue 28 (measured): the brand-only eval account got "Exclude the search term
// “northwind coffee jobs”" — a search for the brand, never excluded.

describe("isBrandNegative", () => {
  const brand = ["northwind coffee", "northwind coffee roasters"];
  it("holds a whole brand keyword, or only brand words (stems compared)", () => {
    expect(isBrandNegative("northwind coffee jobs", brand)).toBe(true);
    expect(isBrandNegative("northwind", brand)).toBe(true);
    expect(isBrandNegative("northwind roaster", brand)).toBe(true);
  });
  it("leaves other negatives alone, and every negative when there is no brand campaign", () => {
    expect(isBrandNegative("coffee jobs", brand)).toBe(false);
    expect(isBrandNegative("barista jobs", brand)).toBe(false);
    expect(isBrandNegative("northwind coffee jobs", [])).toBe(false);
  });
});

describe("negativeProblem: brand searches", () => {
  const kw = (campaignId: string, adGroupId: string, text: string) => ({
    campaignId,
    adGroupId,
    criterionId: text,
    text,
    matchType: "EXACT",
    status: "ENABLED",
  });
  const ctx = (brandName: string) => {
    const keywords = [kw("1", "10", "northwind coffee"), kw("2", "20", "coffee beans")];
    return {
      campaigns: new Map([
        ["1", { id: "1", name: brandName }],
        ["2", { id: "2", name: "Search | Beans" }],
      ]),
      adGroups: new Map([
        ["10", { id: "10", status: "ENABLED" }],
        ["20", { id: "20", status: "ENABLED" }],
      ]),
      keywordsByCampaign: new Map([
        ["1", [keywords[0]]],
        ["2", [keywords[1]]],
      ]),
      keywordsByAdGroup: new Map([
        ["10", [keywords[0]]],
        ["20", [keywords[1]]],
      ]),
      termsByAdGroup: new Map(),
      termsByCampaign: new Map(),
    } as unknown as Context;
  };

  it("refuses a negative that excludes the brand, in the brand campaign and in any other", () => {
    const c = ctx("Search | Brand");
    expect(negativeProblem(c, { text: "northwind coffee jobs", matchType: "EXACT" }, { level: "ad_group", parentId: "10" })).toMatch(/search for the brand/);
    expect(negativeProblem(c, { text: "northwind", matchType: "PHRASE" }, { level: "campaign", parentId: "2" })).toMatch(/search for the brand/);
    expect(negativeProblem(c, { text: "barista jobs", matchType: "EXACT" }, { level: "ad_group", parentId: "10" })).toBeNull();
  });

  it("an account without a brand campaign keeps the usual checks only", () => {
    expect(
      negativeProblem(ctx("Search | Coffee Shop"), { text: "northwind coffee jobs", matchType: "EXACT" }, { level: "ad_group", parentId: "20" }),
    ).toBeNull();
  });
});
