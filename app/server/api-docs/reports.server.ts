import { z } from "zod";
import type { CampaignRow } from "../ads/reports.server";
import type { syncView } from "../sync-status.server";
import { type Assert, type SameFields, CustomerIdParams, defineArea, errorResponse, NullableTimestamp, ok } from "./registry.server";

// /accounts: the caller's Google Ads accounts and their reports, read from the
// local copy that sync keeps fresh.

const NOT_FOUND_ACCOUNT = errorResponse("No such account among the caller's Google Ads accounts");
const BAD_RANGE = errorResponse("Malformed or impossible date range");

export const Account = z.object({
  customerId: z.string().regex(/^\d{10}$/),
  name: z.string(),
  currencyCode: z.string().describe("ISO 4217"),
  timeZone: z.string().describe("IANA time zone"),
  manager: z.boolean(),
});

export const Metrics = z.object({
  impressions: z.int(),
  clicks: z.int(),
  costMicros: z.int().describe("Cost in micros of the account currency"),
  conversions: z.number(),
  conversionsValue: z.number().describe("In units of the account currency"),
});

export const Campaign = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(["ENABLED", "PAUSED", "REMOVED"]),
  channelType: z.string().meta({ examples: ["SEARCH", "DISPLAY", "PERFORMANCE_MAX"] }),
  biddingStrategyType: z.string().meta({ examples: ["MANUAL_CPC", "MAXIMIZE_CONVERSIONS", "TARGET_CPA"] }),
  budgetMicros: z.int().nullable().describe("Daily budget in micros"),
  metrics: Metrics,
});

export const Summary = z.object({ activeCampaigns: z.int().describe("Enabled campaigns"), metrics: Metrics });

export const SyncState = z.object({
  status: z.enum(["never", "running", "ok", "failed"]),
  lastSuccessAt: NullableTimestamp,
  lastError: z.string().nullable(),
  progressDone: z.int(),
  progressTotal: z.int(),
  currentStep: z.string().nullable(),
  detail: z
    .object({
      status: z
        .enum(["never", "running", "ok", "failed"])
        .describe(
          "ok: complete. running: the account's first sync made the rest of the data available (status ok) and is still importing this. failed: that import failed; the rest of the data stays and the next sync imports everything",
        ),
      currentStep: z
        .string()
        .nullable()
        .meta({ examples: ["Loading keyword performance"] }),
      lastError: z.string().nullable().describe("Why the import failed, naming the step"),
      progressDone: z.int(),
      progressTotal: z.int(),
    })
    .describe("Keyword, ad and search-term performance. Until status is ok, those reports lack rows: missing, not zero"),
  googlePausedUntil: NullableTimestamp.describe(
    "Google Ads calls are paused for the whole install until then (its daily operations budget is spent, or Google asked for a pause): no refresh runs meanwhile",
  ),
  googlePauseReason: z.string().nullable(),
});

export type CampaignFieldsMatch = Assert<SameFields<CampaignRow, z.output<typeof Campaign>>>;
export type SyncStateFieldsMatch = Assert<SameFields<ReturnType<typeof syncView>, z.output<typeof SyncState>>>;

/** ?from&to of the report endpoints. */
export const RangeQuery = z.object({
  from: z.iso
    .date()
    .optional()
    .describe("First day of the range (inclusive), YYYY-MM-DD in the account's time zone. Without from and to: the last 30 days ending yesterday."),
  to: z.iso.date().optional().describe("Last day of the range (inclusive), YYYY-MM-DD. Send both from and to, or neither."),
});

export default defineArea({
  tag: "reports",
  schemas: { Account, Metrics, Campaign, Summary, SyncState },
  paths: {
    "/accounts": {
      get: {
        tags: ["accounts"],
        summary: "The caller's Google Ads accounts",
        responses: { 200: ok("Accounts", z.object({ accounts: z.array(Account) })) },
      },
    },
    "/accounts/{customerId}/campaigns": {
      get: {
        summary: "Every campaign of the account with its metrics for the range",
        path: CustomerIdParams,
        query: RangeQuery,
        responses: {
          200: ok("Campaigns, all of them (no paging)", z.object({ campaigns: z.array(Campaign) })),
          400: BAD_RANGE,
          404: NOT_FOUND_ACCOUNT,
        },
      },
    },
    "/accounts/{customerId}/summary": {
      get: {
        summary: "Account totals for the range and the number of enabled campaigns",
        path: CustomerIdParams,
        query: RangeQuery,
        responses: { 200: ok("Summary", Summary), 400: BAD_RANGE, 404: NOT_FOUND_ACCOUNT },
      },
    },
    "/accounts/{customerId}/sync": {
      get: {
        summary: "The state of the account's data import from Google Ads",
        path: CustomerIdParams,
        responses: { 200: ok("Sync state", SyncState), 404: NOT_FOUND_ACCOUNT },
      },
      post: {
        summary: "Start a sync now (returns at once; poll GET for progress). Accounts are also refreshed on a schedule",
        tokenScope: "read",
        path: CustomerIdParams,
        responses: {
          202: ok("Sync started or already running", SyncState),
          400: errorResponse("A manager account: it has nothing of its own to sync"),
          404: NOT_FOUND_ACCOUNT,
          405: errorResponse("Method not allowed"),
          429: errorResponse("Sync now was used 6 times in the last hour for this account; Retry-After says when it is available again"),
          503: errorResponse("Google Ads calls are paused (the install's daily budget is spent); Retry-After says for how long"),
        },
      },
    },
  },
});
