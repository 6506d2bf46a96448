import { z } from "zod";
import { ActionInput, ApplyOptionsBody, ProposeChangeSetBody } from "~/lib/change-actions";
import { CHANGE_SET_ORIGINS } from "~/lib/change-origins";
import type { ChangeSetView } from "../changes/review.server";
import { CustomerIdParams, defineArea, errorResponse, NOT_JSON, NullableTimestamp, ok, Timestamp, type Assert, type SameFields } from "./registry.server";

// /accounts/{customerId}/change-sets and /change-sets/{id}: every write to
// Google goes through a change set (propose → Google's validateOnly → the
// caller's apply → history → revert).

const RESOURCE_KINDS = ["campaign", "campaign_budget", "ad_group", "keyword", "negative_keyword", "campaign_negative_keyword", "ad"] as const;
const CHANGE_STATUSES = ["pending", "valid", "invalid", "applying", "applied", "failed", "unknown"] as const;
const SET_STATUSES = ["proposed", "validated", "invalid", "applying", "applied", "partially_applied", "failed", "discarded"] as const;

export const FieldDiff = z
  .object({
    field: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    percent: z.number().nullable().describe("Signed change in percent for budgets and bids"),
  })
  .describe("One changed field formatted for people, e.g. Daily budget: €50.00 → €60.00");

export const Change = z.object({
  id: z.string(),
  resourceKind: z.enum(RESOURCE_KINDS),
  operation: z.enum(["create", "update", "remove"]),
  resourceName: z.string().nullable().describe("Google's resource name; for a create, once applied"),
  label: z.string(),
  status: z.enum(CHANGE_STATUSES),
  errorCode: z.string().nullable().describe("Google's error code when refused or failed, e.g. RangeError.TOO_LOW"),
  errorMessage: z.string().nullable(),
  fieldPath: z.string().nullable(),
  largeMove: z
    .boolean()
    .describe(
      "A budget, bid or target move beyond confirmPercent, measured from the value in force when the item had none of its own (the ad group's bid, the campaign's target)",
    ),
  permanent: z.boolean().describe("Removes a campaign, ad group or ad: Google cannot undo it (apply needs confirmRemovals)"),
  fields: z.array(FieldDiff),
  before: z.unknown().describe("The changed fields before, as stored (micros as numbers); null for a create"),
  after: z.unknown().describe("The changed fields after, as stored (micros as numbers)"),
});

export const ChangeSet = z.object({
  id: z.uuid(),
  customerId: z.string().regex(/^\d{10}$/),
  title: z.string(),
  status: z.enum(SET_STATUSES),
  source: z.enum(["user", "rule", "assistant"]),
  sourceDetail: z.string().nullable(),
  proposedBy: z.string().describe("The proposer's email, or Recommendation (a recommendation's Apply), Rule or Assistant"),
  origin: z
    .enum(CHANGE_SET_ORIGINS)
    .describe(
      "Where it was proposed: chat (the assistant), ad_generator, recommendation (its Apply), campaign (the campaign screens' forms, ticked rows included), api, revert",
    ),
  chat: z.object({ id: z.uuid(), title: z.string() }).nullable().describe("The chat whose assistant proposed it"),
  approvedBy: z.string().nullable().describe("Who pressed Apply (email), once someone did"),
  atomic: z.boolean().describe("Every change applies or none does"),
  needsConfirmation: z.boolean().describe("A budget or bid moves by more than confirmPercent: apply needs confirmLargeMoves"),
  confirmPercent: z.int(),
  removals: z.int().describe("Campaigns, ad groups and ads this set removes; when above 0, apply needs confirmRemovals: true"),
  createdAt: Timestamp,
  validatedAt: NullableTimestamp,
  approvedAt: NullableTimestamp,
  appliedAt: NullableTimestamp,
  error: z.string().nullable(),
  revertOf: z.string().nullable().describe("The change set this one undoes"),
  revertedBy: z.string().nullable().describe("The applied change set that undid this one"),
  canApply: z.boolean(),
  canValidate: z.boolean(),
  canDiscard: z.boolean(),
  canRevert: z.boolean(),
  counts: z.object({ total: z.int(), valid: z.int(), invalid: z.int(), applied: z.int(), failed: z.int() }),
  changes: z.array(Change),
});
/** The service's view has the documented fields: one renamed on one side only fails typecheck. */
export type ChangeSetFieldsMatch = Assert<SameFields<ChangeSetView, z.output<typeof ChangeSet>>>;
export type ChangeFieldsMatch = Assert<SameFields<ChangeSetView["changes"][number], z.output<typeof Change>>>;

const ChangeSetBody = z.object({ changeSet: ChangeSet });
const ChangeSetWithValidation = z.object({
  changeSet: ChangeSet,
  validationProblem: z
    .string()
    .nullable()
    .describe(
      "Why Google's validation did not run (e.g. Google unreachable: the set stays proposed; validate again later). Google's refusals are not problems here: they are in changeSet.status and each change.",
    ),
});

const ChangeSetIdParams = z.object({ changeSetId: z.uuid().describe("The change set's id (a UUID)") });
const NOT_FOUND = errorResponse("No such change set among the caller's (a malformed id included)");
const NOT_POST = errorResponse("Method not allowed (POST only)");

export default defineArea({
  tag: "changes",
  schemas: {
    ProposeChangeSet: ProposeChangeSetBody,
    ApplyOptions: ApplyOptionsBody,
    Action: ActionInput,
    ChangeSet,
    Change,
    FieldDiff,
    ChangeSetWithValidation,
  },
  paths: {
    "/accounts/{customerId}/change-sets": {
      post: {
        summary: "Propose changes as one change set; Google validates it, nothing is applied",
        tokenScope: "propose",
        description:
          "Stores the actions as one change set with each change's before and after, then asks Google to validate it (validateOnly). Google's refusals show in changeSet.status (invalid) and each change's error. Apply it with POST /change-sets/{changeSetId}/apply.",
        path: CustomerIdParams,
        body: ProposeChangeSetBody,
        responses: {
          201: ok("Proposed (status validated, invalid, or proposed when Google could not be reached)", ChangeSetWithValidation),
          400: errorResponse("Invalid body; errors is keyed by the field's path, e.g. actions.0.amount. Also a manager account."),
          404: errorResponse("No such account among the caller's, or an id in an action not found in the account"),
          405: NOT_POST,
          415: NOT_JSON,
        },
      },
    },
    "/change-sets/{changeSetId}": {
      get: {
        summary: "A change set with every change's before and after and Google's verdict",
        path: ChangeSetIdParams,
        responses: { 200: ok("The change set", ChangeSetBody), 404: NOT_FOUND },
      },
    },
    "/change-sets/{changeSetId}/validate": {
      post: {
        summary: "Have Google check the changes again (validateOnly); nothing is applied",
        tokenScope: "propose",
        description: "Re-reads the before values from Google. Only a proposed, validated or invalid change set can be validated.",
        path: ChangeSetIdParams,
        responses: {
          200: ok("Validated (see changeSet.status) or, with a validationProblem, not validated", ChangeSetWithValidation),
          404: NOT_FOUND,
          405: NOT_POST,
          409: errorResponse("Already applying, applied, failed or discarded"),
        },
      },
    },
    "/change-sets/{changeSetId}/apply": {
      post: {
        summary: "Apply the change set at Google (the caller's approval)",
        description:
          "The body is optional (an empty body is {}). A proposed set is validated first. The outcome, applied, partially_applied or failed, is in changeSet.status, and each change's status and error say which changes Google refused.",
        path: ChangeSetIdParams,
        body: ApplyOptionsBody,
        bodyRequired: false,
        responses: {
          200: ok("Sent to Google; the outcome is in changeSet.status", ChangeSetBody),
          400: errorResponse("Invalid body"),
          404: NOT_FOUND,
          405: NOT_POST,
          409: errorResponse(
            "Not validated, refused by Google, already applied or discarded, the Google Ads connection needs reconnecting, a large budget/bid move without confirmLargeMoves (errors.confirmLargeMoves), or a removal of campaigns, ad groups or ads, which cannot be undone, without confirmRemovals (errors.confirmRemovals)",
          ),
          415: NOT_JSON,
          502: errorResponse("Google Ads could not be reached (e.g. to validate a proposed set first); nothing was applied"),
        },
      },
    },
    "/change-sets/{changeSetId}/discard": {
      post: {
        summary: "Discard a proposal: kept as discarded, never applied",
        path: ChangeSetIdParams,
        responses: {
          200: ok("Discarded", ChangeSetBody),
          404: NOT_FOUND,
          405: NOT_POST,
          409: errorResponse("Already applying, applied, failed or discarded"),
        },
      },
    },
    "/change-sets/{changeSetId}/revert": {
      post: {
        summary: "Propose a new change set undoing an applied one",
        description:
          "Creates and validates a NEW change set with the inverse of every applied change (the recorded before values); changeSet is that new set, with revertOf set. Apply it like any other.",
        path: ChangeSetIdParams,
        responses: {
          201: ok("The new, inverse change set", ChangeSetWithValidation),
          404: NOT_FOUND,
          405: NOT_POST,
          409: errorResponse("Not applied, nothing revertable, or already reverted"),
        },
      },
    },
  },
});
