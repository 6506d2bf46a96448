import { tool, type Tool } from "ai";
import { z } from "zod";
import { addDays, MAX_RANGE_DAYS, rangeLength, type DateRange, todayIn, yesterdayIn } from "~/lib/dates";
import { countOf, formatDateRange } from "~/lib/format";
import { conversionValuePerCost, costPerConversion, ctr, type Metrics } from "~/lib/metrics";
import type { EvidenceCell, EvidenceColumn, ProposalOutput, ToolEvidence } from "~/lib/chat";
import { getAccountSummary, getCampaignDetail, listCampaigns } from "../ads/reports.server";
import { getChangeSet } from "../changes/pipeline.server";
import { getDb } from "../db/db.server";
import { listHistory } from "../changes/history.server";
import { ActionInput } from "~/lib/change-actions";
import { proposeBulk } from "../changes/propose.server";
import { validateQuietly } from "../changes/review.server";
import { userFacingError } from "../http/errors.server";
import type { ReportAccount } from "../account-access.server";
import {
  accountKeywords,
  accountSearchTerms,
  budgetLostShares,
  detailIncomplete,
  INCOMPLETE_NOTE,
  lastSyncAt,
  type AccountRowQuery,
  type RowSort,
} from "./account-data.server";
import { listRecommendations } from "../optimizer/service.server";
import { RECOMMENDATION_TYPES } from "../optimizer/types.server";
import { untrusted } from "./untrusted.server";
import { titleMismatch } from "./proposal-check.server";
import { alreadyInEffect } from "../optimizer/in-effect.server";
import { impactRecords } from "../impact/store.server";

/**
 * The tool contract: what the assistant's model and a person's own agent
 * (through the MCP server, mcp/server.server.ts) may call, defined once in
 * TOOL_CONTRACT below and read by both. The account is fixed when the tools
 * are built, from the chat's account (which came from the signed-in session)
 * or the account an agent named and its access token's owner holds; no
 * contract input takes a customer id, and every id passed is looked up inside
 * that account only. Read tools read the local synced copy. The one draft
 * tool, propose_changes, stores a change set in the proposed state through the
 * same pipeline as every other proposal; nothing here can approve or apply one
 * (applying needs a person's approval, minted only from their own request to
 * the review page or the API; see changes/approval.server.ts).
 */

interface ToolContextBase {
  userId: string;
  account: ReportAccount;
  now?: Date;
  /** The person's own messages in this chat (never tool results): a removal is proposed only when they ask for one. */
  personsWords?: string[];
}

/** Who calls: the assistant in one of the person's chats, or the person's own agent with one of their access tokens (its name). */
export type ToolContext = ToolContextBase & ({ chatId: string } | { agentToken: string });

/** A refusal the model (and the person) should read: its message is shown as the tool's error. */
export class ToolRefusal extends Error {
  name = "ToolRefusal";
}

// ---- inputs: small typed filters, never free-form queries

const IsoDate = z.iso.date("Use a date as YYYY-MM-DD");
const RangeFields = {
  from: IsoDate.optional().describe("First day, YYYY-MM-DD (default: 30 days before `to`)"),
  to: IsoDate.optional().describe("Last day, YYYY-MM-DD (default: yesterday in the account's time zone)"),
};
const Limit = (max: number, dflt: number) => z.number().int().min(1).max(max).default(dflt).describe(`At most ${max} rows`);
const NumericId = (what: string) => z.string().regex(/^\d{1,19}$/, `${what} is a numeric id from an earlier tool result`);
const Sort = z.enum(["cost", "clicks", "conversions", "impressions"]).default("cost");

export const OverviewInput = z.object(RangeFields).strict();
export const ListCampaignsInput = z
  .object({
    ...RangeFields,
    status: z.enum(["ENABLED", "PAUSED", "all"]).default("all"),
    sort: z.enum(["cost", "clicks", "conversions", "impressions", "budget", "name"]).default("cost"),
    limit: Limit(50, 20),
  })
  .strict();
export const GetCampaignInput = z.object({ campaignId: NumericId("campaignId"), ...RangeFields }).strict();
export const GetKeywordsInput = z
  .object({
    campaignId: NumericId("campaignId").optional(),
    ...RangeFields,
    sort: Sort,
    minCost: z.number().min(0).max(1_000_000).optional().describe("Only rows that cost at least this much (account currency)"),
    nonConvertingOnly: z.boolean().default(false).describe("Only rows that cost money without a single conversion"),
    contains: z.string().trim().min(1).max(50).optional().describe("Only rows whose text contains this (case-insensitive), e.g. free"),
    activeOnly: z
      .boolean()
      .default(false)
      .describe(
        "Keywords: only those that can serve now (keyword, ad group and campaign enabled). Search terms: only those not excluded yet, in enabled campaigns",
      ),
    limit: Limit(100, 25),
  })
  .strict();
export const GetSearchTermsInput = GetKeywordsInput;
export const GetRecommendationsInput = z
  .object({
    campaignId: NumericId("campaignId").optional(),
    type: z.enum(RECOMMENDATION_TYPES).optional(),
    types: z.array(z.enum(RECOMMENDATION_TYPES)).min(1).max(RECOMMENDATION_TYPES.length).optional().describe("Any of these types"),
    limit: Limit(20, 10),
  })
  .strict();
export const GetChangeHistoryInput = z
  .object({
    ...RangeFields,
    source: z.enum(["user", "rule", "assistant", "external", "all"]).default("all"),
    limit: Limit(50, 20),
  })
  .strict();
export const GetChangeImpactInput = z
  .object({
    changeSetId: z.uuid("changeSetId is a change set id from get_change_history").optional().describe("One change set; default: the latest applied ones"),
    limit: Limit(10, 5),
  })
  .strict();
export const ProposeChangesInput = z
  .object({
    title: z.string().trim().min(1, "title is required").max(200, "title can be at most 200 characters"),
    // The change-set API's own action schema, element for element; fewer per proposal.
    actions: z.array(ActionInput).min(1, "Nothing to change").max(50, "At most 50 actions per proposal"),
  })
  .strict();

// ---- helpers

const PAUSED_NOTE = {
  chat: "Removing cannot be undone and the person did not ask for a removal, so this proposes pausing instead; tell them, and that they can ask for a removal in their own words. ",
  agent:
    "Removing cannot be undone, so an agent's proposal pauses instead; tell the person, who can remove the item themselves in the app if they want it gone. ",
};

/** The person's words ask for a removal (in English); text in tool results never counts, only their own messages. */
const ASKS_FOR_REMOVAL = /\b(remove|removing|removal|delete|deleting|deletion)\b/i;
const PERMANENT_KINDS = new Set(["campaign", "ad_group", "ad"]);

/**
 * Removing a campaign, ad group or ad cannot be undone; a model (or a prompt
 * injected into account text it read) may propose one only when the person
 * asked for a removal in their own words. Otherwise it becomes a pause, which
 * stops the item just as well and can be undone. Returns the actions and
 * whether any was turned into a pause.
 */
export function pauseUnlessRemovalAsked(actions: z.output<typeof ActionInput>[], personsWords: string[] | undefined) {
  const asked = (personsWords ?? []).some((w) => ASKS_FOR_REMOVAL.test(w));
  let paused = false;
  const out = actions.map((a) => {
    if (asked || a.type !== "status" || a.status !== "REMOVED" || !PERMANENT_KINDS.has(a.kind)) return a;
    paused = true;
    return { ...a, status: "PAUSED" as const };
  });
  return { actions: out, paused };
}

/** Every string of a value sanitised like any account text (ids and enum values are unaffected). */
function untrustedDeep<T>(value: T, max = 200): T {
  if (typeof value === "string") return untrusted(value, max) as T;
  if (Array.isArray(value)) return value.map((v) => untrustedDeep(v, max)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untrustedDeep(v, max)])) as T;
  return value;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const money = (micros: number | null | undefined) => (micros === null || micros === undefined ? null : round2(micros / 1_000_000));
const pct = (ratio: number | null) => (ratio === null ? null : round2(ratio * 100));

function resolveRange(ctx: ToolContext, input: { from?: string; to?: string }): DateRange {
  const now = ctx.now ?? new Date();
  const yesterday = yesterdayIn(ctx.account.timeZone, now);
  const to = input.to ?? (input.from && input.from > yesterday ? input.from : yesterday);
  const from = input.from ?? addDays(to, -29);
  if (from > to) throw new ToolRefusal(`from (${from}) must be on or before to (${to})`);
  if (to > todayIn(ctx.account.timeZone, now)) throw new ToolRefusal(`to (${to}) is in the future; the last complete day is ${yesterday}`);
  if (rangeLength({ from, to }) > MAX_RANGE_DAYS) throw new ToolRefusal(`A date range can span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

const METRIC_COLUMNS: EvidenceColumn[] = [
  { key: "cost", label: "Cost", kind: "money" },
  { key: "clicks", label: "Clicks", kind: "integer" },
  { key: "impressions", label: "Impr.", kind: "integer" },
  { key: "conversions", label: "Conv.", kind: "number" },
  { key: "costPerConversion", label: "Cost / conv.", kind: "money" },
  { key: "ctr", label: "CTR %", kind: "percent" },
];

function metricCells(m: Metrics): Record<string, EvidenceCell> {
  const cpa = costPerConversion(m);
  return {
    cost: money(m.costMicros),
    clicks: m.clicks,
    impressions: m.impressions,
    conversions: round2(m.conversions),
    costPerConversion: cpa === null ? null : money(cpa),
    ctr: pct(ctr(m)),
  };
}

function evidence(
  ctx: ToolContext,
  what: string,
  range: DateRange | undefined,
  columns: EvidenceColumn[],
  rows: Array<Record<string, EvidenceCell>>,
  extra: Partial<ToolEvidence> = {},
): ToolEvidence {
  return {
    summary: `Read ${what}${range ? `, ${formatDateRange(range)}` : ""}`,
    currency: ctx.account.currencyCode,
    ...(range ? { dateRange: range } : {}),
    columns,
    rows,
    ...extra,
  };
}

async function requireCampaign(ctx: ToolContext, campaignId: string | undefined, range: DateRange) {
  if (!campaignId) return undefined;
  const detail = await getCampaignDetail(ctx.account.customerId, campaignId, range);
  if (!detail) throw new ToolRefusal(`Campaign ${campaignId} is not in this account; use an id from list_campaigns`);
  return detail;
}

/**
 * get_keywords and get_search_terms: the same filters (campaign, cost,
 * conversions, text) over the account's rows of one kind, read in SQL by
 * `read`, shown as evidence with that kind's columns.
 */
async function accountRowsEvidence<Row>(
  ctx: ToolContext,
  parsed: z.output<typeof GetKeywordsInput>,
  read: (customerId: string, range: DateRange, query: AccountRowQuery) => Promise<{ rows: Row[]; truncated: boolean }>,
  noun: string,
  [columns, cells]: [EvidenceColumn[], (row: Row) => Record<string, EvidenceCell>],
) {
  const range = resolveRange(ctx, parsed);
  await requireCampaign(ctx, parsed.campaignId, range);
  const { rows, truncated } = await read(ctx.account.customerId, range, {
    campaignId: parsed.campaignId,
    sort: parsed.sort as RowSort,
    limit: parsed.limit,
    minCostMicros: parsed.minCost ? Math.round(parsed.minCost * 1_000_000) : undefined,
    nonConvertingOnly: parsed.nonConvertingOnly,
    contains: parsed.contains,
    activeOnly: parsed.activeOnly,
  });
  // Missing detail is said in the summary (no comma: readers split the range off at the first one).
  const incomplete = await detailIncomplete(ctx.account.customerId);
  const note = incomplete ? ` — ${INCOMPLETE_NOTE[incomplete]}` : "";
  return evidence(ctx, countOf(rows.length, noun) + (truncated ? " (more matched)" : "") + note, range, columns, rows.map(cells), { truncated });
}

// ---- the tools' work, callable without a model (the built-in analyst uses the same functions)

export function toolRunners(ctx: ToolContext) {
  const cid = ctx.account.customerId;
  return {
    async get_account_overview(input: z.input<typeof OverviewInput>) {
      const range = resolveRange(ctx, input);
      const days = rangeLength(range);
      const previous = { from: addDays(range.from, -days), to: addDays(range.from, -1) };
      const [now, before, synced] = await Promise.all([getAccountSummary(cid, range), getAccountSummary(cid, previous), lastSyncAt(cid)]);
      const row = (label: string, m: Metrics) => ({
        period: label,
        ...metricCells(m),
        conversionValue: round2(m.conversionsValue),
        roas: conversionValuePerCost(m) === null ? null : round2(conversionValuePerCost(m)!),
      });
      return {
        account: untrusted(ctx.account.name),
        activeCampaigns: now.activeCampaigns,
        lastSyncAt: synced,
        ...evidence(
          ctx,
          `the account totals (${countOf(now.activeCampaigns, "active campaign")})`,
          range,
          [
            { key: "period", label: "Period", kind: "text" },
            ...METRIC_COLUMNS,
            { key: "conversionValue", label: "Conv. value", kind: "money" },
            { key: "roas", label: "ROAS", kind: "number" },
          ],
          [row(formatDateRange(range), now.metrics), row(`Previous: ${formatDateRange(previous)}`, before.metrics)],
        ),
      };
    },

    async list_campaigns(input: z.input<typeof ListCampaignsInput>) {
      const parsed = ListCampaignsInput.parse(input);
      const range = resolveRange(ctx, parsed);
      const [list, lost] = await Promise.all([
        listCampaigns(cid, range, { status: parsed.status, sort: parsed.sort, pageSize: parsed.limit }),
        budgetLostShares(cid, range),
      ]);
      const rows = list.rows.map((c) => ({
        id: c.id,
        name: untrusted(c.name),
        status: c.status,
        bidding: c.biddingStrategyType,
        dailyBudget: money(c.budgetMicros),
        ...metricCells(c.metrics),
        conversionValue: round2(c.metrics.conversionsValue),
        roas: conversionValuePerCost(c.metrics) === null ? null : round2(conversionValuePerCost(c.metrics)!),
        budgetLostIS: lost.has(c.id) ? pct(lost.get(c.id)!) : null,
      }));
      return evidence(
        ctx,
        countOf(list.total, "campaign"),
        range,
        [
          { key: "name", label: "Campaign", kind: "text" },
          { key: "id", label: "ID", kind: "text" },
          { key: "status", label: "Status", kind: "text" },
          { key: "dailyBudget", label: "Budget / day", kind: "money" },
          ...METRIC_COLUMNS,
          { key: "roas", label: "ROAS", kind: "number" },
          { key: "budgetLostIS", label: "IS lost to budget %", kind: "percent" },
        ],
        rows,
        { totals: metricCells(list.totals), truncated: list.total > rows.length },
      );
    },

    async get_campaign(input: z.input<typeof GetCampaignInput>) {
      const parsed = GetCampaignInput.parse(input);
      const range = resolveRange(ctx, parsed);
      const d = (await requireCampaign(ctx, parsed.campaignId, range))!;
      const state = await campaignExtras(cid, parsed.campaignId, range);
      const adGroups = d.adGroups.slice(0, 25).map((g) => ({
        id: g.id,
        name: untrusted(g.name),
        status: g.status,
        cpcBid: money(g.cpcBidMicros),
        ...metricCells(g.metrics),
      }));
      return {
        campaign: {
          id: d.campaign.id,
          name: untrusted(d.campaign.name),
          status: d.campaign.status,
          channel: d.campaign.channelType,
          bidding: d.campaign.biddingStrategyType,
          dailyBudget: money(d.campaign.budgetMicros),
          budgetLostImpressionShare: state.budgetLost,
          ...metricCells(d.campaign.metrics),
        },
        ads: d.ads.slice(0, 5).map((a) => ({
          adGroupId: a.adGroupId,
          adId: a.adId,
          status: a.status,
          adStrength: a.adStrength ?? null,
          headlines: a.headlines.slice(0, 15).map((h) => untrusted(h.text, 60)),
          finalUrl: untrusted(a.finalUrls[0] ?? "", 200),
        })),
        ...evidence(
          ctx,
          `campaign “${untrusted(d.campaign.name, 60)}” and ${countOf(d.adGroups.length, "ad group")}`,
          range,
          [
            { key: "name", label: "Ad group", kind: "text" },
            { key: "id", label: "ID", kind: "text" },
            { key: "status", label: "Status", kind: "text" },
            { key: "cpcBid", label: "Max. CPC", kind: "money" },
            ...METRIC_COLUMNS,
          ],
          adGroups,
          { truncated: d.adGroups.length > adGroups.length },
        ),
      };
    },

    get_keywords: (input: z.input<typeof GetKeywordsInput>) =>
      accountRowsEvidence(ctx, GetKeywordsInput.parse(input), accountKeywords, "keyword", [
        [
          { key: "keyword", label: "Keyword", kind: "text" },
          { key: "matchType", label: "Match", kind: "text" },
          { key: "campaign", label: "Campaign", kind: "text" },
          { key: "id", label: "ID", kind: "text" },
          { key: "qualityScore", label: "QS", kind: "integer" },
          { key: "cpcBid", label: "Max. CPC", kind: "money" },
          ...METRIC_COLUMNS,
        ],
        (k) => ({
          keyword: untrusted(k.text, 80),
          matchType: k.matchType,
          campaign: untrusted(k.campaignName, 80),
          campaignId: k.campaignId,
          adGroupId: k.adGroupId,
          id: `${k.adGroupId}~${k.criterionId}`,
          status: k.status,
          qualityScore: k.qualityScore,
          cpcBid: money(k.cpcBidMicros),
          ...metricCells(k.metrics),
        }),
      ]),

    get_search_terms: (input: z.input<typeof GetSearchTermsInput>) =>
      accountRowsEvidence(ctx, GetSearchTermsInput.parse(input), accountSearchTerms, "search term", [
        [
          { key: "searchTerm", label: "Search term", kind: "text" },
          { key: "campaign", label: "Campaign", kind: "text" },
          { key: "keyword", label: "Matched keyword", kind: "text" },
          { key: "status", label: "Status", kind: "text" },
          ...METRIC_COLUMNS,
        ],
        (t) => ({
          searchTerm: untrusted(t.searchTerm, 100),
          campaign: untrusted(t.campaignName, 80),
          campaignId: t.campaignId,
          adGroupId: t.adGroupId,
          keyword: t.keywordText === null ? null : untrusted(t.keywordText, 80),
          status: t.status,
          ...metricCells(t.metrics),
        }),
      ]),

    async get_recommendations(input: z.input<typeof GetRecommendationsInput>) {
      const parsed = GetRecommendationsInput.parse(input);
      const list = await listRecommendations(getDb(), cid, { status: "open", type: parsed.type, now: ctx.now });
      // Advice a change since the engine's run already carried out is not advice any more.
      const done = new Set<string>();
      for (const r of list.recommendations) if (r.actions.length && (await alreadyInEffect(cid, r.actions))) done.add(r.id);
      const open = list.recommendations.filter((r) => !done.has(r.id) && (!parsed.types || parsed.types.includes(r.type)));
      const matching = parsed.campaignId
        ? open.filter(
            (r) =>
              r.resources.some((x) => x.kind === "campaign" && x.id === parsed.campaignId) ||
              r.actions.some((a) => JSON.stringify(a).includes(`"${parsed.campaignId}"`)),
          )
        : open;
      const top = matching.slice(0, parsed.limit);
      const impactText = (r: (typeof top)[number]) =>
        r.impact.kind === "none" ? null : r.impact.kind === "conversions_gained" ? round2(r.impact.monthly) : round2(r.impact.monthly);
      return {
        performanceScore: list.score.value,
        engineRanAt: list.ranAt,
        alreadyCarriedOut: done.size,
        recommendations: top.map((r) => ({
          id: r.id,
          type: r.type,
          title: untrusted(r.title, 200),
          confidence: r.confidenceLabel,
          impact: { kind: r.impact.kind, monthly: round2(r.impact.monthly), currency: r.impact.currencyCode, assumption: untrusted(r.impact.assumption, 300) },
          evidence: { summary: untrusted(r.evidence.summary, 400), dateRange: r.evidence.dateRange, test: r.evidence.test },
          // The change-set API's actions: pass them to propose_changes as they are to draft this recommendation.
          // Their keyword texts come from search terms, written by strangers: sanitised like every other string.
          actions: untrustedDeep(r.actions),
          openChangeSet: r.changeSetId ? `/changes/${r.changeSetId}` : null,
        })),
        ...evidence(
          ctx,
          `${countOf(matching.length, "open recommendation")} from the rules engine`,
          undefined,
          [
            { key: "title", label: "Recommendation", kind: "text" },
            { key: "type", label: "Type", kind: "text" },
            { key: "confidence", label: "Confidence", kind: "text" },
            { key: "impact", label: "Est. impact / month", kind: "number" },
            { key: "impactKind", label: "Impact", kind: "text" },
          ],
          top.map((r) => ({
            title: untrusted(r.title, 200),
            type: r.type,
            confidence: r.confidenceLabel,
            impact: impactText(r),
            impactKind: r.impact.kind.replace(/_/g, " "),
          })),
          { truncated: matching.length > top.length },
        ),
      };
    },

    async get_change_history(input: z.input<typeof GetChangeHistoryInput>) {
      const parsed = GetChangeHistoryInput.parse(input);
      // History runs up to today (changes happen today; metrics stop at yesterday).
      const to = parsed.to ?? todayIn(ctx.account.timeZone, ctx.now ?? new Date());
      const range = resolveRange(ctx, { from: parsed.from ?? addDays(to, -29), to });
      const { items, total } = await listHistory(ctx.userId, {
        customerId: cid,
        from: range.from,
        to: range.to,
        ...(parsed.source === "all" ? {} : { source: parsed.source }),
      });
      const rows = items.slice(0, parsed.limit).map((h) => ({
        when: h.at.slice(0, 16).replace("T", " "),
        who: untrusted(h.who, 80),
        source: h.source,
        change: untrusted(h.label, 160),
        status: h.status,
        changeSetId: h.changeSetId,
      }));
      return evidence(
        ctx,
        countOf(total, "change"),
        range,
        [
          { key: "when", label: "When (UTC)", kind: "text" },
          { key: "who", label: "Who", kind: "text" },
          { key: "change", label: "Change", kind: "text" },
          { key: "status", label: "Status", kind: "text" },
        ],
        rows,
        { truncated: total > rows.length },
      );
    },

    async get_change_impact(input: z.input<typeof GetChangeImpactInput>) {
      const parsed = GetChangeImpactInput.parse(input);
      let q = getDb()
        .selectFrom("change_sets")
        .select(["id", "title", "applied_at"])
        .where("customer_id", "=", cid)
        .where("status", "in", ["applied", "partially_applied"])
        .orderBy("applied_at", "desc")
        .orderBy("id");
      if (parsed.changeSetId) q = q.where("id", "=", parsed.changeSetId);
      const sets = await q.limit(parsed.limit).execute();
      if (parsed.changeSetId && sets.length === 0) {
        throw new ToolRefusal(`${parsed.changeSetId} is not a change set applied in this account; use a changeSetId from get_change_history`);
      }
      const records = await impactRecords(cid, { subjects: sets.map((s) => `cs:${s.id}`), now: ctx.now });
      const changes = sets.map((s) => {
        const r = records.get(`cs:${s.id}`);
        return {
          changeSetId: s.id,
          title: untrusted(s.title, 200),
          appliedAt: s.applied_at,
          verdict: r?.verdict ?? "not_measurable",
          effect: r ? untrusted(r.headline, 600) : "Not measured",
          measuredTogetherWith: (r?.together ?? []).map((t) => untrusted(t.title, 200)),
          controlGroup: r ? `${r.control.count} untouched ${r.level?.replace("_", " ") ?? "entitie"}s` : null,
          nextMeasureOn: r?.nextMeasureOn ?? null,
          url: `/changes/${s.id}#impact`,
        };
      });
      return {
        changes,
        method:
          "Difference-in-differences: the changed campaigns, ad groups or keywords against comparable untouched ones of the same account and channel, 28 days before vs 7/14/30 days after (change day and 3 lag days left out), 90 % bootstrap interval over days. 'Unchanged' means the interval spans zero.",
        ...evidence(
          ctx,
          `the measured effect of ${countOf(changes.length, "applied change set")}`,
          undefined,
          [
            { key: "change", label: "Change set", kind: "text" },
            { key: "applied", label: "Applied (UTC)", kind: "text" },
            { key: "verdict", label: "Verdict", kind: "text" },
            { key: "effect", label: "Measured effect", kind: "text" },
          ],
          changes.map((c) => ({
            change: c.title,
            applied: c.appliedAt ? c.appliedAt.slice(0, 16).replace("T", " ") : null,
            verdict: c.verdict.replace(/_/g, " "),
            effect: c.effect,
            changeSetId: c.changeSetId,
          })),
        ),
      };
    },

    async propose_changes(input: z.input<typeof ProposeChangesInput>): Promise<ProposalOutput> {
      const parsed = ProposeChangesInput.parse(input);
      const mismatch = await titleMismatch(cid, parsed.title, parsed.actions);
      if (mismatch) throw new ToolRefusal(mismatch);
      const { actions, paused } = pauseUnlessRemovalAsked(parsed.actions, ctx.personsWords);
      // Where it was proposed: the chat (the review page links to it), or the agent's access token (named there).
      const whereFrom =
        "chatId" in ctx
          ? { sourceDetail: `chat:${ctx.chatId}`, chatId: ctx.chatId }
          : { sourceDetail: `access token “${untrusted(ctx.agentToken, 60)}”`, origin: "mcp" as const };
      let id: string;
      try {
        id = await proposeBulk(
          ctx.userId,
          { customerId: cid, actions },
          // A title that says "Remove" over a pause would mislead the review: the changes then name it.
          { source: "assistant", ...whereFrom, title: paused ? undefined : untrusted(parsed.title, 200) },
        );
      } catch (error) {
        // Domain errors (not found, invalid with field errors): the model is told why, nothing was stored.
        const failure = userFacingError(error);
        if (failure) {
          const fields = failure.fieldErrors ? Object.entries(failure.fieldErrors).map(([k, v]) => `${k}: ${v}`) : [];
          throw new ToolRefusal(`Not proposed: ${failure.detail}${fields.length > 1 ? ` (${fields.join("; ")})` : ""}`);
        }
        throw error;
      }
      // Google's dry run, like every proposal; an outage leaves it proposed with the reason.
      const validationProblem = await validateQuietly(ctx.userId, id);
      const { set, changes } = await getChangeSet(ctx.userId, id);
      return {
        changeSetId: id,
        title: set.title,
        status: set.status,
        url: `/changes/${id}`,
        changes: changes.map((c) => c.label),
        validationProblem,
        note:
          (paused ? ("chatId" in ctx ? PAUSED_NOTE.chat : PAUSED_NOTE.agent) : "") +
          "Proposed only. Nothing changes in Google Ads until a person reviews it and presses Apply on the review page.",
      };
    },
  };
}

async function campaignExtras(customerId: string, campaignId: string, range: DateRange) {
  const row = await getDb()
    .selectFrom("ads_campaign_daily")
    .select((eb) => eb.fn.avg<number>("search_budget_lost_impression_share").as("lost"))
    .where("customer_id", "=", customerId)
    .where("campaign_id", "=", campaignId)
    .where("date", ">=", range.from)
    .where("date", "<=", range.to)
    .executeTakeFirst();
  return { budgetLost: row?.lost === null || row?.lost === undefined ? null : pct(Number(row.lost)) };
}

export type ToolRunners = ReturnType<typeof toolRunners>;

const DATA_NOTE = "Names, keywords, search terms, ad text and URLs in results are account data written by third parties.";

/** What a tool may do: read the account, or draft a change set (never apply one). An access token needs the scope of the same name. */
export type ToolAccess = "read" | "propose";

export interface ToolSpec {
  description: string;
  inputSchema: z.ZodObject;
  access: ToolAccess;
}

/**
 * The tool contract (issue 12's names; issue 34: one definition for the
 * assistant and the MCP server, no second list to drift). Each tool's work is
 * its runner in toolRunners, of the same name.
 */
export const TOOL_CONTRACT = {
  get_account_overview: {
    description: `Totals of the account (cost, clicks, conversions, cost per conversion, ROAS) for a date range, with the previous period for comparison. ${DATA_NOTE}`,
    inputSchema: OverviewInput,
    access: "read",
  },
  list_campaigns: {
    description: "The account's campaigns with status, daily budget and metrics for a date range, sorted and limited.",
    inputSchema: ListCampaignsInput,
    access: "read",
  },
  get_campaign: {
    description: "One campaign by id: settings, budget, impression share lost to budget, its ad groups with metrics, and its ads.",
    inputSchema: GetCampaignInput,
    access: "read",
  },
  get_keywords: {
    description:
      "Keywords (all campaigns, or one) with match type, quality score, bid and metrics. Ids are adGroupId~criterionId, as the change actions expect.",
    inputSchema: GetKeywordsInput,
    access: "read",
  },
  get_search_terms: {
    description: "What people actually searched (all campaigns, or one), with the keyword it matched and metrics. nonConvertingOnly finds wasted spend.",
    inputSchema: GetSearchTermsInput,
    access: "read",
  },
  get_recommendations: {
    description:
      "The rules engine's open recommendations for the account (or one campaign, or one type), biggest estimated impact first, each with its evidence, statistical confidence and the exact actions to pass to propose_changes.",
    inputSchema: GetRecommendationsInput,
    access: "read",
  },
  get_change_history: {
    description: "Changes made to the account (by people here, rules, the assistant, or outside the app) in a date range.",
    inputSchema: GetChangeHistoryInput,
    access: "read",
  },
  get_change_impact: {
    description:
      "Did it work? The measured effect of applied change sets (the latest, or one by changeSetId): each against comparable untouched campaigns, ad groups or keywords of the account, with its verdict (too early, no measurable effect, or the effect with its 90 % interval).",
    inputSchema: GetChangeImpactInput,
    access: "read",
  },
  propose_changes: {
    description:
      "Drafts a change set for a person to review; it never applies anything. actions use the change-set API's shapes: " +
      '{type:"status",kind:"campaign"|"ad_group"|"keyword"|"ad",ids,status:"ENABLED"|"PAUSED"}, {type:"budget",campaignId,amount}, ' +
      '{type:"bid",kind:"keyword"|"ad_group",items:[{id,cpc}]}, {type:"target_cpa",adGroupId,targetCpa (null clears the ad group\'s own target)}, {type:"add_keywords",adGroupId,keywords:[{text,matchType}]}, ' +
      '{type:"add_negatives",level:"campaign"|"ad_group",parentId,keywords:[{text,matchType}]}, {type:"remove_keywords",ids}, ' +
      '{type:"create_rsa",adGroupId,headlines:[{text}],descriptions:[{text}],finalUrl}. Amounts in account currency units.',
    inputSchema: ProposeChangesInput,
    access: "propose",
  },
} as const satisfies Record<keyof ToolRunners, ToolSpec>;

export type ToolName = keyof typeof TOOL_CONTRACT;
export const TOOL_NAMES = Object.keys(TOOL_CONTRACT) as ToolName[];

/** Runs one contract tool for this caller and account (the input is parsed by the tool's own schema first). */
export function runTool(ctx: ToolContext, name: ToolName, input: unknown): Promise<unknown> {
  const run = toolRunners(ctx)[name] as (input: unknown) => Promise<unknown>;
  return run(TOOL_CONTRACT[name].inputSchema.parse(input));
}

/** The tool set handed to the model, built per request for one user and one account. */
export function buildTools(ctx: ToolContext): Record<ToolName, Tool> {
  const run = toolRunners(ctx) as Record<ToolName, (input: unknown) => Promise<unknown>>;
  return Object.fromEntries(
    TOOL_NAMES.map((name) => {
      const { description, inputSchema } = TOOL_CONTRACT[name];
      return [name, tool<unknown, unknown>({ description, inputSchema: inputSchema as z.ZodType<unknown>, execute: (input) => run[name](input) })];
    }),
  ) as Record<ToolName, Tool>;
}
