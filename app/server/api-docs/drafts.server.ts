import { z } from "zod";
import { CHANGE_SET_ORIGINS } from "~/lib/change-origins";
import { DiscardDraftsBody, DRAFT_STATUSES, DraftsQuery, type DiscardOutcome, type DraftItem } from "../changes/drafts.server";
import { defineArea, errorResponse, NOT_JSON, NullableTimestamp, ok, Timestamp, type Assert, type SameFields } from "./registry.server";

// /drafts: change sets proposed but not applied (issue 29 point 4), filtered, and their bulk discard.

export const Draft = z.object({
  id: z.uuid(),
  customerId: z.string().regex(/^\d{10}$/),
  title: z.string(),
  status: z.enum(DRAFT_STATUSES).describe("Google's verdict: validated (accepted in the dry run), invalid (refused), proposed (not checked yet)"),
  proposedBy: z.string().describe("The proposer's email, or Recommendation, Rule or Assistant"),
  origin: z.enum(CHANGE_SET_ORIGINS).describe("Where it was proposed"),
  chat: z.object({ id: z.uuid(), title: z.string() }).nullable().describe("The chat whose assistant proposed it"),
  recommendationId: z.string().nullable().describe("The recommendation whose Apply proposed it"),
  revertOf: z.string().nullable().describe("The applied change set it would undo"),
  createdAt: Timestamp,
  validatedAt: NullableTimestamp,
  changeCount: z.int(),
  refusedCount: z.int().describe("Changes Google refused in the dry run"),
  verdict: z.string().describe("Google's verdict in a sentence, e.g. Google refused 1 of 3 changes"),
});
export type DraftFieldsMatch = Assert<SameFields<DraftItem, z.output<typeof Draft>>>;

const DiscardOutcomeBody = z.object({
  discarded: z.array(z.uuid()).describe("Discarded now: kept as discarded, never sent to Google"),
  notDiscarded: z
    .array(z.object({ id: z.string(), reason: z.string() }))
    .describe("Left as they were: applied, applying or discarded meanwhile, or no such draft among the caller's"),
});
export type DiscardOutcomeFieldsMatch = Assert<SameFields<DiscardOutcome, z.output<typeof DiscardOutcomeBody>>>;

export default defineArea({
  tag: "drafts",
  description: "Change sets proposed but not applied",
  schemas: { Draft, DiscardDrafts: DiscardDraftsBody, DiscardOutcome: DiscardOutcomeBody },
  paths: {
    "/drafts": {
      get: {
        summary: "Drafts: change sets proposed but neither applied nor discarded, newest first, 50 per page",
        description:
          "From the chat, the ad generator, recommendations, the campaign screens (ticked rows included), the API and reverts, each with who or what proposed it, when, and Google's verdict from the dry run (validateOnly). Apply one with POST /change-sets/{changeSetId}/apply.",
        query: DraftsQuery,
        responses: {
          200: ok("One page of drafts", z.object({ drafts: z.array(Draft), total: z.int() })),
          400: errorResponse("Invalid filter (errors keyed by the parameter)"),
          404: errorResponse("No such account among the caller's"),
        },
      },
    },
    "/drafts/discard": {
      post: {
        summary: "Discard drafts in bulk: kept as discarded, never applied",
        description:
          "Each of the caller's drafts among ids is discarded at once; ids already applied, applying or discarded, or not the caller's, are listed in notDiscarded with why.",
        body: DiscardDraftsBody,
        responses: {
          200: ok("What was discarded and what was not", DiscardOutcomeBody),
          400: errorResponse("Invalid body (errors keyed by field, e.g. ids.0)"),
          405: errorResponse("Method not allowed (POST only)"),
          415: NOT_JSON,
        },
      },
    },
  },
});
