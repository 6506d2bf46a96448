import { distance } from "fastest-levenshtein";

/**
 * What a question asks the built-in analyst, read the way people write: with
 * typos ("waisting", "budjet"), in their own words, and sometimes for things
 * the analyst cannot do, which it must say (and where the product can),
 * rather than answer something else.
 */

export type Intent =
  | "help"
  | "cannot"
  | "compare"
  | "pause_keyword"
  | "add_negative"
  | "raise_budget"
  | "waste"
  | "performance"
  | "next"
  | "search_terms"
  | "budgets"
  | "keywords"
  | "history"
  | "impact"
  | "paused"
  | "campaign"
  | "budget_to"
  | "pause_campaign"
  | "overview"
  | "unknown";

// ---- typos

// The words the intents turn on. A question's word within a typo of one of them (and not itself one) reads as it.
const VOCABULARY = [
  "wasting",
  "wasted",
  "waste",
  "money",
  "budget",
  "budgets",
  "campaign",
  "campaigns",
  "keyword",
  "keywords",
  "search",
  "terms",
  "conversions",
  "conversion",
  "converting",
  "recommend",
  "recommendations",
  "recommendation",
  "should",
  "performing",
  "performance",
  "doing",
  "spend",
  "spent",
  "spending",
  "compare",
  "compared",
  "clicks",
  "negative",
  "negatives",
  "quality",
  "score",
  "pause",
  "paused",
  "history",
  "change",
  "changed",
  "changes",
  "worked",
  "impact",
  "effect",
  "headlines",
  "headline",
  "month",
  "week",
  "yesterday",
  "limited",
  "impression",
  "increase",
  "decrease",
  "raise",
  "lower",
  "dropped",
  "drop",
  "worth",
  "costliest",
  "expensive",
  "suggest",
  "improve",
  "queries",
  "previous",
  "versus",
  "create",
  "write",
  "descriptions",
  "optimize",
  "priorities",
  "overview",
  "summary",
  "account",
];
const KNOWN = new Set(VOCABULARY);

/** The question with misspelt intent words put right (names are left alone: only words of 5+ letters near a known word change). */
export function correctTypos(question: string): string {
  return question.replace(/\p{L}{5,}/gu, (word) => {
    const lower = word.toLowerCase();
    if (KNOWN.has(lower)) return word;
    let best: string | null = null;
    let bestDistance = lower.length >= 8 ? 2 : 1;
    for (const known of VOCABULARY) {
      if (Math.abs(known.length - lower.length) > bestDistance) continue;
      const d = distance(lower, known);
      if (d <= bestDistance && (best === null || d < bestDistance)) {
        best = known;
        bestDistance = d;
      }
    }
    return best ?? word;
  });
}

// ---- what it cannot do

/** Questions the analyst must decline, with what to say: where in the product (or Google Ads) it can be done. */
const CANNOT: Array<[RegExp, string]> = [
  [
    /\b(write|create|generate|give|suggest|make|draft|come up with|need|want)\b.*\b(headlines?|descriptions?|ad ?cop(y|ies)|ad texts?|new ads?|an ad|some ads|ads? for)\b|\b(headlines?|ad ?copy)\b.*\b(for|about|ideas?)\b/i,
    "I can't write ad copy in this chat. The [ad generator](/ad-generator) writes responsive search ads (headlines and descriptions) for an ad group, checks them against Google's limits and drafts them for your review; the weak-ad recommendations in the panel open it with the ad group filled in.",
  ],
  [
    /\b(create|set ?up|launch|start|build|make|add|open)\b.*\b(a |an |new |another )+(search |display |shopping |pmax |performance max |video )?campaigns?\b/i,
    "I can't create campaigns: this app analyses and changes the campaigns you have (budgets, bids, statuses, keywords, negatives, ads). Create the campaign in Google Ads (ads.google.com); after the next sync it appears here and I can analyse it.",
  ],
  [
    /^\W*(please\s+)?(apply|approve|execute|implement|push|go ahead|do it)\b|\b(can|could|would|will) you (please )?(apply|approve|execute|implement|push|undo|revert)\b|\b(apply|approve|revert|undo) (all|these|those|them|it|everything|the changes?|the proposals?|your)\b/i,
    "I can't apply, approve or undo changes, by design: I only draft change sets. Each proposal has a review page where a person checks it and presses Apply; [History](/history) lists what was applied and what is waiting.",
  ],
  [
    /\b(delete|remove|close|cancel)\b.*\b(campaigns?|account|ad groups?)\b/i,
    "I don't remove campaigns, ad groups or accounts. I can draft a pause for review (ask “pause the … campaign”), which you can undo; removing is done in Google Ads.",
  ],
  [
    /\b(devices?|mobile|desktop|tablet|locations?|cit(y|ies)|countr(y|ies)|regions?|age|gender|demographics?|audiences?|hour of (the )?day|time of day|day of (the )?week|placements?|youtube)\b/i,
    "I can't break figures down by device, location, audience, demographics or time of day: the sync imports campaign, ad group, keyword, ad and search-term figures only. Google Ads' own reports have those segments.",
  ],
  [
    /\b(forecast|predict|projection|projected|will (i|we) (get|spend|make|have)|(conversions|sales|spend|clicks|cost|revenue) (next|in the next) (week|month|year|\d+ days)|expect(ed)? (next|in))\b/i,
    "I can't forecast: I only report what happened, with the figures I read. For a projection of a budget or bid change, Google Ads' Performance Planner does that.",
  ],
  [
    /\b(bidding strateg(y|ies)|switch (to )?(target|maximi[sz]e|manual)|change (the )?bid strategy|sitelinks?|callouts?|extensions?|assets? group|conversion (tracking|action)s?|tag|billing|invoice|payment)\b/i,
    "I can't change that here: this app's changes are budgets, bids, target CPAs, statuses, keywords, negatives and ads. Bidding strategies, assets, conversion tracking and billing are set in Google Ads.",
  ],
  [
    /\b(competitors?'s?|their) (budget|bids?|spend|ads)\b|\bauction insights?\b|\bweather\b|\bstock price\b|\bjoke\b|\bpoem\b/i,
    "That is outside what I can answer: I read this account's own campaigns, keywords, search terms, recommendations and change history, nothing else.",
  ],
];

export function cannotDo(question: string): string | null {
  for (const [re, text] of CANNOT) if (re.test(question)) return text;
  return null;
}

// ---- intents

const INTENTS: Array<[Intent, RegExp]> = [
  ["help", /^\s*(hi|hello|hey|hallo|help|thanks|thank you|what can you (do|answer)|who are you)\b[\s!?.]*$/i],
  // "Did my last changes work?": the measured effect of what was applied, not the list of changes.
  [
    "impact",
    /\b(did|have|has|do|does)\b.*\b(changes?|edits?|optimi[sz]ations?|recommendations?|it|that|they|this)\b.*\b(work|worked|working|help|helped|pay off|paid off|make a difference|made a difference|do anything|have an effect|have any effect)\b|\b(impact|effect|results?|outcome)s? of (my|the|our|those|these) (last |latest |recent |applied )?(changes?|edits?|optimi[sz]ations?|recommendations?)\b|\bwhat did (my|the|our) (last |latest |recent )?(changes?|edits?) do\b|\b(were|was) (my|the|our) (last |latest |recent )?(changes?|edits?) (worth it|effective|successful)\b/i,
  ],
  ["pause_keyword", /^\W*(please\s+)?((can|could|would) you\s+)?(pause|stop|turn off|switch off|disable)\b.*\bkeyword/i],
  // An instruction ("add … as a negative"); "which … should I add as negatives?" asks what is wasted.
  ["add_negative", /^\W*(please\s+)?((can|could|would) you\s+)?(add|exclude|block)\b.*\b(negative|search term)/i],
  ["waste", /\b(which|what)\b.*\bnegatives?\b/i],
  ["raise_budget", /\b(raise|increase|bump|boost|up|double|lift)\b.*\bbudget|\bbudget\b.*\b(raise|increase|up by|more)\b.*\d/i],
  ["paused", /\bpaused\b/i],
  // An instruction to pause; "which keywords should I pause?" asks what is wasted.
  ["pause_campaign", /^\W*(please\s+)?((can|could|would) you\s+)?(pause|stop|turn off|switch off|disable)\b/i],
  ["waste", /\b(which|what)\b.*\b(pause|stop|turn off|cut)\b/i],
  ["waste", /wast|burn|throw|money pit|without (a |any )?conver|no conver|zero conver|non.?convert|(n'?t|not|never) conver|inefficien|bleed|useless|leak/i],
  ["next", /\bnext\b|should i|recommend|suggest|improve|optimi[sz]|priorit|to.?do|action|fix|quick wins?|where (do|should) i start/i],
  ["search_terms", /search.?term|quer(y|ies)|searched|people (type|search)|negative/i],
  ["budgets", /budget|limited|impression share|spend more|scale|lost/i],
  ["keywords", /keyword|quality score|\bqs\b|\bbids?\b/i],
  ["history", /history|changed|changes|who (did|made)|recent(ly)? (change|edit)|what happened|edits?\b/i],
  [
    "performance",
    /how|perform|doing|going|overview|summary|campaign|result|roas|cpa|cost per|spend|spent|trend|report|stats|numbers|conversions|clicks|cost|revenue|ctr|impressions/i,
  ],
];

export function classify(question: string): Intent {
  const q = correctTypos(question);
  for (const [intent, re] of INTENTS) if (re.test(q)) return intent;
  return "unknown";
}

// ---- figures a question is about

export type Metric = "conversions" | "cost" | "clicks" | "costPerConversion" | "roas" | "conversionValue" | "impressions" | "ctr";

export const METRIC_WORDS: Record<Metric, string> = {
  conversions: "conversions",
  cost: "cost",
  clicks: "clicks",
  costPerConversion: "cost per conversion",
  roas: "ROAS",
  conversionValue: "conversion value",
  impressions: "impressions",
  ctr: "CTR",
};

/** The figure a question asks about ("why did conversions drop" → conversions); null when it names none. */
export function metricIn(question: string): Metric | null {
  const q = correctTypos(question).toLowerCase();
  if (/\bcpa\b|cost per (conversion|acquisition|lead|sale)|cost\/conv/.test(q)) return "costPerConversion";
  if (/\broas\b|return on ad spend/.test(q)) return "roas";
  if (/revenue|conversion value|sales value/.test(q)) return "conversionValue";
  if (/conver|leads?\b|sales\b|orders?\b|purchases?/.test(q)) return "conversions";
  if (/\bctr\b|click.?through/.test(q)) return "ctr";
  if (/clicks?|traffic|visits?/.test(q)) return "clicks";
  if (/impressions?|views?\b/.test(q)) return "impressions";
  if (/spend|spent|cost|expens|money/.test(q)) return "cost";
  return null;
}

/** The direction the question takes for granted ("why did conversions drop" → down). */
export function claimedDirection(question: string): "up" | "down" | null {
  const q = correctTypos(question).toLowerCase();
  if (/\b(drop(ped)?|fall|fell|fallen|declin\w*|decreas\w*|down|lower|less|fewer|worse|tank\w*|plummet\w*|dip\w*|shrink|shrank|lost)\b/.test(q)) return "down";
  if (/\b(rise|rose|risen|increas\w*|up|higher|more|grow|grew|grown|jump\w*|spik\w*|soar\w*|better|doubled)\b/.test(q)) return "up";
  return null;
}

// ---- the name a question gives

// Words that describe rather than name ("the most budget-limited campaign", "my campaigns").
const NOT_A_NAME =
  /\b(my|our|we|i|you|they|us|ads|stuff|all|every|each|any|campaigns|account|things|it|everything|overall|most|best|worst|top|limited|wast\w*|that|which|this|these|those|last|week|month|what|biggest|highest|lowest|one|ones|costliest|expensive|cheapest|budget|keyword|keywords|ad groups?)\b/i;

const FILLER = new Set([
  "the",
  "a",
  "an",
  "by",
  "to",
  "from",
  "of",
  "for",
  "in",
  "on",
  "with",
  "and",
  "at",
  "per",
  "cent",
  "percent",
  "day",
  "daily",
  "please",
  "now",
]);
/** Not only filler and figures ("by 10%" names nothing). */
const meaningful = (phrase: string) =>
  phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .some((w) => w && !FILLER.has(w) && !/^\d+$/.test(w));

/** The words a question uses to name a campaign, ad group or keyword, if any ("Increase the Tents budget" → "Tents"). */
export function namedPhrase(question: string, kind: "campaign" | "ad_group" | "keyword"): string | null {
  const q = question.trim().replace(/[?!.]+$/, "");
  const quoted = /[“"‘']([^”"’']{1,80})[”"’']/.exec(q);
  if (quoted) return quoted[1].trim();
  const patterns =
    kind === "keyword"
      ? [/\bkeyword\s+(?:called\s+|named\s+)?(.+?)(?:\s+in\s+.+)?$/i]
      : kind === "ad_group"
        ? [/\bad ?group\s+(?:called\s+|named\s+)?(.+?)(?:\s+(?:in|of)\s+.+|\s+(?:doing|performing)|$)/i, /\b(?:the\s+)?(.+?)\s+ad ?group\b/i]
        : [
            /\bbudget\s+(?:of|for|on)\s+(?:the\s+)?(.+?)(?:\s+campaign)?(?:\s+(?:by|to|from|with)\b.*)?$/i,
            /\b(?:raise|increase|bump|boost|lift|lower|cut|reduce|decrease|set|change|double|halve|up)\s+(?:the\s+)?(.+?)(?:\s+campaign)?(?:'s)?\s+(?:daily\s+)?budget\b/i,
            /\bcampaign\s+(?:called\s+|named\s+)?(.+?)(?:\s+(?:doing|performing|by|to)\b.*)?$/i,
            /\b(?:pause|enable|stop)\s+(?:the\s+)?(.+?)(?:\s+campaign)?$/i,
            /\bhow(?:'s| is| are| did| does)\s+(?:the\s+)?(.+?)(?:\s+campaign)?\s+(?:doing|performing|going|do|perform)\b/i,
            /\b(?:is|was)\s+(?:the\s+)?(.+?)\s+campaign\s+worth/i,
            /\btell me about\s+(?:the\s+)?(?:campaign\s+)?(.+)$/i,
          ];
  for (const re of patterns) {
    const phrase = re
      .exec(q)?.[1]
      ?.trim()
      .replace(/^the\s+/i, "")
      .replace(/\s+campaign$/i, "");
    if (phrase && phrase.length <= 80 && !NOT_A_NAME.test(phrase) && meaningful(phrase)) return phrase;
  }
  return null;
}
