import type { EvidenceCell, ProposalOutput, ToolEvidence } from "~/lib/chat";
import { countOf, formatMoney } from "~/lib/format";
import { KEYWORD_INVALID_CHARS, KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, keywordWordCount } from "~/lib/ad-limits";
import { getDb } from "../db/db.server";
import { detailIncomplete, openAssistantProposal } from "./account-data.server";
import { toolRunners, ToolRefusal, type ToolContext, type ToolRunners } from "./tools.server";

/**
 * The built-in analyst: what the chat answers when no model is configured.
 * It recognises the common questions (what is wasting money, how campaigns
 * are doing, what to do next, search terms, budgets, keywords, recent
 * changes), runs the same tools a model would, and writes a plain answer from
 * their results, so the chat shows the same evidence cards and proposal
 * links. Deterministic: the same data gives the same answer.
 */

export interface AnalystStep {
  toolName: keyof ToolRunners;
  input: Record<string, unknown>;
  output: unknown;
}

export interface AnalystAnswer {
  intent: Intent;
  steps: AnalystStep[];
  text: string;
}

export type Intent =
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
  | "paused"
  | "campaign"
  | "budget_to"
  | "pause_campaign"
  | "overview";

export const NO_MODEL_NOTE =
  "_No AI model is configured, so the built-in analyst answered from your account's data. To chat with a model, set `AI_MODEL` (for example `openai:gpt-4.1-mini`, or `openai-compatible:qwen3:8b` with `AI_BASE_URL` for a local Ollama) and `AI_API_KEY`, then restart; [Settings](/settings) shows the model in use._";

const INTENTS: Array<[Intent, RegExp]> = [
  ["pause_keyword", /\bpause\b.*\bkeyword/i],
  ["add_negative", /\b(add|exclude|block)\b.*\bnegative|\bexclude\b.*search term/i],
  ["raise_budget", /\b(raise|increase)\b.*\bbudget/i],
  ["paused", /\bpaused\b/i],
  ["waste", /wast|burn|throw|money|without (a |any )?conver|no conver|zero conver|non.?convert|inefficien|bleed|useless/i],
  ["next", /\bnext\b|should i|recommend|suggest|improve|optimi[sz]|priorit|to.?do|action|fix/i],
  ["search_terms", /search.?term|quer(y|ies)|searched|people (type|search)|negative/i],
  ["budgets", /budget|limited|impression share|spend more|scale|lost/i],
  ["keywords", /keyword|quality score|\bqs\b|bid/i],
  ["history", /history|changed|changes|who (did|made)|recent(ly)? (change|edit)|what happened/i],
  ["performance", /how|perform|doing|overview|summary|campaign|result|roas|cpa|cost per|spend|trend|report/i],
];

export function classify(question: string): Intent {
  for (const [intent, re] of INTENTS) if (re.test(question)) return intent;
  return "overview";
}

type Row = Record<string, EvidenceCell>;
const num = (v: EvidenceCell | undefined) => (typeof v === "number" ? v : 0);
/** "1 click", "1,204 clicks", "2.5 conversions". */
const count = (v: EvidenceCell | undefined, noun: string) => countOf(num(v), noun, num(v).toLocaleString("en-US"));

class Writer {
  steps: AnalystStep[] = [];
  constructor(
    private run: ToolRunners,
    private ctx: ToolContext,
  ) {}
  async call<K extends keyof ToolRunners>(toolName: K, input: Parameters<ToolRunners[K]>[0]): Promise<Awaited<ReturnType<ToolRunners[K]>>> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const output = await (this.run[toolName] as (i: any) => Promise<any>)(input);
    this.steps.push({ toolName, input: input as Record<string, unknown>, output });
    return output;
  }
  /** Shows an existing open proposal with the same title instead of proposing it again. */
  async propose(title: string, actions: unknown[]): Promise<ProposalOutput | { existing: string } | { refused: string }> {
    const existing = await openAssistantProposal(this.ctx.userId, this.ctx.account.customerId, title);
    if (existing) return { existing };
    try {
      return await this.call("propose_changes", { title, actions: actions as never });
    } catch (error) {
      if (error instanceof ToolRefusal) return { refused: error.message };
      throw error;
    }
  }
  money(units: EvidenceCell | undefined) {
    return formatMoney(Math.round(num(units) * 1_000_000), this.ctx.account.currencyCode);
  }
}

function proposalLine(p: ProposalOutput | { existing: string } | { refused: string }, what: string): string {
  if ("refused" in p) return `I could not draft ${what}: ${p.refused}`;
  const id = "existing" in p ? p.existing : p.changeSetId;
  const verb = "existing" in p ? "is already drafted" : "is drafted";
  return `A change set that ${what} ${verb} for your review: [Review the proposal](/changes/${id}). Nothing changes in Google Ads until you press Apply there.`;
}

const usableNegative = (t: string) =>
  t.length > 0 && t.length <= KEYWORD_MAX_CHARS && keywordWordCount(t) <= KEYWORD_MAX_WORDS && !KEYWORD_INVALID_CHARS.test(t);

function table(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

async function waste(w: Writer, parts: string[], withProposal: boolean) {
  const terms = (await w.call("get_search_terms", { nonConvertingOnly: true, limit: 10, sort: "cost" })) as ToolEvidence;
  const keywords = (await w.call("get_keywords", { nonConvertingOnly: true, limit: 5, sort: "cost" })) as ToolEvidence;
  const termCost = terms.rows.reduce((s, r) => s + num(r.cost), 0);
  const range = terms.summary.replace(/^Read [^,]*, /, "");
  if (terms.rows.length === 0 && keywords.rows.length === 0) {
    parts.push(`Nothing spent without converting in ${range}: every search term and keyword with cost brought at least one conversion.`);
    return;
  }
  if (terms.rows.length) {
    parts.push(
      `**Search terms that cost money without a single conversion** (${range}): the ${terms.rows.length} costliest spent ${w.money(termCost)} together.`,
      table(
        ["Search term", "Campaign", "Cost", "Clicks"],
        terms.rows.slice(0, 5).map((r) => [String(r.searchTerm), String(r.campaign), w.money(r.cost), String(r.clicks)]),
      ),
    );
  }
  if (keywords.rows.length) {
    parts.push(
      `**Keywords with spend and no conversions**: ${keywords.rows
        .slice(0, 5)
        .map((r) => `“${r.keyword}” (${String(r.matchType).toLowerCase()}, ${r.campaign}): ${w.money(r.cost)}`)
        .join("; ")}.`,
    );
  }
  if (!withProposal) return;
  // Exclude the clearly wasted terms (enough clicks to judge) as exact-match negatives in their campaigns.
  const candidates = terms.rows.filter((r) => num(r.clicks) >= 10 && usableNegative(String(r.searchTerm))).slice(0, 5);
  if (candidates.length === 0) return;
  const byCampaign = new Map<string, string[]>();
  for (const r of candidates) byCampaign.set(String(r.campaignId), [...(byCampaign.get(String(r.campaignId)) ?? []), String(r.searchTerm)]);
  const actions = [...byCampaign].map(([parentId, texts]) => ({
    type: "add_negatives",
    level: "campaign",
    parentId,
    keywords: texts.map((text) => ({ text, matchType: "EXACT" })),
  }));
  const title =
    `Exclude ${candidates.length} non-converting search term${candidates.length === 1 ? "" : "s"}: ${candidates.map((c) => c.searchTerm).join(", ")}`.slice(
      0,
      200,
    );
  parts.push(proposalLine(await w.propose(title, actions), `adds them as exact-match negative keywords`));
}

async function performance(w: Writer, parts: string[]) {
  const overview = (await w.call("get_account_overview", {})) as ToolEvidence;
  const [current, previous] = overview.rows as Row[];
  const delta = (key: string) => {
    const a = num(current[key]);
    const b = num(previous[key]);
    if (b === 0) return "";
    const change = ((a - b) / b) * 100;
    return ` (${change >= 0 ? "+" : ""}${change.toFixed(1)}% vs the previous period)`;
  };
  parts.push(
    `**${current.period}**: cost ${w.money(current.cost)}${delta("cost")}, ${count(current.clicks, "click")}, ` +
      `${count(current.conversions, "conversion")}${delta("conversions")}, ` +
      `cost per conversion ${current.costPerConversion === null ? "—" : w.money(current.costPerConversion)}` +
      `${current.roas === null ? "" : `, ROAS ${num(current.roas).toFixed(2)}`}.`,
  );
  const campaigns = (await w.call("list_campaigns", { status: "ENABLED", sort: "cost", limit: 10 })) as ToolEvidence;
  const spending = campaigns.rows.filter((r) => num(r.cost) > 0);
  if (spending.length === 0) {
    parts.push("No enabled campaign spent anything in this period.");
    return;
  }
  // Every statement below is about the campaigns in this table: a "most expensive" picked from a
  // longer list named a campaign the reader could not see, and one beyond it could cost more.
  const shown = spending.slice(0, 6);
  parts.push(
    "**Enabled campaigns by cost**:",
    table(
      ["Campaign", "Cost", "Conv.", "Cost / conv.", "ROAS"],
      shown.map((r) => [
        String(r.name),
        w.money(r.cost),
        String(r.conversions),
        r.costPerConversion === null ? "—" : w.money(r.costPerConversion),
        r.roas === null ? "—" : num(r.roas).toFixed(2),
      ]),
    ),
  );
  const converting = shown.filter((r) => r.costPerConversion !== null);
  if (converting.length >= 2) {
    const best = converting.reduce((a, b) => (num(a.costPerConversion) <= num(b.costPerConversion) ? a : b));
    const worst = converting.reduce((a, b) => (num(a.costPerConversion) >= num(b.costPerConversion) ? a : b));
    parts.push(
      `Of these, the cheapest conversions: **${best.name}** at ${w.money(best.costPerConversion)}; the most expensive: **${worst.name}** at ${w.money(worst.costPerConversion)}.`,
    );
  }
  const zero = shown.filter((r) => num(r.conversions) === 0);
  if (zero.length) parts.push(`Of these, spending with no conversions: ${zero.map((r) => `**${r.name}** (${w.money(r.cost)})`).join(", ")}.`);
  if (spending.length > shown.length) parts.push("The campaigns list, sorted by Cost / conv., shows every campaign.");
}

/** "by 10%" → 10, within the 50% a single step may move; 20 when none is given. */
function percentIn(question: string): number {
  const m = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(question);
  const p = m ? Number(m[1]) : 20;
  return Math.min(50, Math.max(1, p));
}

async function budgets(w: Writer, parts: string[], withProposal: boolean, percent = 20) {
  const campaigns = (await w.call("list_campaigns", { status: "ENABLED", sort: "cost", limit: 50 })) as ToolEvidence;
  const limited = campaigns.rows.filter((r) => num(r.budgetLostIS) >= 10 && num(r.conversions) > 0).sort((a, b) => num(b.budgetLostIS) - num(a.budgetLostIS));
  const range = campaigns.summary.replace(/^Read [^,]*, /, "");
  if (limited.length === 0) {
    parts.push(
      `No enabled, converting campaign lost more than 10% of its search impressions to its budget in ${range}; budgets are not what holds the account back.`,
    );
    return;
  }
  parts.push(
    `**Campaigns held back by their budget** (${range}):`,
    table(
      ["Campaign", "Budget / day", "IS lost to budget", "Cost / conv.", "ROAS"],
      limited
        .slice(0, 5)
        .map((r) => [
          String(r.name),
          w.money(r.dailyBudget),
          `${num(r.budgetLostIS).toFixed(1)}%`,
          r.costPerConversion === null ? "—" : w.money(r.costPerConversion),
          r.roas === null ? "—" : num(r.roas).toFixed(2),
        ]),
    ),
  );
  const top = limited[0];
  if (!withProposal || top.dailyBudget === null || num(top.dailyBudget) <= 0) return;
  const next = Math.round(num(top.dailyBudget) * (1 + percent / 100) * 100) / 100;
  const title = `Raise the daily budget of ${top.name} from ${w.money(top.dailyBudget)} to ${w.money(next)} (+${percent}%)`.slice(0, 200);
  parts.push(
    `**${top.name}** loses ${num(top.budgetLostIS).toFixed(1)}% of its impressions to its budget while converting; a ${percent}% step is a measured test.`,
    proposalLine(await w.propose(title, [{ type: "budget", campaignId: String(top.id), amount: next }]), `raises its budget to ${w.money(next)} a day`),
  );
}

async function searchTerms(w: Writer, parts: string[]) {
  const terms = (await w.call("get_search_terms", { limit: 15, sort: "cost" })) as ToolEvidence;
  if (terms.rows.length === 0) {
    parts.push("There are no search terms with traffic in this period.");
    return;
  }
  parts.push(
    `**Costliest search terms** (${terms.summary.replace(/^Read [^,]*, /, "")}):`,
    table(
      ["Search term", "Campaign", "Cost", "Conv."],
      terms.rows.slice(0, 8).map((r) => [String(r.searchTerm), String(r.campaign), w.money(r.cost), String(r.conversions)]),
    ),
  );
  const harvest = terms.rows.filter((r) => r.status === "NONE" && num(r.conversions) >= 2);
  if (harvest.length)
    parts.push(
      `Converting terms that are not keywords yet: ${harvest.map((r) => `“${r.searchTerm}” (${r.conversions} conv.)`).join(", ")}. Consider adding them as exact-match keywords.`,
    );
  const junk = terms.rows.filter((r) => num(r.conversions) === 0 && num(r.clicks) >= 10);
  if (junk.length)
    parts.push(
      `Without any conversion: ${junk.map((r) => `“${r.searchTerm}” (${w.money(r.cost)})`).join(", ")}. Ask “what is wasting money?” to draft negatives for them.`,
    );
}

async function keywords(w: Writer, parts: string[]) {
  const rows = (await w.call("get_keywords", { limit: 15, sort: "cost" })) as ToolEvidence;
  parts.push(
    `**Costliest keywords** (${rows.summary.replace(/^Read [^,]*, /, "")}):`,
    table(
      ["Keyword", "Match", "QS", "Cost", "Conv.", "Cost / conv."],
      rows.rows
        .slice(0, 8)
        .map((r) => [
          String(r.keyword),
          String(r.matchType).toLowerCase(),
          r.qualityScore === null ? "—" : String(r.qualityScore),
          w.money(r.cost),
          String(r.conversions),
          r.costPerConversion === null ? "—" : w.money(r.costPerConversion),
        ]),
    ),
  );
  const lowQs = rows.rows.filter((r) => r.qualityScore !== null && num(r.qualityScore) <= 3);
  if (lowQs.length)
    parts.push(
      `Low quality score (≤ 3) with spend: ${lowQs.map((r) => `“${r.keyword}” (QS ${r.qualityScore}, ${w.money(r.cost)})`).join(", ")}. Low quality raises what each click costs.`,
    );
}

async function history(w: Writer, parts: string[]) {
  const changes = (await w.call("get_change_history", {})) as ToolEvidence;
  if (changes.rows.length === 0) {
    parts.push(`No changes were recorded in ${changes.summary.replace(/^Read [^,]*, /, "")}.`);
    return;
  }
  parts.push(
    `**Recent changes** (${changes.summary.replace(/^Read /, "")}):`,
    table(
      ["When (UTC)", "Who", "Change", "Status"],
      changes.rows.slice(0, 8).map((r) => [String(r.when), String(r.who), String(r.change), String(r.status)]),
    ),
  );
}

/** A campaign the question names (by id, or by the part of its name after "Search | "). */
async function mentionedCampaign(ctx: ToolContext, question: string): Promise<{ id: string; name: string } | null> {
  const rows = await getDb().selectFrom("ads_campaigns").select(["id", "name"]).where("customer_id", "=", ctx.account.customerId).execute();
  const q = question.toLowerCase();
  const byId = rows.find((r) => new RegExp(`\\b${r.id}\\b`).test(q));
  if (byId) return byId;
  const byName = rows
    .map((r) => ({
      r,
      key: r.name
        .replace(/^[^|]*\|\s*/, "")
        .toLowerCase()
        .trim(),
    }))
    .filter(({ key }) => key.length >= 4 && q.includes(key))
    .sort((a, b) => b.key.length - a.key.length)[0];
  return byName?.r ?? null;
}

/** "mention free", "containing 'rental'": the word to look for in search terms. */
function containedWord(question: string): string | null {
  const m = /\b(?:mention(?:s|ing)?|contain(?:s|ing)?|with the word|including)\s+["“']?([\p{L}\p{N}][\p{L}\p{N} -]{0,40}?)["”']?\s*\??$/iu.exec(
    question.trim(),
  );
  return m ? m[1].trim() : null;
}

/** "to $300", "to 300 a day", "to €45.50": the amount a question asks a budget to be set to. */
export function amountIn(question: string): number | null {
  const m = /\bto\s+(?:[$€£]\s?)?(\d{1,7}(?:[.,]\d{1,2})?)\b/i.exec(question);
  return m ? Number(m[1].replace(",", ".")) : null;
}

async function readCampaign(w: Writer, id: string) {
  return (await w.call("get_campaign", { campaignId: id })) as ToolEvidence & { campaign: Row };
}

/** What was asked, as asked: the named campaign's budget set to the named amount. */
async function budgetTo(w: Writer, parts: string[], target: { id: string; name: string }, amount: number) {
  const c = (await readCampaign(w, target.id)).campaign;
  if (c.dailyBudget === null) {
    parts.push(`**${c.name}** has no budget of its own that I can change.`);
    return;
  }
  const title = `Set the daily budget of ${c.name} from ${w.money(c.dailyBudget)} to ${w.money(amount)}`.slice(0, 200);
  parts.push(
    `**${c.name}** has a daily budget of ${w.money(c.dailyBudget)}` +
      `${c.budgetLostImpressionShare === null ? "" : ` and loses ${num(c.budgetLostImpressionShare).toFixed(1)}% of its impressions to it`}.`,
    proposalLine(await w.propose(title, [{ type: "budget", campaignId: target.id, amount }]), `sets its budget to ${w.money(amount)} a day`),
  );
}

/** "Pause the Competitors campaign": a pause of that campaign, for review. */
async function pauseCampaign(w: Writer, parts: string[], target: { id: string; name: string }) {
  const out = await readCampaign(w, target.id);
  const c = out.campaign;
  if (c.status !== "ENABLED") {
    parts.push(`**${c.name}** is already ${String(c.status).toLowerCase()}: there is nothing to pause.`);
    return;
  }
  parts.push(
    `**${c.name}** spent ${w.money(c.cost)} for ${count(c.conversions, "conversion")} in ${out.summary.replace(/^Read [^,]*(, [^,]*)*?, /, "")}.`,
    proposalLine(await w.propose(`Pause ${c.name}`.slice(0, 200), [{ type: "status", kind: "campaign", ids: [target.id], status: "PAUSED" }]), "pauses it"),
  );
}

async function campaign(w: Writer, parts: string[], target: { id: string; name: string }) {
  const out = await readCampaign(w, target.id);
  const c = out.campaign;
  parts.push(
    `**${c.name}** (${String(c.status).toLowerCase()}, ${String(c.bidding).replace(/_/g, " ").toLowerCase()}) in ${out.summary.replace(/^Read [^,]*(, [^,]*)*?, /, "")}: ` +
      `cost ${w.money(c.cost)}, ${count(c.clicks, "click")}, ${count(c.conversions, "conversion")}, ` +
      `cost per conversion ${c.costPerConversion === null ? "—" : w.money(c.costPerConversion)}` +
      `${c.dailyBudget === null ? "" : `, daily budget ${w.money(c.dailyBudget)}`}` +
      `${c.budgetLostImpressionShare === null ? "" : `, ${num(c.budgetLostImpressionShare).toFixed(1)}% of impressions lost to the budget`}.`,
  );
  const groups = out.rows.filter((r) => num(r.cost) > 0);
  if (groups.length) {
    parts.push(
      "**Ad groups by cost**:",
      table(
        ["Ad group", "Cost", "Conv.", "Cost / conv.", "Max. CPC"],
        groups
          .slice(0, 6)
          .map((r) => [
            String(r.name),
            w.money(r.cost),
            String(r.conversions),
            r.costPerConversion === null ? "—" : w.money(r.costPerConversion),
            r.cpcBid === null ? "—" : w.money(r.cpcBid),
          ]),
      ),
    );
  }
  if (num(c.cost) > 0 && num(c.conversions) === 0)
    parts.push("It spends without converting: check its search terms (“what is wasting money?”) before it spends more.");
}

async function paused(w: Writer, parts: string[]) {
  const list = (await w.call("list_campaigns", { status: "PAUSED", sort: "cost", limit: 20 })) as ToolEvidence;
  if (list.rows.length === 0) {
    parts.push("No campaign is paused.");
    return;
  }
  parts.push(
    `**Paused campaigns**: ${list.rows.map((r) => `**${r.name}**${num(r.cost) > 0 ? ` (${w.money(r.cost)} before it was paused, ${r.conversions} conv.)` : ""}`).join(", ")}.`,
  );
}

async function containing(w: Writer, parts: string[], word: string) {
  const terms = (await w.call("get_search_terms", { contains: word, limit: 15, sort: "cost" })) as ToolEvidence;
  if (terms.rows.length === 0) {
    parts.push(`No search term with traffic contains “${word}” in this period.`);
    return;
  }
  const cost = terms.rows.reduce((s, r) => s + num(r.cost), 0);
  const conv = terms.rows.reduce((s, r) => s + num(r.conversions), 0);
  parts.push(
    `**Search terms containing “${word}”**: ${terms.rows.length}${terms.truncated ? "+" : ""}, costing ${w.money(cost)} for ${count(conv, "conversion")}.`,
    table(
      ["Search term", "Campaign", "Cost", "Conv."],
      terms.rows.slice(0, 8).map((r) => [String(r.searchTerm), String(r.campaign), w.money(r.cost), String(r.conversions)]),
    ),
  );
  if (conv === 0 && usableNegative(word)) parts.push(`None of them converted: “${word}” is a candidate for a phrase-match negative keyword.`);
}

async function pauseWorstKeyword(w: Writer, parts: string[]) {
  const rows = (await w.call("get_keywords", { nonConvertingOnly: true, limit: 5, sort: "cost" })) as ToolEvidence;
  const worst = rows.rows.find((r) => r.status === "ENABLED") ?? rows.rows[0];
  if (!worst) {
    parts.push("No keyword spent money without converting in this period; nothing to pause.");
    return;
  }
  parts.push(
    `The keyword that wastes the most is **“${worst.keyword}”** (${String(worst.matchType).toLowerCase()}, ${worst.campaign}): ${w.money(worst.cost)} and ${count(worst.clicks, "click")} without a conversion.`,
  );
  const title = `Pause keyword “${worst.keyword}” (${String(worst.matchType).toLowerCase()}) in ${worst.campaign}`.slice(0, 200);
  parts.push(proposalLine(await w.propose(title, [{ type: "status", kind: "keyword", ids: [String(worst.id)], status: "PAUSED" }]), "pauses it"));
}

async function addWorstNegative(w: Writer, parts: string[]) {
  const terms = (await w.call("get_search_terms", { nonConvertingOnly: true, limit: 10, sort: "cost" })) as ToolEvidence;
  const worst = terms.rows.find((r) => usableNegative(String(r.searchTerm)));
  if (!worst) {
    parts.push("No search term spent money without converting in this period; there is nothing to exclude.");
    return;
  }
  parts.push(
    `The worst non-converting search term is **“${worst.searchTerm}”** (${worst.campaign}): ${w.money(worst.cost)} and ${count(worst.clicks, "click")} without a conversion.`,
  );
  const title = `Exclude “${worst.searchTerm}” (exact) in ${worst.campaign}`.slice(0, 200);
  const action = {
    type: "add_negatives",
    level: "campaign",
    parentId: String(worst.campaignId),
    keywords: [{ text: String(worst.searchTerm), matchType: "EXACT" }],
  };
  parts.push(proposalLine(await w.propose(title, [action]), "adds it as an exact-match negative keyword"));
}

interface RecommendationsOutput extends ToolEvidence {
  performanceScore: number | null;
  engineRanAt: string | null;
  recommendations: Array<{
    id: string;
    title: string;
    confidence: string;
    impact: { kind: string; monthly: number; currency: string; assumption: string };
    evidence: { summary: string };
    actions: unknown[];
    openChangeSet: string | null;
  }>;
}

/** The rules engine's open recommendations, biggest first; false when the engine has nothing (yet). */
async function recommendations(w: Writer, parts: string[]): Promise<boolean> {
  const out = (await w.call("get_recommendations", { limit: 5 })) as RecommendationsOutput;
  if (out.recommendations.length === 0) return false;
  const impact = (r: RecommendationsOutput["recommendations"][number]) =>
    r.impact.kind === "none"
      ? ""
      : r.impact.kind === "conversions_gained"
        ? ` (about ${r.impact.monthly} more conversions a month)`
        : ` (about ${w.money(r.impact.monthly)} a month${r.impact.kind === "cost_saved" ? " saved" : " more value"})`;
  parts.push(
    `**What I would do next**, from the rules engine's ${out.recommendations.length === 1 ? "recommendation" : "top recommendations"}${out.performanceScore === null ? "" : ` (performance score ${out.performanceScore}/100)`}:`,
    out.recommendations.map((r, i) => `${i + 1}. **${r.title}**${impact(r)}, ${r.confidence.toLowerCase()}: ${r.evidence.summary}`).join("\n"),
  );
  const top = out.recommendations.find((r) => r.actions.length > 0);
  if (!top) return true;
  if (top.openChangeSet) {
    parts.push(
      `The first one is already drafted for your review: [Review the proposal](${top.openChangeSet}). Nothing changes in Google Ads until you press Apply there.`,
    );
  } else {
    parts.push(proposalLine(await w.propose(top.title.slice(0, 200), top.actions), "carries out the first one"));
  }
  return true;
}

export async function analystAnswer(ctx: ToolContext, question: string): Promise<AnalystAnswer> {
  const w = new Writer(toolRunners(ctx), ctx);
  let intent = classify(question);
  const parts: string[] = [];
  // An instruction about a named campaign is carried out as asked (for review), not replaced by advice.
  const amount = /\bbudget\b/i.test(question) ? amountIn(question) : null;
  const pausing = /\bpause\b/i.test(question) && !/\b(keyword|budget)/i.test(question);
  let mention: ReturnType<typeof mentionedCampaign> | undefined;
  const mentioned = () => (mention ??= mentionedCampaign(ctx, question));
  const named = amount !== null || pausing ? await mentioned() : null;
  if (named && amount !== null) intent = "budget_to";
  else if (named && pausing) intent = "pause_campaign";
  // A named campaign narrows a general question to that campaign.
  const target = ["performance", "overview", "budgets", "keywords", "waste"].includes(intent) ? await mentioned() : null;
  if (target && (intent === "performance" || intent === "overview" || /worth|doing|perform|ad groups?|tell me/i.test(question))) intent = "campaign";
  const word = intent === "search_terms" || intent === "overview" || intent === "waste" ? containedWord(question) : null;
  switch (word ? "containing" : intent) {
    case "budget_to":
      await budgetTo(w, parts, named!, amount!);
      break;
    case "pause_campaign":
      await pauseCampaign(w, parts, named!);
      break;
    case "containing":
      await containing(w, parts, word!);
      break;
    case "campaign":
      await campaign(w, parts, target!);
      break;
    case "paused":
      await paused(w, parts);
      break;
    case "pause_keyword":
      await pauseWorstKeyword(w, parts);
      break;
    case "add_negative":
      await addWorstNegative(w, parts);
      break;
    case "raise_budget":
      await budgets(w, parts, true, percentIn(question));
      break;
    case "waste":
      await waste(w, parts, true);
      break;
    case "performance":
      await performance(w, parts);
      break;
    case "next":
      // The rules engine's recommendations when it has run; otherwise the reports' biggest items.
      if (await recommendations(w, parts)) break;
      parts.push("**What I would do next**, in order of money at stake:");
      await waste(w, parts, true);
      await budgets(w, parts, true);
      break;
    case "search_terms":
      await searchTerms(w, parts);
      break;
    case "budgets":
      await budgets(w, parts, true);
      break;
    case "keywords":
      await keywords(w, parts);
      break;
    case "history":
      await history(w, parts);
      break;
    case "overview":
      await performance(w, parts);
      parts.push(
        "I can also answer: what is wasting money, what to do next, which search terms cost the most, which campaigns are limited by budget, how keywords do, and what changed recently.",
      );
      break;
  }
  // Keyword or search-term figures read before the first sync's detail import is in: say so first.
  const incomplete = w.steps.some((s) => s.toolName === "get_keywords" || s.toolName === "get_search_terms")
    ? await detailIncomplete(ctx.account.customerId)
    : null;
  if (incomplete) {
    parts.unshift(
      incomplete === "importing"
        ? "**Keyword and search-term figures below are incomplete**: their performance is still importing (your account's first sync). Ask again in a minute."
        : "**Keyword and search-term figures below are incomplete**: importing their performance failed; the next sync retries (Sync now on any report page).",
    );
  }
  return { intent, steps: w.steps, text: [NO_MODEL_NOTE, ...parts].join("\n\n") };
}
