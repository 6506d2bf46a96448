import { z } from "zod";
import { HistoryQuery, type HistoryItem as HistoryItemView } from "../changes/history.server";
import { defineArea, errorResponse, ok, Timestamp, type Assert, type SameFields } from "./registry.server";

// /history: changes made through the app and, imported from Google, elsewhere.

export const HistoryItem = z.object({
  id: z.string(),
  origin: z.enum(["product", "external"]),
  at: Timestamp,
  customerId: z.string(),
  source: z.enum(["user", "rule", "assistant", "external"]),
  who: z
    .string()
    .describe(
      "The person's email; for a recommendation's, a rule's or the assistant's change, e.g. \"Recommendation, applied by ana@example.com\"; Google's user for outside changes",
    ),
  originLabel: z.string(),
  resourceKind: z.string(),
  resourceName: z.string().nullable(),
  label: z.string(),
  operation: z.string(),
  before: z.unknown().describe("The changed fields before (any JSON)"),
  after: z.unknown().describe("The changed fields after (any JSON)"),
  status: z.string(),
  error: z.string().nullable(),
  changeSetId: z.string().nullable(),
  changeSetTitle: z.string().nullable(),
  revertable: z.boolean(),
  revertedBy: z.string().nullable().describe("The change set that undid this change, once it was reverted"),
});

export type HistoryItemFieldsMatch = Assert<SameFields<HistoryItemView, z.output<typeof HistoryItem>>>;

export default defineArea({
  tag: "history",
  schemas: { HistoryItem },
  paths: {
    "/history": {
      get: {
        summary: "Change history: changes made through the app and, imported from Google, elsewhere; newest first, 50 per page",
        query: HistoryQuery,
        responses: {
          200: ok("One page of history", z.object({ items: z.array(HistoryItem), total: z.int() })),
          400: errorResponse("Invalid filter"),
        },
      },
    },
  },
});
