// The accounts `npm run eval:optimizer` runs the recommendations engine on:
// archetypes written from ordinary PPC practice (not from the engine's
// thresholds), each with what an experienced PPC manager would write down
// (`expect`) and what they would refuse to sign (`refuse`). The labels were
// written before the engine was first run on these accounts; a label found
// wrong later is kept and explained in `notes`, never quietly changed.
//
// Figures are plain currency units over the fixture's 90 days unless a span
// says otherwise ("today" is ENGINE_TODAY; the last day with data is -1).

import type { CustomerInput } from "../emulator/fixtures/engine";

export interface Label {
  /** The rule `type` the finding must have. */
  type: string;
  /** Matched (case-insensitive) against the finding's resource names and ids: the keyword, term, campaign or ad group. */
  entity: string;
  /** Why an expert writes it down (expect) or refuses it (refuse). */
  reason: string;
}

export interface EvalAccount {
  /** Customer id of the account the engine runs on. */
  id: string;
  archetype: string;
  /** Zero findings is the only right answer. */
  clean?: boolean;
  expect: Label[];
  refuse: Label[];
  notes?: string[];
}

const ad = (theme: string) => ({
  headlines: [
    { text: `${theme} Online`, label: "BEST" as const },
    { text: "Free Delivery Over $50", label: "GOOD" as const },
    { text: "Rated 4.8 by Customers", label: "GOOD" as const },
    { text: "Order Today", label: "GOOD" as const },
  ],
  descriptions: [
    { text: `Shop ${theme.toLowerCase()} with free returns.`, label: "GOOD" as const },
    { text: "Fast shipping on every order.", label: "GOOD" as const },
  ],
  adStrength: "GOOD" as const,
});

const leadAd = (theme: string) => ({
  headlines: [
    { text: `${theme} You Can Trust`, label: "BEST" as const },
    { text: "Free Consultation", label: "GOOD" as const },
    { text: "Call Us Today", label: "GOOD" as const },
  ],
  descriptions: [
    { text: `Local ${theme.toLowerCase()} with 20 years of experience.`, label: "GOOD" as const },
    { text: "Book a visit online in two minutes.", label: "GOOD" as const },
  ],
  adStrength: "GOOD" as const,
});

/** A search term spread over the judged window. */
const term = (text: string, clicks: number, cost: number, conversions = 0, value = 0) => ({
  text,
  metrics: [{ from: -85, to: -5, impressions: clicks * 2, clicks, cost, conversions, value }],
});

// 1 — E-commerce shop bidding to ROAS.
const ecommerce: CustomerInput = {
  id: "4100000001",
  name: "Trailhead Outfitters (e-commerce, target ROAS)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Sleeping Bags",
      budget: 120,
      bidding: { strategy: "TARGET_ROAS", targetRoas: 4 },
      startDate: -500,
      metrics: [{ searchImpressionShare: 0.85, budgetLostImpressionShare: 0.02, rankLostImpressionShare: 0.13 }],
      adGroups: [
        {
          name: "Sleeping Bags",
          keywords: [
            {
              text: "sleeping bag",
              matchType: "PHRASE",
              qualityScore: 8,
              metrics: [{ impressions: 40000, clicks: 3000, cost: 3000, conversions: 120, value: 15000 }],
              searchTerms: [
                term("sleeping bag", 1800, 1800, 80, 10000),
                term("ultralight sleeping bag", 150, 150, 12, 1500),
                term("diy sleeping bag", 40, 28),
                term("diy sleeping bag pattern", 40, 28),
                term("diy down quilt sleeping bag", 40, 28),
                term("diy kids sleeping bag", 40, 28),
              ],
            },
            {
              text: "down sleeping bag",
              matchType: "EXACT",
              qualityScore: 8,
              metrics: [{ impressions: 12000, clicks: 1000, cost: 1200, conversions: 40, value: 6000 }],
            },
            { text: "sleeping bag liner", matchType: "BROAD", qualityScore: 6, metrics: [{ from: -60, to: -5, impressions: 5000, clicks: 400, cost: 480 }] },
          ],
          ads: [ad("Sleeping Bags")],
        },
      ],
    },
    {
      name: "Search | Tents",
      budget: 50,
      bidding: { strategy: "TARGET_ROAS", targetRoas: 4 },
      startDate: -500,
      metrics: [{ searchImpressionShare: 0.55, budgetLostImpressionShare: 0.35, rankLostImpressionShare: 0.1 }],
      adGroups: [
        {
          name: "Tents",
          keywords: [
            {
              text: "camping tent",
              matchType: "PHRASE",
              qualityScore: 8,
              metrics: [{ impressions: 25000, clicks: 2000, cost: 2000, conversions: 80, value: 12000 }],
            },
          ],
          ads: [ad("Tents")],
        },
      ],
    },
  ],
};

// 2 — Lead generation with a long conversion lag (leads are qualified 2–4 weeks after the click).
const leadGen: CustomerInput = {
  id: "4100000002",
  name: "Harbor Legal Intake (lead generation, long lag)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Personal Injury",
      budget: 300,
      bidding: { strategy: "TARGET_CPA", targetCpa: 80 },
      startDate: -700,
      metrics: [{ searchImpressionShare: 0.7, budgetLostImpressionShare: 0.05, rankLostImpressionShare: 0.25 }],
      adGroups: [
        {
          name: "Injury Lawyer",
          keywords: [
            {
              text: "personal injury lawyer",
              matchType: "PHRASE",
              qualityScore: 7,
              // The last two weeks look expensive only because their leads have not converted yet.
              metrics: [
                { from: -90, to: -15, impressions: 30000, clicks: 3000, cost: 12000, conversions: 150 },
                { from: -14, to: -1, impressions: 5600, clicks: 560, cost: 2240, conversions: 10 },
              ],
              searchTerms: [term("personal injury lawyer", 2000, 8000, 100), term("personal injury lawyer salary", 60, 300)],
            },
            {
              text: "free legal advice",
              matchType: "BROAD",
              qualityScore: 5,
              metrics: [{ from: -90, to: -20, impressions: 4000, clicks: 300, cost: 1500 }],
            },
            {
              text: "car accident lawyer",
              matchType: "PHRASE",
              qualityScore: 7,
              // Started 20 days ago: its leads are still being qualified.
              metrics: [{ from: -20, to: -1, impressions: 2500, clicks: 200, cost: 1000, conversions: 2 }],
            },
          ],
          ads: [leadAd("Injury Lawyers")],
        },
      ],
    },
  ],
};

// 3 — Local service business on a tiny budget, no target, one campaign.
const local: CustomerInput = {
  id: "4100000003",
  name: "Bright Spark Electric (local service, $15 a day)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Electrician",
      budget: 15,
      bidding: { strategy: "MAXIMIZE_CONVERSIONS" },
      startDate: -300,
      metrics: [{ searchImpressionShare: 0.3, budgetLostImpressionShare: 0.6, rankLostImpressionShare: 0.1 }],
      adGroups: [
        {
          name: "Electrician",
          keywords: [
            {
              text: "electrician near me",
              matchType: "PHRASE",
              qualityScore: 7,
              metrics: [{ impressions: 2500, clicks: 150, cost: 540, conversions: 12 }],
              searchTerms: [term("electrician near me", 100, 360, 10), term("electrician salary", 25, 90)],
            },
            { text: "emergency electrician", matchType: "EXACT", qualityScore: 8, metrics: [{ impressions: 600, clicks: 40, cost: 144, conversions: 6 }] },
            { text: "electrician jobs", matchType: "PHRASE", qualityScore: 4, metrics: [{ from: -80, to: -5, impressions: 900, clicks: 60, cost: 216 }] },
          ],
          ads: [leadAd("Electricians")],
        },
      ],
    },
  ],
};

// 4 — Brand-only account.
const brand: CustomerInput = {
  id: "4100000004",
  name: "Northwind Coffee Roasters (brand only)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Brand",
      budget: 40,
      bidding: { strategy: "MANUAL_CPC" },
      startDate: -900,
      metrics: [{ searchImpressionShare: 0.95, budgetLostImpressionShare: 0, rankLostImpressionShare: 0.05 }],
      adGroups: [
        {
          name: "Brand - Core",
          cpcBid: 0.6,
          keywords: [
            {
              text: "northwind coffee",
              matchType: "EXACT",
              qualityScore: 10,
              metrics: [{ impressions: 12000, clicks: 5000, cost: 1500, conversions: 600, value: 18000 }],
              searchTerms: [term("northwind coffee", 4500, 1350, 560, 16800), term("northwind coffee jobs", 30, 9)],
            },
            {
              text: "northwind coffee roasters",
              matchType: "PHRASE",
              qualityScore: 10,
              metrics: [{ impressions: 3500, clicks: 2000, cost: 700, conversions: 200, value: 6000 }],
            },
          ],
          ads: [ad("Northwind Coffee")],
        },
      ],
    },
  ],
};

// 5 — B2B with few conversions.
const b2b: CustomerInput = {
  id: "4100000005",
  name: "Ledgerline (B2B SaaS, few conversions)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Accounting Software",
      budget: 150,
      bidding: { strategy: "MAXIMIZE_CONVERSIONS", targetCpa: 400 },
      startDate: -600,
      metrics: [{ searchImpressionShare: 0.6, budgetLostImpressionShare: 0.05, rankLostImpressionShare: 0.35 }],
      adGroups: [
        {
          name: "Accounting Software",
          keywords: [
            { text: "accounting software", matchType: "PHRASE", qualityScore: 7, metrics: [{ impressions: 15000, clicks: 900, cost: 5400, conversions: 12 }] },
            {
              text: "cloud accounting software",
              matchType: "EXACT",
              qualityScore: 8,
              metrics: [{ impressions: 4000, clicks: 300, cost: 1800, conversions: 5 }],
            },
            {
              text: "free accounting software",
              matchType: "BROAD",
              qualityScore: 5,
              metrics: [{ from: -85, to: -5, impressions: 4000, clicks: 200, cost: 1200 }],
            },
            { text: "erp for small business", matchType: "PHRASE", qualityScore: 6, metrics: [{ from: -85, to: -5, impressions: 800, clicks: 40, cost: 240 }] },
          ],
          ads: [leadAd("Accounting Software")],
        },
      ],
    },
  ],
};

// 6 — A manager with two clients in two currencies.
const bakery: CustomerInput = {
  id: "4100000061",
  name: "Boulangerie Lyon (client, EUR)",
  currency: "EUR",
  timeZone: "Europe/Paris",
  campaigns: [
    {
      name: "Search | Pain",
      budget: 25,
      bidding: { strategy: "TARGET_CPA", targetCpa: 20 },
      startDate: -400,
      metrics: [{ searchImpressionShare: 0.8, budgetLostImpressionShare: 0.02, rankLostImpressionShare: 0.18 }],
      adGroups: [
        {
          name: "Pain",
          keywords: [
            { text: "pain au levain", matchType: "PHRASE", qualityScore: 8, metrics: [{ impressions: 12000, clicks: 1000, cost: 800, conversions: 50 }] },
            {
              text: "croissant livraison",
              matchType: "PHRASE",
              status: "PAUSED",
              qualityScore: 7,
              metrics: [{ from: -90, to: -40, impressions: 6000, clicks: 500, cost: 300, conversions: 25 }],
            },
          ],
          ads: [ad("Pain au Levain")],
        },
      ],
    },
  ],
};
const outdoorUk: CustomerInput = {
  id: "4100000062",
  name: "Highland Outdoor (client, GBP)",
  currency: "GBP",
  timeZone: "Europe/London",
  campaigns: [
    {
      name: "Search | Walking Boots",
      budget: 40,
      bidding: { strategy: "MAXIMIZE_CONVERSIONS", targetCpa: 30 },
      startDate: -400,
      negatives: [{ text: "waterproof", matchType: "PHRASE" }],
      metrics: [{ searchImpressionShare: 0.75, budgetLostImpressionShare: 0.03, rankLostImpressionShare: 0.22 }],
      adGroups: [
        {
          name: "Walking Boots",
          keywords: [
            { text: "walking boots", matchType: "PHRASE", qualityScore: 8, metrics: [{ impressions: 18000, clicks: 1500, cost: 1500, conversions: 60 }] },
            { text: "waterproof walking boots", matchType: "EXACT", qualityScore: 7 },
          ],
          ads: [ad("Walking Boots")],
        },
      ],
    },
  ],
};
const manager: CustomerInput = {
  id: "4100000060",
  name: "Atlas Agency (manager)",
  manager: true,
  clients: [String(bakery.id), String(outdoorUk.id)],
  currency: "USD",
};

// 7 — Mid-way through a bidding-strategy change (manual CPC → target CPA $35, ten days ago).
const switching: CustomerInput = {
  id: "4100000007",
  name: "Summit Ski Rentals (bidding strategy changed 10 days ago)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Ski Rental",
      budget: 60,
      bidding: { strategy: "TARGET_CPA", targetCpa: 35 },
      // What Google reports for it ten days after the change (campaign.primary_status).
      learning: true,
      startDate: -400,
      metrics: [
        { from: -90, to: -11, searchImpressionShare: 0.8, budgetLostImpressionShare: 0.05, rankLostImpressionShare: 0.15 },
        { from: -10, to: -1, searchImpressionShare: 0.6, budgetLostImpressionShare: 0.3, rankLostImpressionShare: 0.1 },
      ],
      adGroups: [
        {
          name: "Ski Rental",
          keywords: [
            {
              text: "ski rental",
              matchType: "PHRASE",
              qualityScore: 8,
              metrics: [
                { from: -90, to: -11, impressions: 24000, clicks: 2400, cost: 4800, conversions: 192 },
                { from: -10, to: -1, impressions: 3000, clicks: 300, cost: 900, conversions: 20 },
              ],
              searchTerms: [term("ski rental", 1500, 3000, 120), term("ski instructor jobs", 80, 160)],
            },
          ],
          ads: [ad("Ski Rental")],
        },
      ],
    },
  ],
};

// 8 — A clean, well-run account.
const clean: CustomerInput = {
  id: "4100000008",
  name: "Maple Dental (clean)",
  currency: "USD",
  campaigns: [
    {
      name: "Search | Dentist",
      budget: 80,
      bidding: { strategy: "TARGET_CPA", targetCpa: 60 },
      startDate: -800,
      negatives: [
        { text: "jobs", matchType: "PHRASE" },
        { text: "free", matchType: "PHRASE" },
      ],
      metrics: [{ searchImpressionShare: 0.82, budgetLostImpressionShare: 0.01, rankLostImpressionShare: 0.17 }],
      adGroups: [
        {
          name: "Dentist",
          keywords: [
            {
              text: "dentist near me",
              matchType: "PHRASE",
              qualityScore: 8,
              metrics: [{ impressions: 20000, clicks: 1500, cost: 4500, conversions: 90 }],
              searchTerms: [term("dentist near me", 900, 2700, 55), term("emergency dentist near me", 200, 600, 12)],
            },
            { text: "teeth whitening", matchType: "EXACT", qualityScore: 7, metrics: [{ impressions: 8000, clicks: 600, cost: 1500, conversions: 30 }] },
          ],
          ads: [leadAd("Dentists")],
        },
      ],
    },
    {
      name: "Search | Orthodontics",
      budget: 40,
      bidding: { strategy: "TARGET_CPA", targetCpa: 60 },
      startDate: -800,
      metrics: [{ searchImpressionShare: 0.78, budgetLostImpressionShare: 0.02, rankLostImpressionShare: 0.2 }],
      adGroups: [
        {
          name: "Invisalign",
          keywords: [{ text: "invisalign", matchType: "PHRASE", qualityScore: 8, metrics: [{ impressions: 9000, clicks: 700, cost: 2100, conversions: 40 }] }],
          ads: [leadAd("Orthodontists")],
        },
      ],
    },
  ],
};

export const EVAL_CUSTOMERS: CustomerInput[] = [ecommerce, leadGen, local, brand, b2b, manager, bakery, outdoorUk, switching, clean];

/** The labels, written before the engine was run on these accounts. */
export const EVAL_ACCOUNTS: EvalAccount[] = [
  {
    id: String(ecommerce.id),
    archetype: "E-commerce shop bidding to ROAS",
    expect: [
      { type: "wasted_keyword", entity: "sleeping bag liner", reason: "400 clicks and $480 with no sale at ROAS 400 %: pause" },
      { type: "negative_ngram", entity: "diy", reason: "four DIY searches, 160 clicks, no sale: people who make their own bag do not buy one" },
      {
        type: "harvest_search_term",
        entity: "ultralight sleeping bag",
        reason: "12 sales at ROAS 1000 % through a phrase keyword: give it its own exact keyword",
      },
      { type: "budget_limited", entity: "Search | Tents", reason: "loses 35 % to budget at ROAS 600 % against 400 %: raise the budget" },
    ],
    refuse: [
      { type: "negative_ngram", entity: "sleeping bag", reason: "the shop's own product" },
      { type: "bid_adjustment", entity: "Sleeping Bags", reason: "target ROAS sets the bids; nothing manual to move" },
    ],
  },
  {
    id: String(leadGen.id),
    archetype: "Lead generation with a long conversion lag",
    expect: [
      { type: "wasted_keyword", entity: "free legal advice", reason: "300 clicks and $1,500 over 70 days, not one lead: pause" },
      { type: "wasted_search_term", entity: "personal injury lawyer salary", reason: "job seekers, $300 and no lead: exclude" },
    ],
    refuse: [
      {
        type: "wasted_keyword",
        entity: "personal injury lawyer",
        reason: "the last two weeks look expensive only because their leads have not been qualified yet",
      },
      { type: "bid_adjustment", entity: "personal injury lawyer", reason: "as above: the lag, not the keyword" },
      { type: "wasted_keyword", entity: "car accident lawyer", reason: "20 days old in an account whose leads convert 2–4 weeks after the click: too early" },
    ],
  },
  {
    id: String(local.id),
    archetype: "Local service business on a tiny budget",
    expect: [
      { type: "wasted_keyword", entity: "electrician jobs", reason: "job seekers: $216, no call; pause" },
      { type: "wasted_search_term", entity: "electrician salary", reason: "job seekers: $90 (two calls' cost), no call; exclude" },
    ],
    refuse: [
      {
        type: "budget_limited",
        entity: "Search | Electrician",
        reason: "no target and no other campaign to compare with: whether $50 a call is worth more budget is the owner's call",
      },
    ],
  },
  {
    id: String(brand.id),
    archetype: "Brand-only account",
    clean: true,
    expect: [],
    refuse: [
      { type: "bid_adjustment", entity: "Brand - Core", reason: "brand earns 12× its cost; cutting its bid only hands clicks to competitors" },
      { type: "wasted_search_term", entity: "northwind coffee jobs", reason: "$9: not worth a line" },
    ],
  },
  {
    id: String(b2b.id),
    archetype: "B2B with few conversions",
    expect: [{ type: "wasted_keyword", entity: "free accounting software", reason: "200 clicks, $1,200 (3 target leads), none: pause" }],
    refuse: [
      { type: "wasted_keyword", entity: "accounting software", reason: "12 conversions at $450 against $400: within noise" },
      { type: "bid_adjustment", entity: "accounting software", reason: "smart bidding; and within noise" },
      { type: "wasted_keyword", entity: "erp for small business", reason: "$240, less than one target lead: too little data" },
    ],
  },
  {
    id: String(bakery.id),
    archetype: "Multi-currency manager: EUR client",
    expect: [{ type: "paused_converting", entity: "croissant livraison", reason: "25 orders at €12 against €20 while live: enable it again" }],
    refuse: [],
  },
  {
    id: String(outdoorUk.id),
    archetype: "Multi-currency manager: GBP client",
    expect: [{ type: "blocked_keyword", entity: "waterproof walking boots", reason: "the campaign negative “waterproof” silences the keyword" }],
    refuse: [],
  },
  {
    id: String(switching.id),
    archetype: "Mid-way through a bidding-strategy change",
    expect: [{ type: "wasted_search_term", entity: "ski instructor jobs", reason: "job seekers: $160, no rental; a negative does not disturb learning" }],
    refuse: [
      {
        type: "budget_limited",
        entity: "Search | Ski Rental",
        reason: "target CPA started 10 days ago: leave budget and bids alone until the strategy has learnt (2+ weeks)",
      },
      { type: "bid_adjustment", entity: "Ski Rental", reason: "as above" },
    ],
  },
  { id: String(clean.id), archetype: "Clean account", clean: true, expect: [], refuse: [] },
];
