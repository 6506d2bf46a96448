import { z } from "zod";
import { adTextWidth, lintLine, lintRsa } from "./ad-lint";
import {
  DESCRIPTION_MAX,
  DESCRIPTION_PINS,
  HEADLINE_MAX,
  HEADLINE_PINS,
  KEYWORD_INVALID_CHARS,
  KEYWORD_MATCH_TYPES,
  KEYWORD_MAX_CHARS,
  KEYWORD_MAX_WORDS,
  PATH_MAX,
  RSA_DESCRIPTIONS_MAX,
  RSA_DESCRIPTIONS_MIN,
  RSA_HEADLINES_MAX,
  RSA_HEADLINES_MIN,
  keywordWordCount,
} from "./ad-limits";
import { BIDI_MESSAGE, hasBidiControl } from "./text-safety";
import { missingOrWrongType } from "./text-error";

// The one contract for a change to a Google Ads account: what the forms, the
// JSON API (whose OpenAPI document is generated from these schemas), the
// assistant's tools and the ad generator may ask for. Pure zod, no server code,
// so the browser can run the same checks. Every rule has one message per field.

/** The most items one change set (or one list inside an action) may hold. */
export const MAX_CHANGE_ITEMS = 5000;

export const CustomerId = z
  .string()
  .regex(/^\d{10}$/, "Customer ID must be 10 digits")
  .describe("Google Ads customer id, 10 digits without dashes");
const Id = (description: string) => z.string().regex(/^\d+$/, "Unknown id").describe(description);
/** Keyword and ad ids are "adGroupId~criterionId" / "adGroupId~adId", as in their resource names. */
export const CompositeId = z.string().regex(/^\d+~\d+$/, "Unknown id");

/** Money in units of the account's currency (12.5 = 12.50), never micros. */
export const Money = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .positive(`${what} must be greater than 0`)
    .max(1_000_000_000, `${what} is too large`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${what} can have at most 2 decimals`)
    .meta({ multipleOf: 0.01, description: `${what}, in units of the account's currency (not micros), at most 2 decimals` });

export const KeywordText = z
  .string()
  .trim()
  .min(1, "Keyword text is required")
  .max(KEYWORD_MAX_CHARS, `Keywords can be at most ${KEYWORD_MAX_CHARS} characters`)
  .refine((t) => keywordWordCount(t) <= KEYWORD_MAX_WORDS, `Keywords can be at most ${KEYWORD_MAX_WORDS} words`)
  .refine((t) => !KEYWORD_INVALID_CHARS.test(t), "Keywords cannot contain ! @ % ^ ( ) = { } ; ~ ` < > ? \\ | , *")
  .refine((t) => !hasBidiControl(t), `Keywords ${BIDI_MESSAGE}`)
  .describe(`At most ${KEYWORD_MAX_CHARS} characters and ${KEYWORD_MAX_WORDS} words; none of ! @ % ^ ( ) = { } ; ~ \` < > ? \\ | , *`);
export const MatchType = z.enum(KEYWORD_MATCH_TYPES, { error: "Match type must be EXACT, PHRASE or BROAD" });

/** A list of 1 to MAX_CHANGE_ITEMS items, with the message for an empty one. */
// Missing says what is missing; anything but a list (a string, an object) says so, not zod's "expected array".
const items = <T extends z.ZodType>(item: T, empty: string) =>
  z.array(item, missingOrWrongType(empty, "Must be a list")).min(1, empty).max(MAX_CHANGE_ITEMS, `At most ${MAX_CHANGE_ITEMS} items at a time`);

export const StatusChangeInput = z.object({
  customerId: CustomerId,
  kind: z.enum(["campaign", "ad_group", "keyword", "ad"]),
  ids: items(z.string(), "Choose at least one item").describe(
    "Campaign and ad group ids are numeric; keyword ids are adGroupId~criterionId, ad ids adGroupId~adId",
  ),
  status: z.enum(["ENABLED", "PAUSED", "REMOVED"]),
});
export const BudgetChangeInput = z.object({ customerId: CustomerId, campaignId: Id("The campaign's id"), amount: Money("Daily budget") });
export const BidChangeInput = z.object({
  customerId: CustomerId,
  kind: z.enum(["keyword", "ad_group"]),
  items: items(z.object({ id: z.string().describe("Ad group id, or keyword id adGroupId~criterionId"), cpc: Money("Bid") }), "Choose at least one item"),
});
/**
 * An ad group's own target CPA, which overrides its campaign's (Target CPA or Maximize
 * conversions with a target); null clears the override so the campaign's target applies.
 */
export const TargetCpaChangeInput = z.object({
  customerId: CustomerId,
  adGroupId: Id("The ad group's id"),
  targetCpa: Money("Target CPA")
    .nullable()
    .describe("The ad group's target CPA in units of the account's currency (not micros), at most 2 decimals; null clears the ad group's own target"),
});
export const AddKeywordsInput = z.object({
  customerId: CustomerId,
  adGroupId: Id("The ad group's id"),
  keywords: items(z.object({ text: KeywordText, matchType: MatchType, cpc: Money("Bid").optional() }), "Add at least one keyword"),
});
export const AddNegativesInput = z.object({
  customerId: CustomerId,
  level: z.enum(["ad_group", "campaign"]),
  parentId: Id("The ad group's or campaign's id, per level"),
  keywords: items(z.object({ text: KeywordText, matchType: MatchType }), "Add at least one keyword"),
});
export const RemoveKeywordsInput = z.object({
  customerId: CustomerId,
  ids: items(z.string().describe("Keyword id adGroupId~criterionId"), "Choose at least one keyword"),
});

/**
 * Ad text through the gate (ad-lint.ts): Google's width (a double-width character counts 2,
 * {KeyWord:Default} counts its default) and the editorial rules, one message per line.
 */
const AdText = (kind: "headline" | "description", empty: string, max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .min(1, empty)
    .refine((t) => adTextWidth(t) <= max, tooLong)
    .refine((t) => !hasBidiControl(t), `${kind === "headline" ? "Headlines" : "Descriptions"} ${BIDI_MESSAGE}`)
    .superRefine((t, ctx) => {
      for (const issue of lintLine(t, kind)) {
        if (issue.severity === "error" && issue.code !== "TOO_LONG" && issue.code !== "EMPTY") ctx.addIssue({ code: "custom", message: issue.message });
      }
    })
    .describe(`At most ${max} width units (a double-width character counts 2; {KeyWord:Default} counts its default) and Google's editorial rules`);
/** Negatives by "parentId~criterionId": an ad group's or a campaign's (campaign negatives are campaign criteria). */
export const RemoveNegativesInput = z.object({
  customerId: CustomerId,
  level: z.enum(["ad_group", "campaign"], { error: "Level must be ad_group or campaign" }),
  ids: items(z.string().describe("Negative id parentId~criterionId: adGroupId~… or campaignId~…, per level"), "Choose at least one negative keyword"),
});

export const Headline = z.object({
  text: AdText("headline", "Headline is empty", HEADLINE_MAX, `Headlines can be at most ${HEADLINE_MAX} characters`),
  pin: z.enum(HEADLINE_PINS).optional(),
});
export const Description = z.object({
  text: AdText("description", "Description is empty", DESCRIPTION_MAX, `Descriptions can be at most ${DESCRIPTION_MAX} characters`),
  pin: z.enum(DESCRIPTION_PINS).optional(),
});
/** A responsive search ad as Google takes it (and as the ad generator writes it). */
export const RsaShape = z.object({
  adGroupId: Id("The ad group's id"),
  headlines: z
    .array(Headline)
    .min(RSA_HEADLINES_MIN, `Add at least ${RSA_HEADLINES_MIN} headlines`)
    .max(RSA_HEADLINES_MAX, `At most ${RSA_HEADLINES_MAX} headlines`),
  descriptions: z
    .array(Description)
    .min(RSA_DESCRIPTIONS_MIN, `Add at least ${RSA_DESCRIPTIONS_MIN} descriptions`)
    .max(RSA_DESCRIPTIONS_MAX, `At most ${RSA_DESCRIPTIONS_MAX} descriptions`),
  path1: z
    .string()
    .trim()
    .max(PATH_MAX, `Paths can be at most ${PATH_MAX} characters`)
    .refine((t) => !hasBidiControl(t), `Paths ${BIDI_MESSAGE}`)
    .optional(),
  path2: z
    .string()
    .trim()
    .max(PATH_MAX, `Paths can be at most ${PATH_MAX} characters`)
    .refine((t) => !hasBidiControl(t), `Paths ${BIDI_MESSAGE}`)
    .optional()
    .describe("Needs path1"),
  finalUrl: z.url({ protocol: /^https?$/, error: "Final URL must be an http(s) URL" }).describe("An http(s) URL"),
});
const path2NeedsPath1 = (v: { path1?: string; path2?: string }) => !v.path2 || !!v.path1;
const PATH2_ERROR = { path: ["path2"], message: "Path 2 needs path 1" };

type RsaValue = { headlines: Array<{ text: string; pin?: string }>; descriptions: Array<{ text: string; pin?: string }> };
/** The gate's whole-ad rules Google enforces too: no duplicate lines, "!" in one description at most, feasible pins. */
function rsaGate(v: RsaValue, ctx: z.RefinementCtx) {
  const lint = lintRsa({
    headlines: v.headlines.map((h) => ({ text: h.text, pinnedField: h.pin })),
    descriptions: v.descriptions.map((d) => ({ text: d.text, pinnedField: d.pin })),
  });
  for (const [list, lints] of [
    ["headlines", lint.headlines],
    ["descriptions", lint.descriptions],
  ] as const) {
    lints.forEach((issues, i) => {
      const dup = issues.find((x) => x.code === "DUPLICATE");
      if (dup) ctx.addIssue({ code: "custom", path: [list, i, "text"], message: dup.message });
    });
  }
  for (const issue of lint.ad) {
    if (issue.code === "EXCLAMATION_BUDGET") ctx.addIssue({ code: "custom", path: ["descriptions"], message: issue.message });
    if (issue.code === "PIN_INFEASIBLE")
      ctx.addIssue({ code: "custom", path: [issue.message.includes("headline") ? "headlines" : "descriptions"], message: issue.message });
  }
}
export const CreateRsaInput = RsaShape.extend({ customerId: CustomerId }).refine(path2NeedsPath1, PATH2_ERROR).superRefine(rsaGate);

/** One action of a change set: `type` says which; ids are those of the account's synced data. */
export const ActionInput = z
  .discriminatedUnion("type", [
    StatusChangeInput.omit({ customerId: true })
      .extend({ type: z.literal("status") })
      .describe("Enable, pause or remove campaigns, ad groups, keywords or ads"),
    BudgetChangeInput.omit({ customerId: true })
      .extend({ type: z.literal("budget") })
      .describe("Set a campaign's daily budget"),
    BidChangeInput.omit({ customerId: true })
      .extend({ type: z.literal("bid") })
      .describe("Set max. CPC bids of keywords or ad groups (default bid)"),
    TargetCpaChangeInput.omit({ customerId: true })
      .extend({ type: z.literal("target_cpa") })
      .describe("Set an ad group's own target CPA (overriding its campaign's), or clear it with null"),
    AddKeywordsInput.omit({ customerId: true })
      .extend({ type: z.literal("add_keywords") })
      .describe("Add keywords to an ad group"),
    AddNegativesInput.omit({ customerId: true })
      .extend({ type: z.literal("add_negatives") })
      .describe("Add negative keywords to an ad group or a campaign"),
    RemoveKeywordsInput.omit({ customerId: true })
      .extend({ type: z.literal("remove_keywords") })
      .describe("Remove keywords (a revert re-creates them)"),
    RemoveNegativesInput.omit({ customerId: true })
      .extend({ type: z.literal("remove_negatives") })
      .describe("Remove negative keywords of ad groups or campaigns (a revert re-creates them)"),
    RsaShape.extend({ type: z.literal("create_rsa") })
      .refine(path2NeedsPath1, PATH2_ERROR)
      .superRefine(rsaGate)
      .describe("Create a responsive search ad (enabled) in an ad group"),
  ])
  .describe("One requested change; `type` says which. Ids are those of the account's synced data.");
export type Action = z.input<typeof ActionInput>;
export type ActionType = Action["type"];

const Actions = items(ActionInput, "Nothing to change");
export const BulkInput = z.object({ customerId: CustomerId, actions: Actions });

/** The JSON API's POST /accounts/{customerId}/change-sets body. */
export const ProposeChangeSetBody = z.object({
  actions: Actions,
  title: z
    .string({ error: "Title must be text" })
    .trim()
    .min(1, "Title cannot be empty")
    .max(200, "Title can be at most 200 characters")
    .refine((t) => !hasBidiControl(t), `Title ${BIDI_MESSAGE}`)
    .optional()
    .describe("Defaults to a description of the changes"),
  atomic: z
    .boolean({ error: "atomic must be true or false" })
    .optional()
    .describe("true (the default): every change applies or none does; false: each on its own"),
});

/** The JSON API's POST /change-sets/{id}/apply body (optional: an empty body is {}). */
export const ApplyOptionsBody = z.object({
  confirmLargeMoves: z
    .boolean({ error: "confirmLargeMoves must be true or false" })
    .optional()
    .describe("Required (true) when a budget or bid moves by more than the server's CHANGE_CONFIRM_PERCENT (changeSet.needsConfirmation)"),
  confirmRemovals: z
    .boolean({ error: "confirmRemovals must be true or false" })
    .optional()
    .describe("Required (true) when the set removes campaigns, ad groups or ads (changeSet.removals > 0): Google cannot undo a removal"),
});

/** What the review page asks a person to type before a removal that cannot be undone is applied. */
export const REMOVAL_CONFIRM_WORD = "REMOVE";
