import type { ToolEvidence } from "~/lib/chat";
import { addDays, todayIn, type DateRange } from "~/lib/dates";
import { formatDateRange } from "~/lib/format";
import { KEYWORD_INVALID_CHARS, KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS, keywordWordCount } from "~/lib/ad-limits";
import { detailIncomplete } from "./account-data.server";
import { cannotDo, claimedDirection, classify, correctTypos, metricIn, namedPhrase, type Intent } from "./analyst-intent.server";
import { comparePeriods } from "./analyst-compare.server";
import { count, num, proposalLine, table, windowOf, Writer, type AnalystStep, type Row } from "./analyst-writer.server";
import {
  loadAdGroups,
  loadCampaigns,
  loadKeywords,
  mentionsIn,
  resolveIn,
  unresolvedText,
  type Entity,
  type EntityKind,
  type Resolution,
} from "./entities.server";
import { describePeriod, periodsIn, type Period } from "./periods.server";
import { toolRunners, type ToolContext } from "./tools.server";
import type { RecommendationType } from "../optimizer/types.server";

/**
 * The built-in analyst: what the chat answers when no model is configured.
 * It reads the question (typos and paraphrases included), runs the same tools
 * a model would and writes a plain answer from their results, so the chat
 * shows the same evidence cards and proposal links. What it proposes and the
 * figures it proposes with are the rules engine's (one source of truth with
 * the recommendations panel); a name it is given is resolved or asked about,
 * never swapped for another; what it cannot do it says, with where the
 * product (or Google Ads) can. Deterministic: the same data gives the same answer.
 */

export type { Intent } from "./analyst-intent.server";
export { classify } from "./analyst-intent.server";

export interface AnalystAnswer {
  intent: Intent;
  steps: AnalystStep[];
  text: string;
}

export const NO_MODEL_NOTE =
  "_No AI model is configured, so the built-in analyst answered from your account's data. To chat with a model, set `AI_MODEL` (for example `openai:gpt-4.1-mini`, or `openai-compatible:qwen3:8b` with `AI_BASE_URL` for a local Ollama) and `AI_API_KEY`, then restart; [Settings](/settings) shows the model in use._";

const CAPABILITIES =
  "I can answer: how the account or a campaign is doing (for a period you name: this month, last month, last week, the last 14 days…), how two periods compare and what moved, what is wasting money, what to do next (the rules engine's recommendations), which search terms and keywords cost the most, which campaigns are limited by budget, what changed recently and whether your changes worked (their measured effect); and I can draft budget changes, pauses and negative keywords for your review.";

const usableNegative = (t: string) =>
  t.length > 0 && t.length <= KEYWORD_MAX_CHARS && keywordWordCount(t) <= KEYWORD_MAX_WORDS && !KEYWORD_INVALID_CHARS.test(t);

/** The date inputs of a read: the period asked for, or the tools' default window. */
const rangeInput = (range: DateRange | null) => (range ? { from: range.from, to: range.to } : {});

// ---- the rules engine's recommendations (one source of truth with the panel)

interface RecommendationsOutput extends ToolEvidence {
  performanceScore: number | null;
  engineRanAt: string | null;
  alreadyCarriedOut: number;
  recommendations: Array<{
    id: string;
    type: string;
    title: string;
    confidence: string;
    impact: { kind: string; monthly: number; currency: string; assumption: string };
    evidence: { summary: string; dateRange: { from: string; to: string } };
    actions: Array<Record<string, unknown>>;
    openChangeSet: string | null;
  }>;
}
type Recommendation = RecommendationsOutput["recommendations"][number];

const WASTE_TYPES: RecommendationType[] = ["wasted_search_term", "negative_ngram", "wasted_keyword"];
const NEGATIVE_TYPES: RecommendationType[] = ["wasted_search_term", "negative_ngram"];

async function engine(w: Writer, filter: { types?: RecommendationType[]; limit?: number } = {}): Promise<RecommendationsOutput> {
  const types = filter.types?.length === 1 ? { type: filter.types[0] } : filter.types ? { types: filter.types } : {};
  return (await w.call("get_recommendations", { limit: filter.limit ?? 20, ...types })) as RecommendationsOutput;
}

function impactText(w: Writer, r: Recommendation): string {
  if (r.impact.kind === "none") return "";
  if (r.impact.kind === "conversions_gained") return ` (about ${r.impact.monthly} more conversions a month)`;
  return ` (about ${w.money(r.impact.monthly)} a month${r.impact.kind === "cost_saved" ? " saved" : " more value"})`;
}

/** One recommendation as a line: its title, impact, confidence and evidence, with the window its figures cover. */
const recommendationLine = (w: Writer, r: Recommendation) =>
  `**${r.title}**${impactText(w, r)}, ${r.confidence.toLowerCase()}: ${r.evidence.summary} (figures for ${formatDateRange(r.evidence.dateRange)})`;

/** Drafts the recommendation exactly as the engine wrote it (title and actions), or links its open draft. */
async function draftRecommendation(w: Writer, r: Recommendation, what: string): Promise<string> {
  if (r.openChangeSet)
    return `It is already drafted for your review: [Review the proposal](${r.openChangeSet}). Nothing changes in Google Ads until you press Apply there.`;
  return proposalLine(await w.propose(r.title.slice(0, 200), r.actions), what);
}

function engineSilence(out: RecommendationsOutput, what: string): string {
  if (out.engineRanAt === null) return `The rules engine has not analysed this account yet (it runs after each sync), so I have no ${what} to draft.`;
  return `The rules engine has no open ${what}${out.alreadyCarriedOut ? ` (${out.alreadyCarriedOut} carried out since its last run)` : ""}, so I drafted nothing.`;
}

// ---- answers

async function waste(w: Writer, parts: string[], range: DateRange | null) {
  const terms = (await w.call("get_search_terms", {
    nonConvertingOnly: true,
    activeOnly: true,
    limit: 10,
    sort: "cost",
    ...rangeInput(range),
  })) as ToolEvidence;
  const keywords = (await w.call("get_keywords", { nonConvertingOnly: true, activeOnly: true, limit: 5, sort: "cost", ...rangeInput(range) })) as ToolEvidence;
  if (terms.rows.length === 0 && keywords.rows.length === 0) {
    parts.push(`Nothing active spent without converting in ${windowOf(terms)}: every search term and keyword that cost money brought at least one conversion.`);
  } else {
    if (terms.rows.length) {
      const termCost = terms.rows.reduce((s, r) => s + num(r.cost), 0);
      parts.push(
        `**Search terms that cost money without a single conversion** (${windowOf(terms)}; not excluded yet): the ${terms.rows.length} costliest spent ${w.money(termCost)} together.`,
        table(
          ["Search term", "Campaign", "Cost", "Clicks"],
          terms.rows.slice(0, 5).map((r) => [String(r.searchTerm), String(r.campaign), w.money(r.cost), String(r.clicks)]),
        ),
      );
    }
    if (keywords.rows.length) {
      parts.push(
        `**Enabled keywords with spend and no conversions** (${windowOf(keywords)}): ${keywords.rows
          .slice(0, 5)
          .map((r) => `“${r.keyword}” (${String(r.matchType).toLowerCase()}, ${r.campaign}): ${w.money(r.cost)}`)
          .join("; ")}.`,
      );
    }
  }
  // What to do about it is the rules engine's call: only findings that pass its significance test.
  const out = await engine(w, { types: WASTE_TYPES });
  const recs = out.recommendations.filter((r) => r.actions.length > 0);
  if (recs.length === 0) {
    parts.push(engineSilence(out, "waste finding that passes its significance test"));
    return;
  }
  parts.push(
    `**What the rules engine would do about it**:`,
    recs
      .slice(0, 3)
      .map((r, i) => `${i + 1}. ${recommendationLine(w, r)}`)
      .join("\n"),
  );
  parts.push(await draftRecommendation(w, recs[0], "carries out the first one"));
}

async function performance(w: Writer, parts: string[], period: Period | null) {
  const overview = (await w.call("get_account_overview", rangeInput(period))) as ToolEvidence;
  const [current, previous] = overview.rows as Row[];
  const delta = (key: string) => {
    const a = num(current[key]);
    const b = num(previous[key]);
    if (b === 0) return "";
    const change = ((a - b) / b) * 100;
    return ` (${change >= 0 ? "+" : ""}${change.toFixed(1)}% vs ${String(previous.period).replace(/^Previous: /, "")})`;
  };
  parts.push(
    `**${period ? describePeriod(period) : current.period}**: cost ${w.money(current.cost)}${delta("cost")}, ${count(current.clicks, "click")}, ` +
      `${count(current.conversions, "conversion")}${delta("conversions")}, ` +
      `cost per conversion ${current.costPerConversion === null ? "—" : w.money(current.costPerConversion)}` +
      `${current.roas === null || num(current.conversionValue) === 0 ? "" : `, ROAS ${num(current.roas).toFixed(2)}`}.`,
  );
  const campaigns = (await w.call("list_campaigns", { status: "ENABLED", sort: "cost", limit: 10, ...rangeInput(period) })) as ToolEvidence;
  const spending = campaigns.rows.filter((r) => num(r.cost) > 0);
  if (spending.length === 0) {
    parts.push("No enabled campaign spent anything in this period.");
    return;
  }
  // Every statement below is about the campaigns in this table: a "most expensive" picked from a
  // longer list named a campaign the reader could not see, and one beyond it could cost more.
  const shown = spending.slice(0, 6);
  parts.push(
    `**Enabled campaigns by cost** (${windowOf(campaigns)}):`,
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

/** "by 10%" → 10, within the 50% a single step may move; null when none is given. */
function percentIn(question: string): number | null {
  const m = /(\d{1,3}(?:\.\d+)?)\s*(?:%|percent|per cent)/i.exec(question);
  return m ? Math.min(50, Math.max(1, Number(m[1]))) : null;
}

async function budgets(w: Writer, parts: string[], range: DateRange | null) {
  const recs = await engine(w, { types: ["budget_limited"] });
  if (recs.recommendations.length) {
    parts.push(
      `**Campaigns held back by their budget**, as the rules engine found them:`,
      recs.recommendations
        .slice(0, 5)
        .map((r, i) => `${i + 1}. ${recommendationLine(w, r)}`)
        .join("\n"),
      await draftRecommendation(w, recs.recommendations[0], "carries out the first one"),
    );
    return;
  }
  parts.push(engineSilence(recs, "budget recommendation"));
  // What Google reported, for reference: no threshold of its own, sorted by the share lost.
  const campaigns = (await w.call("list_campaigns", { status: "ENABLED", sort: "cost", limit: 50, ...rangeInput(range) })) as ToolEvidence;
  const losing = campaigns.rows.filter((r) => num(r.budgetLostIS) > 0).sort((a, b) => num(b.budgetLostIS) - num(a.budgetLostIS));
  if (losing.length)
    parts.push(
      `Search impressions lost to budget (${windowOf(campaigns)}): ${losing
        .slice(0, 5)
        .map((r) => `**${r.name}** ${num(r.budgetLostIS).toFixed(1)}%`)
        .join(", ")}.`,
    );
}

async function readCampaign(w: Writer, id: string, range: DateRange | null = null) {
  return (await w.call("get_campaign", { campaignId: id, ...rangeInput(range) })) as ToolEvidence & { campaign: Row };
}

/** A budget change as asked: the named campaign (or the engine's budget-limited one) by the percent or to the amount given. */
async function budgetChange(w: Writer, parts: string[], question: string, target: Entity | null, amount: number | null) {
  const percent = percentIn(question);
  const down = /\b(lower|cut|reduce|decrease|halve|drop)\b/i.test(correctTypos(question));
  let campaignId = target?.id ?? null;
  if (!campaignId) {
    // "the most budget-limited campaign": the engine's top budget finding.
    const recs = await engine(w, { types: ["budget_limited"] });
    const top = recs.recommendations[0];
    if (!top) {
      parts.push(engineSilence(recs, "budget-limited campaign"), "Name the campaign to change, e.g. “raise the budget of Search | Tents by 10%”.");
      return;
    }
    if (percent === null && amount === null) {
      parts.push(recommendationLine(w, top), await draftRecommendation(w, top, "carries it out"));
      return;
    }
    campaignId = String((top.actions.find((a) => a.type === "budget") as { campaignId?: string } | undefined)?.campaignId ?? "");
    if (!campaignId) return;
  }
  const out = await readCampaign(w, campaignId);
  const c = out.campaign;
  if (c.dailyBudget === null || num(c.dailyBudget) <= 0) {
    parts.push(`**${c.name}** has no budget of its own that I can change.`);
    return;
  }
  if (percent === null && amount === null) {
    parts.push(
      `**${c.name}** has a daily budget of ${w.money(c.dailyBudget)}. By how much should it change? Ask e.g. “raise the budget of ${c.name} by 10%” or “set it to ${w.money(Math.round(num(c.dailyBudget) * 1.1))}”; I drafted nothing yet.`,
    );
    return;
  }
  const next = amount ?? Math.round(num(c.dailyBudget) * (1 + ((down ? -1 : 1) * (percent ?? 0)) / 100) * 100) / 100;
  const how = amount !== null ? "" : ` (${down ? "−" : "+"}${percent}%)`;
  const title = `Set the daily budget of ${c.name} from ${w.money(c.dailyBudget)} to ${w.money(next)}${how}`.slice(0, 200);
  parts.push(
    `**${c.name}** has a daily budget of ${w.money(c.dailyBudget)}` +
      `${c.budgetLostImpressionShare === null ? "" : ` and lost ${num(c.budgetLostImpressionShare).toFixed(1)}% of its search impressions to it in ${windowOf(out)}`}.`,
    proposalLine(await w.propose(title, [{ type: "budget", campaignId, amount: next }]), `sets its budget to ${w.money(next)} a day`),
  );
}

async function searchTerms(w: Writer, parts: string[], range: DateRange | null) {
  const terms = (await w.call("get_search_terms", { limit: 15, sort: "cost", ...rangeInput(range) })) as ToolEvidence;
  if (terms.rows.length === 0) {
    parts.push(`There are no search terms with traffic in ${windowOf(terms)}.`);
    return;
  }
  parts.push(
    `**Costliest search terms** (${windowOf(terms)}):`,
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
  const junk = terms.rows.filter((r) => num(r.conversions) === 0 && num(r.cost) > 0 && r.status !== "EXCLUDED" && r.status !== "ADDED_EXCLUDED");
  if (junk.length)
    parts.push(
      `Without any conversion: ${junk.map((r) => `“${r.searchTerm}” (${w.money(r.cost)})`).join(", ")}. Ask “what is wasting money?” for the rules engine's verdict on them.`,
    );
}

async function keywords(w: Writer, parts: string[], range: DateRange | null, opts: { campaignId?: string; quality?: boolean } = {}) {
  const rows = (await w.call("get_keywords", {
    limit: opts.quality ? 100 : 15,
    sort: "cost",
    ...rangeInput(range),
    ...(opts.campaignId ? { campaignId: opts.campaignId } : {}),
  })) as ToolEvidence;
  const lowQs = rows.rows.filter((r) => r.qualityScore !== null && num(r.qualityScore) <= 3 && num(r.cost) > 0);
  if (opts.quality) {
    parts.push(
      lowQs.length
        ? `**Keywords with a low quality score (≤ 3) that spend**, costliest first (${windowOf(rows)}, of the ${rows.rows.length} costliest keywords):`
        : `None of the ${rows.rows.length} costliest keywords has a quality score of 3 or less (${windowOf(rows)}).`,
    );
    if (lowQs.length)
      parts.push(
        table(
          ["Keyword", "Match", "Campaign", "QS", "Cost", "Conv."],
          lowQs
            .slice(0, 10)
            .map((r) => [
              String(r.keyword),
              String(r.matchType).toLowerCase(),
              String(r.campaign),
              String(r.qualityScore),
              w.money(r.cost),
              String(r.conversions),
            ]),
        ),
        "A low quality score raises what each click costs; the rules engine's quality-score recommendations say what is weak (expected CTR, ad relevance, landing page).",
      );
    return;
  }
  parts.push(
    `**Costliest keywords** (${windowOf(rows)}):`,
    table(
      ["Keyword", "Match", "Status", "QS", "Cost", "Conv.", "Cost / conv."],
      rows.rows
        .slice(0, 8)
        .map((r) => [
          String(r.keyword),
          String(r.matchType).toLowerCase(),
          String(r.status).toLowerCase(),
          r.qualityScore === null ? "—" : String(r.qualityScore),
          w.money(r.cost),
          String(r.conversions),
          r.costPerConversion === null ? "—" : w.money(r.costPerConversion),
        ]),
    ),
  );
  if (lowQs.length)
    parts.push(
      `Low quality score (≤ 3) with spend: ${lowQs.map((r) => `“${r.keyword}” (QS ${r.qualityScore}, ${w.money(r.cost)})`).join(", ")}. Low quality raises what each click costs.`,
    );
}

async function history(w: Writer, parts: string[], range: DateRange | null) {
  const changes = (await w.call("get_change_history", rangeInput(range))) as ToolEvidence;
  if (changes.rows.length === 0) {
    parts.push(`No changes were recorded in ${windowOf(changes)}.`);
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

interface ImpactOutput extends ToolEvidence {
  changes: Array<{
    changeSetId: string;
    title: string;
    appliedAt: string | null;
    verdict: string;
    effect: string;
    measuredTogetherWith: string[];
    url: string;
  }>;
}

/** "Did my last changes work?": each recent change set's measured effect against untouched peers. */
async function impact(w: Writer, parts: string[], question: string) {
  const one = /\b(last|latest|recent) (change|edit)\b(?!s)|\b(did|does|has) (it|that|this)\b/i.test(question);
  const out = (await w.call("get_change_impact", { limit: one ? 1 : 5 })) as ImpactOutput;
  if (out.changes.length === 0) {
    parts.push(
      "Nothing has been applied to this account yet, so there is no effect to measure. Once a change is applied, its effect is measured against comparable untouched campaigns from 7 days after it.",
    );
    return;
  }
  const line = (c: ImpactOutput["changes"][number]) => {
    const when = c.appliedAt ? ` (applied ${formatDateRange({ from: c.appliedAt.slice(0, 10), to: c.appliedAt.slice(0, 10) })})` : "";
    const together = c.measuredTogetherWith.length ? ` Measured together with ${c.measuredTogetherWith.map((t) => `“${t}”`).join(", ")}.` : "";
    return `- **${c.title}**${when}: ${c.effect}.${together} [Details](${c.url})`;
  };
  const counts = (v: string) => out.changes.filter((c) => c.verdict === v).length;
  const worked = counts("effect");
  const none = counts("no_effect");
  const early = counts("too_early");
  parts.push(
    `**Did ${out.changes.length === 1 ? "your last change" : `your last ${out.changes.length} changes`} work?** Each is measured against comparable campaigns, ad groups or keywords of this account that nothing changed, so a season the whole account shares is not credited to it (90 % intervals; “unchanged” means the interval spans zero).`,
    out.changes.map(line).join("\n"),
    [
      worked ? `${count(worked, "change")} moved money or conversions measurably` : null,
      none ? `${count(none, "change")} had no measurable effect` : null,
      early ? `${count(early, "change")} ${early === 1 ? "is" : "are"} too recent to tell` : null,
    ]
      .filter(Boolean)
      .join("; ")
      .replace(/^./, (c) => c.toUpperCase()) + ".",
  );
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
  const m = /\bto\s+(?:[$€£]\s?)?(\d{1,7}(?:[.,]\d{1,2})?)\b(?!\s*%)/i.exec(question);
  return m ? Number(m[1].replace(",", ".")) : null;
}

/** "Pause the Competitors campaign": a pause of that campaign, for review. */
async function pauseCampaign(w: Writer, parts: string[], target: Entity) {
  const out = await readCampaign(w, target.id);
  const c = out.campaign;
  if (c.status !== "ENABLED") {
    parts.push(`**${c.name}** is already ${String(c.status).toLowerCase()}: there is nothing to pause.`);
    return;
  }
  parts.push(
    `**${c.name}** spent ${w.money(c.cost)} for ${count(c.conversions, "conversion")} in ${windowOf(out)}.`,
    proposalLine(await w.propose(`Pause ${c.name}`.slice(0, 200), [{ type: "status", kind: "campaign", ids: [target.id], status: "PAUSED" }]), "pauses it"),
  );
}

async function pauseAdGroup(w: Writer, parts: string[], target: Entity) {
  if (target.status !== "ENABLED") {
    parts.push(`Ad group **${target.name}** (${target.campaignName}) is already ${target.status.toLowerCase()}: there is nothing to pause.`);
    return;
  }
  const out = await readCampaign(w, target.campaignId);
  const g = out.rows.find((r) => String(r.id) === target.id);
  parts.push(
    `Ad group **${target.name}** in ${target.campaignName}${g ? ` spent ${w.money(g.cost)} for ${count(g.conversions, "conversion")} in ${windowOf(out)}` : ""}.`,
    proposalLine(
      await w.propose(`Pause ad group ${target.name} in ${target.campaignName}`.slice(0, 200), [
        { type: "status", kind: "ad_group", ids: [target.id], status: "PAUSED" },
      ]),
      "pauses it",
    ),
  );
}

async function pauseKeyword(w: Writer, parts: string[], target: Entity) {
  if (target.status !== "ENABLED") {
    parts.push(
      `The keyword **“${target.name}”** in ${target.adGroupName} (${target.campaignName}) is already ${target.status.toLowerCase()}: there is nothing to pause.`,
    );
    return;
  }
  const rows = (await w.call("get_keywords", { campaignId: target.campaignId, contains: target.name.slice(0, 50), limit: 100, sort: "cost" })) as ToolEvidence;
  const k = rows.rows.find((r) => r.id === target.id);
  parts.push(
    `The keyword **“${target.name}”** (${String(target.matchType).toLowerCase()}) in ${target.adGroupName}, ${target.campaignName}` +
      `${k ? `: ${w.money(k.cost)}, ${count(k.clicks, "click")} and ${count(k.conversions, "conversion")} in ${windowOf(rows)}` : ""}.`,
    proposalLine(
      await w.propose(`Pause keyword “${target.name}” (${String(target.matchType).toLowerCase()}) in ${target.adGroupName}`.slice(0, 200), [
        { type: "status", kind: "keyword", ids: [target.id], status: "PAUSED" },
      ]),
      "pauses it",
    ),
  );
}

async function campaign(w: Writer, parts: string[], target: Entity, range: DateRange | null) {
  const out = await readCampaign(w, target.id, range);
  const c = out.campaign;
  parts.push(
    `**${c.name}** (${String(c.status).toLowerCase()}, ${String(c.bidding).replace(/_/g, " ").toLowerCase()}) in ${windowOf(out)}: ` +
      `cost ${w.money(c.cost)}, ${count(c.clicks, "click")}, ${count(c.conversions, "conversion")}, ` +
      `cost per conversion ${c.costPerConversion === null ? "—" : w.money(c.costPerConversion)}` +
      `${c.dailyBudget === null ? "" : `, daily budget ${w.money(c.dailyBudget)}`}` +
      `${c.budgetLostImpressionShare === null ? "" : `, ${num(c.budgetLostImpressionShare).toFixed(1)}% of search impressions lost to the budget`}.`,
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

async function adGroup(w: Writer, parts: string[], target: Entity, range: DateRange | null) {
  const out = await readCampaign(w, target.campaignId, range);
  const g = out.rows.find((r) => String(r.id) === target.id);
  if (!g) {
    parts.push(`Ad group **${target.name}** (${target.campaignName}) is not among the ad groups I can read for that campaign.`);
    return;
  }
  parts.push(
    `Ad group **${target.name}** in ${target.campaignName} (${String(g.status).toLowerCase()}) in ${windowOf(out)}: cost ${w.money(g.cost)}, ${count(g.clicks, "click")}, ` +
      `${count(g.conversions, "conversion")}, cost per conversion ${g.costPerConversion === null ? "—" : w.money(g.costPerConversion)}.`,
  );
  const kws = (await w.call("get_keywords", { campaignId: target.campaignId, limit: 100, sort: "cost", ...rangeInput(range) })) as ToolEvidence;
  const own = kws.rows.filter((r) => String(r.adGroupId) === target.id && num(r.cost) > 0).slice(0, 6);
  if (own.length)
    parts.push(
      "**Its keywords by cost**:",
      table(
        ["Keyword", "Match", "Cost", "Conv."],
        own.map((r) => [String(r.keyword), String(r.matchType).toLowerCase(), w.money(r.cost), String(r.conversions)]),
      ),
    );
}

async function paused(w: Writer, parts: string[], range: DateRange | null) {
  const list = (await w.call("list_campaigns", { status: "PAUSED", sort: "cost", limit: 20, ...rangeInput(range) })) as ToolEvidence;
  if (list.rows.length === 0) {
    parts.push("No campaign is paused.");
    return;
  }
  parts.push(
    `**Paused campaigns**: ${list.rows.map((r) => `**${r.name}**${num(r.cost) > 0 ? ` (${w.money(r.cost)} in ${windowOf(list)}, ${r.conversions} conv.)` : ""}`).join(", ")}.`,
  );
}

async function containing(w: Writer, parts: string[], word: string, range: DateRange | null) {
  const terms = (await w.call("get_search_terms", { contains: word, limit: 15, sort: "cost", ...rangeInput(range) })) as ToolEvidence;
  if (terms.rows.length === 0) {
    parts.push(`No search term with traffic contains “${word}” in ${windowOf(terms)}.`);
    return;
  }
  const cost = terms.rows.reduce((s, r) => s + num(r.cost), 0);
  const conv = terms.rows.reduce((s, r) => s + num(r.conversions), 0);
  parts.push(
    `**Search terms containing “${word}”** (${windowOf(terms)}): ${terms.rows.length}${terms.truncated ? "+" : ""}, costing ${w.money(cost)} for ${count(conv, "conversion")}.`,
    table(
      ["Search term", "Campaign", "Cost", "Conv."],
      terms.rows.slice(0, 8).map((r) => [String(r.searchTerm), String(r.campaign), w.money(r.cost), String(r.conversions)]),
    ),
  );
  if (conv === 0 && cost > 0 && usableNegative(word)) parts.push(`None of them converted: “${word}” is a candidate for a phrase-match negative keyword.`);
}

/** "Pause the keyword that wastes the most": the engine's keyword finding (a pause where it advises one). */
async function pauseWorstKeyword(w: Writer, parts: string[]) {
  const recs = await engine(w, { types: ["wasted_keyword"] });
  const pausing = recs.recommendations.find((r) => r.actions.some((a) => a.type === "status" && a.status === "PAUSED"));
  const top = pausing ?? recs.recommendations[0];
  if (!top) {
    parts.push(engineSilence(recs, "keyword to pause"));
    return;
  }
  parts.push(recommendationLine(w, top));
  if (!pausing) parts.push("The rules engine advises a lower bid rather than a pause for it (it still converts too rarely to judge a pause).");
  parts.push(await draftRecommendation(w, top, pausing ? "pauses it" : "lowers its bid"));
}

/** "Add the worst search term as a negative": the engine's search-term or n-gram exclusion. */
async function addWorstNegative(w: Writer, parts: string[]) {
  const recs = await engine(w, { types: NEGATIVE_TYPES });
  const top = recs.recommendations.find((r) => r.actions.length > 0);
  if (!top) {
    parts.push(engineSilence(recs, "search term to exclude"));
    return;
  }
  parts.push(recommendationLine(w, top), await draftRecommendation(w, top, "adds the negative keyword"));
}

/** The rules engine's open recommendations, biggest first. */
async function next(w: Writer, parts: string[]) {
  const out = await engine(w, { limit: 5 });
  if (out.recommendations.length === 0) {
    parts.push(
      out.engineRanAt === null
        ? "The rules engine has not analysed this account yet (it runs after each sync): I have no recommendation to give. Sync the account, then ask again."
        : `The rules engine has no open recommendation${out.performanceScore === null ? "" : ` (performance score ${out.performanceScore}/100)`}${out.alreadyCarriedOut ? `; ${out.alreadyCarriedOut} were carried out since its last run` : ""}. Nothing needs doing now.`,
    );
    return;
  }
  parts.push(
    `**What I would do next**, from the rules engine's ${out.recommendations.length === 1 ? "recommendation" : "top recommendations"}${out.performanceScore === null ? "" : ` (performance score ${out.performanceScore}/100)`}:`,
    out.recommendations.map((r, i) => `${i + 1}. ${recommendationLine(w, r)}`).join("\n"),
  );
  const top = out.recommendations.find((r) => r.actions.length > 0);
  if (top) parts.push(await draftRecommendation(w, top, "carries out the first one"));
}

// ---- which campaign, ad group or keyword the question names

interface Named {
  resolution: Resolution;
  kind: EntityKind;
}

/** The entity a question names: names found in it (typos allowed), else the words it uses as a name; null when it names none. */
async function namedIn(ctx: ToolContext, question: string, kinds: EntityKind[]): Promise<Named | null> {
  const cid = ctx.account.customerId;
  const wantsAdGroup = /\bad ?groups?\b/i.test(question);
  if (kinds.includes("keyword") && /\bkeywords?\b/i.test(question)) {
    const phrase = namedPhrase(question, "keyword");
    if (phrase) return { kind: "keyword", resolution: resolveIn(phrase, "keyword", await loadKeywords(cid, { phrases: [phrase] })) };
  }
  const lists: Entity[] = [];
  if (kinds.includes("campaign")) lists.push(...(await loadCampaigns(cid)));
  if (kinds.includes("ad_group")) lists.push(...(await loadAdGroups(cid)));
  // By id ("campaign 17000000008").
  const byId = lists.find((e) => new RegExp(`\\b${e.id}\\b`).test(question));
  if (byId) return { kind: byId.kind, resolution: { status: "found", entity: byId } };
  const mentions = mentionsIn(question, lists, { typos: true });
  if (mentions.length) {
    // The longest name wins; a name shared by a campaign and an ad group is the campaign unless "ad group" is said.
    const longest = Math.max(...mentions.map((m) => m.end - m.start));
    let best = mentions.filter((m) => m.end - m.start === longest);
    const preferred = best.filter((m) => (wantsAdGroup ? m.entity.kind === "ad_group" : m.entity.kind === "campaign"));
    if (preferred.length) best = preferred;
    const exact = best.filter((m) => m.exact);
    if (exact.length) best = exact;
    const kind = best[0].entity.kind;
    const same = best.filter((m) => m.entity.kind === kind).map((m) => m.entity);
    return { kind, resolution: same.length === 1 ? { status: "found", entity: same[0] } : { status: "ambiguous", phrase: best[0].text, options: same } };
  }
  const kind: EntityKind = wantsAdGroup && kinds.includes("ad_group") ? "ad_group" : "campaign";
  if (!kinds.includes(kind)) return null;
  const phrase = namedPhrase(question, kind);
  if (!phrase) return null;
  return {
    kind,
    resolution: resolveIn(
      phrase,
      kind,
      lists.filter((e) => e.kind === kind),
    ),
  };
}

// ---- the answer

const QUALITY = /quality|\bqs\b/i;

/** Questions whose answer rests on keyword or search-term figures (incomplete during the first import). */
const NEEDS_DETAIL: Intent[] = ["waste", "search_terms", "keywords", "pause_keyword", "add_negative", "next"];

async function answer(w: Writer, ctx: ToolContext, question: string, parts: string[]): Promise<Intent> {
  const declined = cannotDo(question);
  if (declined) {
    parts.push(declined);
    return "cannot";
  }
  const today = todayIn(ctx.account.timeZone, ctx.now ?? new Date());
  const periods = periodsIn(question, today);
  if (periods && "unavailable" in periods) {
    parts.push(
      periods.unavailable,
      `The last complete day is ${formatDateRange({ from: addDays(today, -1), to: addDays(today, -1) })}; ask about “yesterday” or “this week”.`,
    );
    return "performance";
  }
  const intent = classify(question);
  const q = correctTypos(question);
  const metric = metricIn(q);
  const claimed = claimedDirection(q);
  const aboutChange =
    claimed !== null &&
    metric !== null &&
    /\b(why|did|has|have|was|were|is|are|what happened|what's going on|what is going on|how come|explain)\b/i.test(q) &&
    !/\b(how (can|do|to|should)|should i)\b/i.test(q);
  if (intent === "unknown" && !aboutChange && !periods) {
    parts.push(`I didn't understand “${question.trim().slice(0, 120)}”. ${CAPABILITIES}`);
    return "unknown";
  }
  if (intent === "help") {
    parts.push(CAPABILITIES);
    return "help";
  }
  const comparing = intent !== "impact" && (aboutChange || (periods?.previous && intent !== "history"));
  if (comparing && !["pause_keyword", "add_negative", "raise_budget", "paused", "next"].includes(intent)) {
    const current = periods?.current ?? { name: "the last 30 days", ...last30(today), partial: false };
    const previous = periods?.previous ?? { name: "the 30 days before", from: addDays(current.from, -30), to: addDays(current.from, -1), partial: false };
    await comparePeriods(w, parts, current, previous, { metric, claimed: aboutChange ? claimed : null });
    return "compare";
  }
  const range = periods?.current ?? null;

  // A name the person gave: resolved, or asked about; never replaced by another entity.
  const instructs =
    intent === "raise_budget" ||
    (/\bbudget\b/i.test(q) && (amountIn(q) !== null || percentIn(q) !== null)) ||
    intent === "pause_campaign" ||
    intent === "pause_keyword";
  const kinds: EntityKind[] = intent === "pause_keyword" ? ["keyword"] : /\bbudget\b/i.test(q) ? ["campaign"] : ["campaign", "ad_group", "keyword"];
  const named =
    instructs || ["performance", "budgets", "keywords", "waste", "search_terms", "overview"].includes(intent) ? await namedIn(ctx, question, kinds) : null;
  if (named && named.resolution.status !== "found") {
    parts.push(unresolvedText(named.resolution, named.kind));
    return intent;
  }
  const target = named?.resolution.status === "found" ? named.resolution.entity : null;

  if (NEEDS_DETAIL.includes(intent) || target?.kind === "keyword") {
    const incomplete = await detailIncomplete(ctx.account.customerId);
    if (incomplete) {
      // Missing rows are not zeros: no list of "wasted" keywords at $0.00 while they import.
      parts.push(
        incomplete === "importing"
          ? "**Keyword and search-term figures are still importing** (your account's first sync), so I can't answer this yet: ask again in a minute. Campaign figures are complete: ask how the campaigns are doing."
          : "**Keyword and search-term figures are incomplete**: importing them failed; the next sync retries (Sync now on any report page). Campaign figures are complete: ask how the campaigns are doing.",
      );
      return intent;
    }
  }

  if (intent === "pause_campaign" && !target) {
    parts.push(
      "What should I pause? Name the campaign, ad group or keyword, e.g. “pause the Competitors campaign” or “pause the keyword “cheap tents””; I drafted nothing.",
    );
    return intent;
  }
  if ((intent === "pause_campaign" || intent === "pause_keyword") && target) {
    if (target.kind === "keyword") await pauseKeyword(w, parts, target);
    else if (target.kind === "ad_group") await pauseAdGroup(w, parts, target);
    else await pauseCampaign(w, parts, target);
    return target.kind === "campaign" ? "pause_campaign" : "pause_keyword";
  }
  const amount = /\bbudget\b/i.test(q) ? amountIn(q) : null;
  if (intent === "raise_budget" || (target?.kind === "campaign" && /\bbudget\b/i.test(q) && (amount !== null || percentIn(q) !== null))) {
    await budgetChange(w, parts, question, target?.kind === "campaign" ? target : null, amount);
    return amount !== null ? "budget_to" : "raise_budget";
  }
  if (target && target.kind !== "keyword" && ["performance", "overview", "budgets", "keywords", "waste"].includes(intent)) {
    if (intent === "keywords" && target.kind === "campaign") await keywords(w, parts, range, { campaignId: target.id, quality: QUALITY.test(q) });
    else if (target.kind === "ad_group") await adGroup(w, parts, target, range);
    else await campaign(w, parts, target, range);
    return "campaign";
  }
  const word = intent === "search_terms" || intent === "waste" || intent === "performance" ? containedWord(question) : null;
  if (word) {
    await containing(w, parts, word, range);
    return "search_terms";
  }
  switch (intent) {
    case "paused":
      await paused(w, parts, range);
      break;
    case "pause_keyword":
      await pauseWorstKeyword(w, parts);
      break;
    case "add_negative":
      await addWorstNegative(w, parts);
      break;
    case "waste":
      await waste(w, parts, range);
      break;
    case "next":
      await next(w, parts);
      break;
    case "search_terms":
      await searchTerms(w, parts, range);
      break;
    case "budgets":
      await budgets(w, parts, range);
      break;
    case "keywords":
      await keywords(w, parts, range, { quality: QUALITY.test(q) });
      break;
    case "history":
      await history(w, parts, range);
      break;
    case "impact":
      await impact(w, parts, question);
      break;
    default:
      await performance(w, parts, range);
      if (intent === "unknown" || intent === "overview") parts.push(CAPABILITIES);
  }
  return intent;
}

function last30(today: string): DateRange {
  const to = addDays(today, -1);
  return { from: addDays(to, -29), to };
}

export interface AnalystOptions {
  /** Say that no model is configured (once per chat: the first answer). Default true. */
  notice?: boolean;
}

export async function analystAnswer(ctx: ToolContext, question: string, opts: AnalystOptions = {}): Promise<AnalystAnswer> {
  const w = new Writer(toolRunners(ctx), ctx);
  const parts: string[] = [];
  const intent = await answer(w, ctx, question, parts);
  return { intent, steps: w.steps, text: [...(opts.notice === false ? [] : [NO_MODEL_NOTE]), ...parts].join("\n\n") };
}
