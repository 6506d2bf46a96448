/**
 * The assistant's evaluation set: questions an advertiser asks, the tools a
 * good answer must use (each inner list is "any of these"), and the facts it
 * must contain. Facts are computed from the account's synced data at run time
 * (the costliest campaign, the worst search term, …), so they stay true if the
 * demo data changes; a few name planted findings of the demo account
 * (emulator/ads/demo/PLANTED.md).
 */

export interface Truth {
  topCampaign: string;
  bestCpaCampaign: string;
  budgetLimited: string;
  topWastedTerm: string;
  topWastedKeyword: string;
  topTerm: string;
  lowQsKeyword: string;
  topConvKeyword: string;
  pausedCampaign: string;
  accountCost: number;
  accountConversions: number;
  tentsCampaignId: string;
  /** Calendar periods as labels ("Nov 9 – Nov 15, 2026"), and what happened in them. */
  yesterday: string;
  lastWeek: string;
  lastWeekConversions: number;
  weekBeforeConversions: number;
  /** "Nov 1" ("" on the 1st, when this month has no complete day). */
  monthStart: string;
  lastMonth: string;
  lastMonthCost: number;
  /** What the rules engine's top recommendation is about (the worst search term when it has none). */
  topRecommendationSubject: string;
}

export interface Fact {
  label: string;
  /** Must match the answer's text (or must not, with `absent`). */
  pattern: (t: Truth) => RegExp;
  absent?: boolean;
}

export interface EvalCase {
  question: (t: Truth) => string;
  tools: string[][];
  facts: Fact[];
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A campaign named "Search | Climbing Gear" may be written as "Climbing Gear". */
const named = (label: string, pick: (t: Truth) => string): Fact => ({ label, pattern: (t) => new RegExp(esc(pick(t).replace(/^[^|]*\|\s*/, "")), "i") });
/** A whole number, written with or without thousands separators (12345 or 12,345). */
const amount = (label: string, pick: (t: Truth) => number): Fact => ({
  label,
  pattern: (t) => {
    const n = Math.trunc(pick(t));
    const grouped = n.toLocaleString("en-US");
    return new RegExp(`(${esc(grouped)}|${n})(?!\\d)`);
  },
});
const proposal: Fact = { label: "links its proposal for review", pattern: () => /\/changes\/[0-9a-f-]{36}/ };

const READ_CAMPAIGNS = ["list_campaigns", "get_campaign", "get_account_overview"];
const ANY_READ = [...READ_CAMPAIGNS, "get_keywords", "get_search_terms", "get_recommendations", "get_change_history"];

/** The period's label in the answer ("Nov 9 – Nov 15, 2026"). */
const period = (label: string, pick: (t: Truth) => string): Fact => ({ label, pattern: (t) => new RegExp(esc(pick(t))) });
/** A question it must decline: says so, points where the product (or Google Ads) can, and reads nothing instead. */
const declines = (label: string, where: RegExp): Fact[] => [
  { label: `says it can't ${label}`, pattern: () => /\bI can't\b|\bI don't\b|outside what I can answer/ },
  { label: "says where it can be done", pattern: () => where },
  { label: "gives no unrelated overview", pattern: () => /Enabled campaigns by cost|Costliest/, absent: true },
];
/** "Conversions did not drop" when they rose (the question's premise is wrong), "Conversions: −x%" when they fell. */
const premise: Fact = {
  label: "checks the premise (did conversions drop?)",
  pattern: (t) => (t.lastWeekConversions >= t.weekBeforeConversions * 0.995 ? /Conversions did not drop/ : /Conversions: −\d/),
};

export const CASES: EvalCase[] = [
  {
    question: () => "How are my campaigns doing?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [named("names the costliest campaign", (t) => t.topCampaign)],
  },
  {
    question: () => "What did I spend in the last 30 days?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [amount("states the total cost", (t) => t.accountCost)],
  },
  { question: () => "Which campaign costs the most?", tools: [["list_campaigns"]], facts: [named("names the costliest campaign", (t) => t.topCampaign)] },
  {
    question: () => "Which campaign has the best cost per conversion?",
    tools: [["list_campaigns"]],
    facts: [named("names the cheapest converter", (t) => t.bestCpaCampaign)],
  },
  {
    question: () => "What is wasting money?",
    tools: [["get_search_terms", "get_keywords", "get_recommendations"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  {
    question: () => "Which search terms spend money without converting?",
    tools: [["get_search_terms"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  {
    question: () => "Which keywords spend money without any conversions?",
    tools: [["get_keywords"]],
    facts: [named("names the worst keyword", (t) => t.topWastedKeyword)],
  },
  { question: () => "Show me my costliest search terms", tools: [["get_search_terms"]], facts: [named("names the costliest search term", (t) => t.topTerm)] },
  {
    question: () => "Which search terms should I add as negative keywords?",
    tools: [["get_search_terms"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  {
    question: () => "Which campaigns are limited by budget?",
    tools: [["list_campaigns", "get_campaign", "get_recommendations"]],
    facts: [named("names the budget-limited campaign", (t) => t.budgetLimited)],
  },
  {
    question: () => "Should I raise any budgets?",
    tools: [["list_campaigns", "get_campaign", "get_recommendations"]],
    facts: [named("names the budget-limited campaign", (t) => t.budgetLimited)],
  },
  {
    question: () => "What should I do next?",
    tools: [["get_recommendations", "get_search_terms", "get_keywords", "list_campaigns"]],
    facts: [named("names the top recommendation's subject", (t) => t.topRecommendationSubject)],
  },
  {
    question: () => "Give me your top recommendations for this account",
    tools: [["get_recommendations", "get_search_terms", "get_keywords", "list_campaigns"]],
    facts: [named("names the budget-limited campaign", (t) => t.budgetLimited)],
  },
  {
    question: () => "Which keywords have a low quality score?",
    tools: [["get_keywords"]],
    facts: [named("names a costly low-QS keyword", (t) => t.lowQsKeyword)],
  },
  {
    question: () => "What are my best keywords by conversions?",
    tools: [["get_keywords"]],
    facts: [named("names the top converting keyword", (t) => t.topConvKeyword)],
  },
  { question: () => "What changed in the account recently?", tools: [["get_change_history"]], facts: [] },
  { question: () => "Who made changes to my account this month?", tools: [["get_change_history"]], facts: [] },
  { question: () => "Did my last changes work?", tools: [["get_change_impact"]], facts: [] },
  {
    question: () => "How is Search | Climbing Gear doing?",
    tools: [["list_campaigns", "get_campaign"]],
    facts: [{ label: "talks about Climbing Gear", pattern: () => /Climbing Gear/i }],
  },
  {
    question: (t) => `Tell me about campaign ${t.tentsCampaignId}`,
    tools: [["get_campaign"]],
    facts: [{ label: "names the campaign", pattern: () => /Tents/i }],
  },
  {
    question: () => "How many conversions did I get in the last 30 days?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [amount("states the conversions", (t) => t.accountConversions)],
  },
  {
    question: () => "Compare the last 30 days with the 30 days before",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [{ label: "mentions the previous period", pattern: () => /previous|before|prior|vs/i }],
  },
  { question: () => "Which campaigns are paused?", tools: [["list_campaigns"]], facts: [named("names a paused campaign", (t) => t.pausedCampaign)] },
  {
    question: () => "Is the Competitors campaign worth the money?",
    tools: [READ_CAMPAIGNS],
    facts: [{ label: "talks about Competitors", pattern: () => /Competitors/i }],
  },
  {
    question: () => "What is my ROAS?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [{ label: "gives a ROAS", pattern: () => /ROAS|return on ad spend/i }],
  },
  {
    question: () => "Which ad groups in Search | Hiking Boots cost the most?",
    tools: [["get_campaign"]],
    facts: [{ label: "names Trail Shoes (planted high bid)", pattern: () => /Trail Shoes|Hiking Boots/i }],
  },
  { question: () => "Pause the keyword that wastes the most money", tools: [["get_keywords", "get_recommendations"], ["propose_changes"]], facts: [proposal] },
  {
    question: () => "Add the worst non-converting search term as a negative keyword",
    tools: [["get_search_terms", "get_recommendations"], ["propose_changes"]],
    facts: [proposal],
  },
  {
    question: () => "Raise the budget of the most budget-limited campaign by 10%",
    tools: [["list_campaigns", "get_campaign"], ["propose_changes"]],
    facts: [proposal],
  },
  {
    question: () => "Apply all the changes you proposed, right now",
    tools: [],
    facts: [{ label: "does not claim to have applied anything", pattern: () => /\b(I|I've|I have) (applied|made the change)/i, absent: true }],
  },
  {
    question: () => "Which search terms mention free?",
    tools: [["get_search_terms"]],
    facts: [{ label: "finds a 'free' search term", pattern: () => /free/i }],
  },
  {
    question: () => "How much did non-converting search terms cost me?",
    tools: [["get_search_terms"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  { question: () => "Which keywords get the most clicks?", tools: [["get_keywords"]], facts: [] },

  // ---- written as people write them: paraphrases, typos, calendar periods, premises, names, and things to decline
  {
    question: () => "why did conversions drop last week?",
    tools: [["list_campaigns", "get_account_overview"]],
    facts: [premise, period("names last week's dates", (t) => t.lastWeek), { label: "says what moved", pattern: () => /clicks [+−]|conversion rate [+−]/ }],
  },
  {
    question: () => "this month vs last month",
    tools: [["list_campaigns", "get_account_overview"]],
    facts: [
      { label: "this month from the 1st", pattern: (t) => (t.monthStart ? new RegExp(esc(t.monthStart)) : /no complete day/) },
      period("last month as the calendar month", (t) => t.lastMonth),
    ],
  },
  {
    question: () => "how much did we spend last month",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [period("last month as the calendar month", (t) => t.lastMonth), amount("states last month's cost", (t) => t.lastMonthCost)],
  },
  {
    question: () => "how did we do last week?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [period("names last week's dates", (t) => t.lastWeek)],
  },
  {
    question: () => "conversions fell last week, what happened?",
    tools: [["list_campaigns", "get_account_overview"]],
    facts: [premise, period("names last week's dates", (t) => t.lastWeek)],
  },
  { question: () => "what did i spend yesterday", tools: [["get_account_overview", "list_campaigns"]], facts: [period("names yesterday", (t) => t.yesterday)] },
  {
    question: () => "compare last week to the week before",
    tools: [["list_campaigns", "get_account_overview"]],
    facts: [period("names last week's dates", (t) => t.lastWeek), { label: "a table of both periods", pattern: () => /\| Conversion rate \|/ }],
  },
  {
    question: () => "total spend past 7 days?",
    tools: [["get_account_overview", "list_campaigns"]],
    facts: [{ label: "says the 7 days", pattern: () => /last 7 days/ }],
  },
  { question: () => "Write me 3 headlines for tents", tools: [], facts: declines("write ad copy", /\/ad-generator/) },
  { question: () => "can u write some ad copy for my sleeping bags", tools: [], facts: declines("write ad copy", /\/ad-generator/) },
  { question: () => "Create a new campaign for snowshoes", tools: [], facts: declines("create campaigns", /Google Ads/) },
  { question: () => "set up a new search campaign for kayaks pls", tools: [], facts: declines("create campaigns", /Google Ads/) },
  { question: () => "which devices convert best?", tools: [], facts: declines("break down by device", /Google Ads/) },
  { question: () => "how many conversions will I get next month", tools: [], facts: declines("forecast", /Performance Planner/) },
  { question: () => "whats the weather in berlin", tools: [], facts: declines("answer that", /this account/) },
  { question: () => "delete the competitors campaign", tools: [], facts: declines("remove campaigns", /pause/) },
  { question: () => "approve the proposal please", tools: [], facts: declines("approve", /review page/) },
  {
    question: () => "Increase the Tents budget by 10%",
    tools: [["get_campaign"], ["propose_changes"]],
    facts: [
      proposal,
      { label: "the Tents campaign", pattern: () => /Search \| Tents/ },
      { label: "not another campaign", pattern: () => /Climbing Gear/, absent: true },
    ],
  },
  {
    question: () => "bump the climbing gear budget 15%",
    tools: [["get_campaign"], ["propose_changes"]],
    facts: [proposal, { label: "the Climbing Gear campaign", pattern: () => /Search \| Climbing Gear/ }],
  },
  {
    question: () => "raise the snowshoes budget by 10%",
    tools: [],
    facts: [
      { label: "says there is no such campaign", pattern: () => /I found no campaign called “snowshoes”/ },
      { label: "drafts nothing", pattern: () => /\/changes\//, absent: true },
    ],
  },
  {
    question: () => "whats waisting my money",
    tools: [["get_search_terms", "get_keywords", "get_recommendations"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  {
    question: () => "wat should i do next",
    tools: [["get_recommendations"]],
    facts: [named("names the top recommendation's subject", (t) => t.topRecommendationSubject)],
  },
  { question: () => "which serch terms cost the most", tools: [["get_search_terms"]], facts: [named("names the costliest search term", (t) => t.topTerm)] },
  { question: () => "any keywrds with bad quality score?", tools: [["get_keywords"]], facts: [named("names a costly low-QS keyword", (t) => t.lowQsKeyword)] },
  { question: () => "how is the tents campaign doing", tools: [["get_campaign"]], facts: [{ label: "talks about Tents", pattern: () => /Search \| Tents/ }] },
  {
    question: () => "hows climbing gear doing this month",
    tools: [["get_campaign"]],
    facts: [
      { label: "talks about Climbing Gear", pattern: () => /Search \| Climbing Gear/ },
      { label: "this month from the 1st", pattern: (t) => (t.monthStart ? new RegExp(esc(t.monthStart)) : /no complete day/) },
    ],
  },
  {
    question: () => "pause the competitors campaign",
    tools: [["get_campaign"], ["propose_changes"]],
    facts: [proposal, { label: "the Competitors campaign", pattern: () => /Competitors/ }],
  },
  {
    question: () => "is my budget holding anything back?",
    tools: [["get_recommendations", "list_campaigns"]],
    facts: [named("names the budget-limited campaign", (t) => t.budgetLimited)],
  },
  { question: () => "which campaign converts cheapest", tools: [READ_CAMPAIGNS], facts: [named("names the cheapest converter", (t) => t.bestCpaCampaign)] },
  { question: () => "hi", tools: [], facts: [{ label: "says what it can answer", pattern: () => /I can answer/ }] },
  { question: () => "asdfgh qwerty", tools: [], facts: [{ label: "says it didn't understand", pattern: () => /I didn't understand/ }] },
  {
    question: () => "show me searches that didnt convert",
    tools: [["get_search_terms"]],
    facts: [named("names the worst search term", (t) => t.topWastedTerm)],
  },
  {
    question: () => "which keywords should i pause?",
    tools: [["get_keywords", "get_recommendations"]],
    facts: [named("names the worst keyword", (t) => t.topWastedKeyword)],
  },
  {
    question: () => "Tell me about the Brand campaign",
    tools: [["get_campaign"]],
    facts: [{ label: "the brand campaign", pattern: () => /Brand \| Northwind/ }],
  },
  { question: () => "how r my ads doing", tools: [ANY_READ], facts: [named("names the costliest campaign", (t) => t.topCampaign)] },
];
