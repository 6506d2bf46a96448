import { z } from "zod";
import type { OverviewRow } from "../agency/overview.server";
import { OVERVIEW_FILTERS, OVERVIEW_SORTS } from "../agency/overview.server";
import { PAGE_SIZES } from "~/lib/list-query";
import type { BudgetPlanView, Pacing as PacingType } from "../agency/pacing.server";
import { BudgetPlanBody } from "../agency/pacing.server";
import { type Assert, type SameFields, CustomerIdParams, defineArea, errorResponse, NullableTimestamp, ok } from "./registry.server";

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
  schemas: { AccountOverview, Pacing, BudgetPlan },
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
  },
});
