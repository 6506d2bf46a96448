import { z } from "zod";
import { ActionInput } from "~/lib/change-actions";

const ACTION_TYPES = ActionInput.options.map((o) => o.shape.type.value) as [string, ...string[]];
import { DismissInput, RECOMMENDATION_STATUSES, SnoozeInput } from "../optimizer/service.server";
import { RECOMMENDATION_TYPES } from "../optimizer/types.server";
import { ChangeSet } from "./change-sets.server";
import { CustomerIdParams, defineArea, errorResponse, NOT_JSON, NullableTimestamp, ok, Timestamp } from "./registry.server";

// /accounts/{customerId}/recommendations and /recommendations/{id}/…: the
// recommendations engine's results (app/server/optimizer/).

const Figure = z.object({
  name: z.string(),
  label: z.string(),
  value: z.union([z.number(), z.string()]).nullable(),
  unit: z.enum(["money", "count", "percent", "ratio", "text"]).optional(),
});

const Target = z.object({
  metric: z.enum(["cpa", "roas"]),
  value: z.number().describe("CPA in account currency units, or ROAS as a ratio (3 = 300 %)"),
  source: z.enum(["bidding strategy", "account setting", "account reference", "assumed target"]),
  basis: z.string().optional().describe("For an account reference: the campaigns and conversions it is made of"),
  label: z.string(),
});

const Evidence = z.object({
  summary: z.string(),
  dateRange: z.object({ from: z.string(), to: z.string() }).describe("The judged days (the last 3 days of data are never judged)"),
  syncedAt: NullableTimestamp,
  figures: z.array(Figure),
  target: Target.nullable(),
  test: z.object({ name: z.string(), result: z.string(), confidence: z.number().nullable() }).nullable(),
  notes: z.array(z.string()),
});

const Resources = z.array(
  z.object({
    kind: z.enum(["campaign", "ad_group", "keyword", "negative_keyword", "campaign_negative_keyword", "search_term", "ad"]),
    id: z.string(),
    name: z.string(),
    resourceName: z.string().optional(),
  }),
);

export const Recommendation = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .describe("Stable across engine runs (a hash of the account and the rule + resource)"),
  type: z.enum(RECOMMENDATION_TYPES),
  title: z.string(),
  status: z.enum(RECOMMENDATION_STATUSES),
  confidence: z.number().min(0).max(1),
  confidenceLabel: z.enum(["Strong", "Likely"]).describe("Strong: confidence ≥ 0.95"),
  impact: z.object({
    kind: z.enum(["cost_saved", "conversions_gained", "value_gained", "none"]),
    monthly: z.number().describe("Per month: account currency units for cost and value, conversions otherwise"),
    riskConversions: z.number().nullable().describe("Conversions a saving could cost per month"),
    assumption: z.string(),
    currencyCode: z.string(),
  }),
  evidence: Evidence,
  actions: z
    .array(z.looseObject({ type: z.enum(ACTION_TYPES) }))
    .describe(
      "Exactly the change-set API's actions (components/schemas/Action), ready for POST /accounts/{customerId}/change-sets; empty when nothing is changed automatically",
    ),
  resources: Resources,
  links: z.array(z.object({ label: z.string(), href: z.string() })),
  alternatives: z
    .array(
      z.object({
        key: z.string(),
        type: z.enum(RECOMMENDATION_TYPES),
        title: z.string(),
        confidence: z.number().min(0).max(1),
        impact: z.object({
          kind: z.enum(["cost_saved", "conversions_gained", "value_gained", "none"]),
          monthly: z.number(),
          riskConversions: z.number().nullable(),
          assumption: z.string(),
        }),
        actions: z.array(z.looseObject({ type: z.enum(ACTION_TYPES) })),
        resources: Resources,
        evidence: Evidence,
        currencyCode: z.string(),
      }),
    )
    .describe("Other findings on the same entity, folded into this one (its action is the best); their impact is not counted again"),
  dismissedReason: z.string().nullable(),
  snoozedUntil: NullableTimestamp,
  changeSetId: z.string().nullable().describe("The latest change set its Apply created"),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
});

export const PerformanceScore = z.object({
  value: z.int().min(0).max(100).nullable().describe("Null while nothing is synced"),
  breakdown: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      weight: z.number(),
      score: z.int().nullable(),
      explanation: z.string(),
      items: z.array(
        z.object({ key: z.string(), recommendationId: z.string().optional(), title: z.string(), type: z.enum(RECOMMENDATION_TYPES), points: z.number() }),
      ),
    }),
  ),
});

export const AnalysisState = z
  .object({
    status: z
      .enum(["running", "idle"])
      .describe(
        "running: the engine is analysing the account's data now (right after a sync, or on demand); score, ranAt and the list are the previous run's (none before the first) until it ends. Poll again in a few seconds",
      ),
    startedAt: NullableTimestamp.describe("When the running analysis started; null when idle"),
  })
  .describe("Whether an engine run is in flight (a run that stopped without finishing reads as idle after 5 minutes)");

const RecommendationList = z.object({
  recommendations: z.array(Recommendation),
  score: PerformanceScore,
  ranAt: NullableTimestamp,
  syncedAt: NullableTimestamp,
  analysis: AnalysisState,
});

const ListQuery = z.object({
  status: z.enum(RECOMMENDATION_STATUSES).optional().describe("Default open"),
  type: z.enum(RECOMMENDATION_TYPES).optional(),
});
const IdParams = z.object({ recommendationId: z.string().describe("The recommendation's id") });
const One = z.object({ recommendation: Recommendation });
const NOT_FOUND = errorResponse("No such recommendation among the caller's accounts (another user's included)");
const NOT_POST = errorResponse("Method not allowed (POST only)");
const APPLIED = errorResponse("Already applied");

export default defineArea({
  tag: "recommendations",
  description: "The recommendations engine: findings over the synced data, with evidence, confidence and change-set actions.",
  schemas: { Recommendation, PerformanceScore, AnalysisState, RecommendationList },
  paths: {
    "/accounts/{customerId}/recommendations": {
      get: {
        summary: "The account's recommendations, sorted by estimated impact, and its Performance Score",
        description:
          "Results of the last engine run (after every successful sync). A snooze that ran out reads as open. While a run is in flight, analysis.status is running.",
        path: CustomerIdParams,
        query: ListQuery,
        responses: {
          200: ok("Recommendations and score", RecommendationList),
          400: errorResponse("Unknown status or type, or a manager account"),
          404: errorResponse("No such account among the caller's"),
        },
      },
    },
    "/recommendations/{recommendationId}/apply": {
      post: {
        summary: "Turn the recommendation into a change set, validated by Google, not applied",
        tokenScope: "propose",
        description:
          "Apply it with POST /change-sets/{changeSetId}/apply or on its review page. An open change set made from it is returned instead of a new one.",
        path: IdParams,
        responses: {
          201: ok("Proposed and validated", z.object({ changeSet: ChangeSet, validationProblem: z.string().nullable() })),
          400: errorResponse("Nothing to change automatically (e.g. low quality score, weak ad)"),
          404: NOT_FOUND,
          405: NOT_POST,
          409: APPLIED,
        },
      },
    },
    "/recommendations/{recommendationId}/dismiss": {
      post: {
        summary: "Dismiss (stays dismissed across engine runs)",
        path: IdParams,
        body: DismissInput,
        bodyRequired: false,
        responses: { 200: ok("Dismissed", One), 400: errorResponse("Reason too long"), 404: NOT_FOUND, 405: NOT_POST, 409: APPLIED, 415: NOT_JSON },
      },
    },
    "/recommendations/{recommendationId}/snooze": {
      post: {
        summary: "Snooze for 7 or 30 days",
        path: IdParams,
        body: SnoozeInput,
        responses: { 200: ok("Snoozed", One), 400: errorResponse("days is not 7 or 30"), 404: NOT_FOUND, 405: NOT_POST, 409: APPLIED, 415: NOT_JSON },
      },
    },
    "/recommendations/{recommendationId}/restore": {
      post: {
        summary: "Back to the open list from dismissed or snoozed",
        path: IdParams,
        responses: { 200: ok("Restored", One), 404: NOT_FOUND, 405: NOT_POST, 409: APPLIED },
      },
    },
  },
});
