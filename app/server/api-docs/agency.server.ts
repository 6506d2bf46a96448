import { z } from "zod";
import type { OverviewRow } from "../agency/overview.server";
import { OVERVIEW_FILTERS, OVERVIEW_SORTS } from "../agency/overview.server";
import { PAGE_SIZES } from "~/lib/list-query";
import { type Assert, type SameFields, defineArea, errorResponse, NullableTimestamp, ok } from "./registry.server";

// Issue 31: the agency's morning — every client account on one screen.

const CustomerId = z.string().regex(/^\d{10}$/);

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
});

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
  schemas: { AccountOverview },
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
  },
});
