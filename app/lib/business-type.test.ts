import { describe, expect, it } from "vitest";
import { classifyBrief, classifyBusiness, type BusinessSignals } from "./business-type";

// The kind of business from what an account shows, on accounts shaped like real ones: an
// online shop, a plumber with a service area, a B2B software company. Each verdict must give
// its basis, and an account that shows nothing must say so rather than pretend.

const none: BusinessSignals = { shoppingCampaigns: 0, valueBiddingCampaigns: 0, conversions: 0, conversionsValue: 0, keywords: [], adLines: [], finalUrls: [] };

const shop: BusinessSignals = {
  ...none,
  valueBiddingCampaigns: 3,
  conversions: 840,
  conversionsValue: 71_400,
  keywords: [
    { text: "down sleeping bag", impressions: 42_000 },
    { text: "buy sleeping bag", impressions: 8_000 },
    { text: "sleeping bag sale", impressions: 6_500 },
    { text: "kids sleeping bag", impressions: 9_000 },
  ],
  adLines: ["Shop Down Sleeping Bags", "Free Shipping Over $50", "Order Today, Ships in 24h", "Built for the Backcountry"],
  finalUrls: ["https://www.northwind-outdoor.example/sleeping-bags/down"],
};

const plumber: BusinessSignals = {
  ...none,
  conversions: 120,
  conversionsValue: 0,
  keywords: [
    { text: "emergency plumber leeds", impressions: 5_200 },
    { text: "plumber near me", impressions: 9_800 },
    { text: "boiler repair", impressions: 4_100 },
    { text: "blocked drain", impressions: 2_000 },
  ],
  adLines: ["24/7 Emergency Plumbers", "Local Engineers in Leeds", "Book a Visit Today", "Boiler Repair and Servicing"],
  finalUrls: ["https://www.example-plumbing.co.uk/book", "https://www.example-plumbing.co.uk/areas-we-cover/leeds"],
};

const software: BusinessSignals = {
  ...none,
  conversions: 64,
  conversionsValue: 0,
  keywords: [
    { text: "crm software for small business", impressions: 7_400 },
    { text: "crm demo", impressions: 1_900 },
    { text: "sales pipeline tool", impressions: 3_000 },
    { text: "crm free trial", impressions: 2_600 },
  ],
  adLines: ["Book a Free Demo", "CRM Software for Small Teams", "Request a Quote in Minutes"],
  finalUrls: ["https://www.example-crm.com/demo", "https://www.example-crm.com/pricing"],
};

describe("classifyBusiness", () => {
  it("reads an online shop as retail, from its searches, its ads and its value bidding", () => {
    const guess = classifyBusiness(shop);
    expect(guess).toMatchObject({ type: "retail", detected: true });
    expect(guess.basis.join(" ")).toMatch(/keyword impressions are searches with “buy”|“sale”/);
    expect(guess.basis.join(" ")).toMatch(/3 campaigns bid for conversion value/);
  });

  it("reads a plumber as a local service and a software company as lead generation", () => {
    expect(classifyBusiness(plumber)).toMatchObject({ type: "local_service", detected: true });
    expect(classifyBusiness(plumber).basis.join(" ")).toMatch(/“near me”|“emergency”|“plumber”/);
    const crm = classifyBusiness(software);
    expect(crm).toMatchObject({ type: "lead_generation", detected: true });
    expect(crm.basis.join(" ")).toMatch(/“software”|“demo”/);
  });

  it("a Shopping campaign alone is enough for retail", () => {
    expect(classifyBusiness({ ...none, shoppingCampaigns: 1 })).toMatchObject({ type: "retail", detected: true, basis: ["It runs 1 Shopping campaign."] });
  });

  it("says so when the account shows nothing either way", () => {
    const guess = classifyBusiness({ ...none, keywords: [{ text: "sleeping bag", impressions: 100 }], adLines: ["Northwind Outdoor Gear"] });
    expect(guess.detected).toBe(false);
    expect(guess.basis[0]).toMatch(/choose the one that fits/);
  });
});

describe("classifyBrief (no account)", () => {
  it("uses the words the person typed", () => {
    expect(classifyBrief(["Boiler repair", "homeowners near me"])).toMatchObject({ type: "local_service", detected: true });
    expect(classifyBrief(["Landscape design quotes", "homeowners"])).toMatchObject({ type: "lead_generation", detected: true });
    expect(classifyBrief(["Hiking boots", "weekend hikers"])).toMatchObject({ type: "retail", detected: false });
  });
});
