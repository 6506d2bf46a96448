import { z } from "zod";
import type { OverviewRow } from "../agency/overview.server";
import { OVERVIEW_FILTERS, OVERVIEW_SORTS } from "../agency/overview.server";
import { PAGE_SIZES } from "~/lib/list-query";
import type { BudgetPlanView, Pacing as PacingType } from "../agency/pacing.server";
import { BudgetPlanBody } from "../agency/pacing.server";
import { AlertListQuery, MuteInput, type AlertView } from "../agency/alert-inbox.server";
import { ReadBody } from "../agency/api.server";
import { ALERT_RULES } from "~/lib/alert-rules";
import { type Assert, type SameFields, CustomerIdParams, defineArea, errorResponse, NullableTimestamp, ok, Timestamp } from "./registry.server";

// Issue 31: the agency's morning — every client account on one screen.

const CustomerId = z.string().regex(/^\d{10}$/);

export const Pacing = z
  .object({
    month: z.string().meta({ examples: ["2026-11"] }),
    budgetMicros: z.int().describe("The month's budget set in the app"),
    spentMicros: z.int().describe("Spend of the month's complete days (through yesterday, the account's time zone)"),
    planToDateMicros: z.int().describe("Where spend would be by now if spread evenly over the month"),
    runRateMicros: z.int().describe("Average daily spend of the last 7 complete days"),
    daysLeft: z.int().describe("Days left in the month, today included"),
    projectedMicros: z.int().describe("spent + runRate × daysLeft"),
    offPlanMicros: z.int().describe("projected − budget: positive is over plan"),
    offPlanRatio: z.number().describe("offPlan ÷ budget"),
    status: z.enum(["on_plan", "over", "under"]).describe("on_plan within 10% of the budget"),
    suggestedDailyMicros: z.int().describe("The daily spend that lands on the budget over the days left"),
  })
  .describe("Budget pacing of the current month");

export const AccountOverview = z.object({
  customerId: CustomerId,
  name: z.string(),
  currencyCode: z.string(),
  timeZone: z.string(),
  manager: z
    .object({ customerId: CustomerId, name: z.string() })
    .nullable()
    .describe("The manager whose hierarchy reaches the account; null: reached directly"),
  period: z.object({ from: z.iso.date(), to: z.iso.date() }).describe("The last 30 complete days in the account's time zone"),
  costMicros: z.int(),
  conversions: z.number(),
  conversionsValue: z.number(),
  cpaMicros: z.int().nullable().describe("Cost per conversion in micros; null without conversions"),
  roas: z.number().nullable().describe("Conversion value ÷ cost; null without cost"),
  target: z.object({ cpaMicros: z.int().nullable(), roas: z.number().nullable() }).describe("The account's targets set in the app"),
  score: z.int().nullable().describe("Performance Score 0–100 of the last analysis"),
  openRecommendations: z.int(),
  recommendationsImpact: z.number().describe("The open recommendations' estimated monthly impact, in units of the account currency"),
  dataAsOf: NullableTimestamp.describe("Last successful refresh"),
  syncStatus: z.enum(["never", "running", "ok", "failed"]),
  attention: z.array(z.string()).describe("Why the account needs attention; empty when it does not"),
  activeAlerts: z.int().describe("Open alerts the caller has not muted"),
  pacing: Pacing.nullable().describe("The month's budget pacing; null without a monthly budget"),
});

export const BudgetPlan = z.object({
  customerId: CustomerId,
  currencyCode: z.string(),
  account: Pacing.nullable().describe("null: no monthly budget set for the account"),
  campaigns: z.array(
    z.object({
      campaignId: z.string(),
      name: z.string(),
      status: z.string(),
      dailyBudgetMicros: z.int().nullable(),
      pacing: Pacing,
    }),
  ),
});

export type PacingFieldsMatch = Assert<SameFields<PacingType, z.output<typeof Pacing>>>;
export type BudgetPlanFieldsMatch = Assert<SameFields<BudgetPlanView, z.output<typeof BudgetPlan>>>;

export const Alert = z.object({
  id: z.string(),
  customerId: CustomerId,
  accountName: z.string(),
  rule: z.enum(ALERT_RULES),
  ruleLabel: z.string(),
  campaignId: z.string().nullable(),
  title: z.string().describe("Names the figures and the usual value"),
  figures: z.record(z.string(), z.unknown()).describe("The figures and the baseline (median, MAD, the spread used, how many weeks)"),
  startedOn: z.iso.date().describe("The day the condition started, in the account's time zone"),
  status: z.enum(["open", "resolved"]),
  resolvedBy: z.enum(["check", "user"]).nullable().describe("check: a later check no longer saw the condition"),
  resolvedAt: NullableTimestamp,
  lastSeenAt: Timestamp,
  createdAt: Timestamp,
  evidencePath: z.string().describe("The screen with the evidence, in the account (a path of this app)"),
  recommendationId: z.string().nullable(),
  read: z.boolean(),
  muted: z.boolean(),
});
export type AlertFieldsMatch = Assert<SameFields<AlertView, z.output<typeof Alert>>>;

const Mutes = z.object({
  mutes: z.array(
    z.object({
      customerId: CustomerId.nullable().describe("null: every account"),
      accountName: z.string().nullable(),
      rule: z.enum(ALERT_RULES).nullable().describe("null: every rule"),
    }),
  ),
});

const NO_ACCOUNT = errorResponse("No such client account among the caller's Google Ads accounts");

export type AccountOverviewFieldsMatch = Assert<SameFields<OverviewRow, z.output<typeof AccountOverview>>>;

const OverviewQuery = z.object({
  sort: z.enum(OVERVIEW_SORTS).optional().describe("Default name"),
  dir: z.enum(["asc", "desc"]).optional().describe("Default: asc for name and manager, desc for numbers"),
  status: z.enum(OVERVIEW_FILTERS).optional().describe("attention: only accounts that need attention"),
  q: z.string().max(100).optional().describe("Part of the account's name or customer id"),
  manager: CustomerId.optional().describe("Only the clients of this manager"),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce
    .number()
    .int()
    .optional()
    .describe(`One of ${PAGE_SIZES.join(", ")}; default 50`),
});

export default defineArea({
  tag: "accounts",
  schemas: { AccountOverview, Pacing, BudgetPlan, Alert },
  paths: {
    "/accounts/overview": {
      get: {
        summary: "Every client account of the caller's managers with its figures, sorted, filtered and paged",
        query: OverviewQuery,
        responses: {
          200: ok(
            "One page of accounts",
            z.object({
              accounts: z.array(AccountOverview),
              total: z.int(),
              page: z.int(),
              pageSize: z.int(),
              sort: z.enum(OVERVIEW_SORTS),
              dir: z.enum(["asc", "desc"]),
              managers: z.array(z.object({ customerId: CustomerId, name: z.string(), clients: z.int() })),
            }),
          ),
          400: errorResponse("A query value that does not parse"),
        },
      },
    },
    "/accounts/{customerId}/budget-plan": {
      get: {
        summary: "The account's monthly budget plan (and its campaigns') with the month's pacing",
        path: CustomerIdParams,
        responses: { 200: ok("The plan and its pacing", BudgetPlan), 404: NO_ACCOUNT },
      },
      put: {
        summary: "Set or remove the account's monthly budget and campaigns' own; what the body leaves out stays",
        path: CustomerIdParams,
        body: BudgetPlanBody,
        responses: {
          200: ok("The plan as it is now", BudgetPlan),
          400: errorResponse("A value out of range, an unknown campaign, or a malformed body"),
          404: NO_ACCOUNT,
          415: errorResponse("Content-Type must be application/json"),
        },
      },
    },
    "/accounts/{customerId}/budget-plan/proposal": {
      post: {
        summary: "Propose the daily budgets that land on the monthly plan, as a change set to review (nothing is applied)",
        path: CustomerIdParams,
        tokenScope: "propose",
        bodyRequired: false,
        responses: {
          201: ok("The change set's id", z.object({ changeSetId: z.string() })),
          400: errorResponse("No plan set, or the budgets already land on plan"),
          404: NO_ACCOUNT,
        },
      },
    },
    "/alerts": {
      get: {
        tags: ["alerts"],
        summary: "The anomaly alerts of the caller's client accounts, newest first (50 a page), with the unread count",
        query: AlertListQuery,
        responses: {
          200: ok("A page of alerts", z.object({ alerts: z.array(Alert), total: z.int(), page: z.int(), pageSize: z.int(), unread: z.int() })),
          400: errorResponse("A query value that does not parse"),
        },
      },
    },
    "/alerts/read": {
      post: {
        tags: ["alerts"],
        summary: "Mark alerts read (the named ones, or every open one), for the caller only",
        body: ReadBody,
        responses: {
          200: ok("How many were marked, and the unread count now", z.object({ marked: z.int(), unread: z.int() })),
          400: errorResponse("A malformed body"),
          404: errorResponse("An alert not among the caller's"),
          415: errorResponse("Content-Type must be application/json"),
        },
      },
    },
    "/alerts/{alertId}/resolve": {
      post: {
        tags: ["alerts"],
        summary: "Resolve an open alert; it stays resolved while its condition lasts (a new episode is a new alert)",
        path: z.object({ alertId: z.string() }),
        bodyRequired: false,
        responses: {
          200: ok("Resolved", z.object({ id: z.string(), status: z.literal("resolved") })),
          400: errorResponse("Already resolved"),
          404: errorResponse("An alert not among the caller's"),
        },
      },
    },
    "/alerts/mutes": {
      get: { tags: ["alerts"], summary: "The caller's muted rules and accounts", responses: { 200: ok("Mutes", Mutes) } },
      post: {
        tags: ["alerts"],
        summary: "Mute or unmute a rule, an account, or a rule in one account, for the caller only",
        body: MuteInput,
        responses: {
          200: ok("Mutes", Mutes),
          400: errorResponse("Neither an account nor a rule, or a malformed body"),
          404: errorResponse("An account not among the caller's client accounts"),
          415: errorResponse("Content-Type must be application/json"),
        },
      },
    },
  },
});
