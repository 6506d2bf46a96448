import type { FixtureInput } from "../../emulator/ads/fixture/schema";

/**
 * Test support: an account whose names look alike, for the assistant's entity
 * resolution ("Tents" vs "Climbing Gear"; "Brand - Core" vs "Brand - Core
 * Plus"; ad groups "Family Tents" and "Family Tents XL"; keywords "hiking
 * boots" and "hiking boots sale"). Search | Climbing Gear is the campaign held
 * back by its budget, so an answer that ignores the name it was given and
 * drafts "the budget-limited campaign" drafts the wrong one.
 */
export const LOOKALIKE_ID = "4440001111";

const kw = (text: string, matchType: "EXACT" | "PHRASE" | "BROAD", clicks: number, cost: number, conversions: number) => ({
  text,
  matchType,
  qualityScore: 6,
  metrics: [{ from: -60, to: -1, impressions: clicks * 12, clicks, cost, conversions, value: conversions * 90 }],
});

export const lookalikeFixture: FixtureInput = {
  days: 60,
  customers: [
    {
      id: LOOKALIKE_ID,
      name: "Lookalike Outdoor",
      currency: "USD",
      timeZone: "America/New_York",
      campaigns: [
        {
          name: "Search | Tents",
          budget: 50,
          bidding: { strategy: "MANUAL_CPC" },
          metrics: [{ searchImpressionShare: 0.8, budgetLostImpressionShare: 0.04 }],
          adGroups: [
            { name: "Family Tents", cpcBid: 1.1, keywords: [kw("family tent", "PHRASE", 600, 620, 30), kw("cheap tents", "BROAD", 200, 180, 0)] },
            { name: "Family Tents XL", cpcBid: 1.3, keywords: [kw("xl family tent", "EXACT", 150, 190, 8)] },
          ],
        },
        {
          name: "Search | Climbing Gear",
          budget: 200,
          bidding: { strategy: "MANUAL_CPC" },
          metrics: [{ searchImpressionShare: 0.34, budgetLostImpressionShare: 0.48 }],
          adGroups: [
            { name: "Climbing Ropes", cpcBid: 1.5, keywords: [kw("climbing rope", "PHRASE", 900, 1300, 60)] },
            { name: "Boots", cpcBid: 1.2, keywords: [kw("hiking boots", "EXACT", 400, 500, 25), kw("hiking boots sale", "PHRASE", 300, 330, 9)] },
          ],
        },
        {
          name: "Brand - Core",
          budget: 30,
          bidding: { strategy: "MANUAL_CPC" },
          adGroups: [{ name: "Brand Terms", cpcBid: 0.5, keywords: [kw("lookalike outdoor", "EXACT", 500, 220, 50)] }],
        },
        {
          name: "Brand - Core Plus",
          budget: 40,
          bidding: { strategy: "MANUAL_CPC" },
          adGroups: [{ name: "Brand Terms Plus", cpcBid: 0.6, keywords: [kw("lookalike outdoor store", "PHRASE", 300, 170, 20)] }],
        },
      ],
    },
  ],
};
