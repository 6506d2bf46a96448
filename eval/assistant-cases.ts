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
];
