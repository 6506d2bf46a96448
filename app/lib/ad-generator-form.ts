import { z } from "zod";
import { KEYWORD_MAX_CHARS } from "./ad-limits";
import { TONES } from "./ad-templates";
import { BUSINESS_TYPES } from "./business-type";
import { textError } from "./text-error";

// The ad generator's inputs, shared by the screen (form fields, one message per field), the
// JSON API (POST /api/v1/ad-copy) and the tests. Browser-safe.

/** `/ad-generator?adGroupId=<id>` opens the generator with that ad group of the active account chosen. */
export const AD_GROUP_PARAM = "adGroupId";
export const MAX_KEYWORDS = 20;
export const MAX_FACTS = 20;
export const FACT_MAX_CHARS = 150;

const Text = (label: string) => z.string(textError(label)).trim().min(1, `${label} is required`).max(200, "Keep it under 200 characters");
const FinalUrl = z
  .string({ error: "Final URL must be text" })
  .trim()
  .max(2048, "Final URL is too long")
  .refine((v) => v === "" || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v), "Final URL must be an http(s) address, like https://example.com/boots");
const AdGroupId = z.string({ error: "Choose an ad group" }).regex(/^\d{1,19}$/, "Choose an ad group");
const CustomerId = z.string({ error: "customerId must be text" }).regex(/^\d{10}$/, "Customer ID must be 10 digits");

const Keywords = z
  .array(
    z
      .string({ error: "Each keyword must be text" })
      .trim()
      .min(1, "A keyword can't be empty")
      .max(KEYWORD_MAX_CHARS, `Keywords can be at most ${KEYWORD_MAX_CHARS} characters`),
    {
      error: "Keywords must be a list of texts",
    },
  )
  .max(MAX_KEYWORDS, `At most ${MAX_KEYWORDS} keywords`);
const Facts = z
  .array(
    z
      .string({ error: "Each fact must be text" })
      .trim()
      .min(1, "A fact can't be empty")
      .max(FACT_MAX_CHARS, `Keep each fact under ${FACT_MAX_CHARS} characters`),
    {
      error: "Facts must be a list of texts",
    },
  )
  .max(MAX_FACTS, `At most ${MAX_FACTS} facts`);

/** One item per non-empty line. */
export const linesOf = (raw: string) =>
  raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The brief as the screen's form holds it (every field as typed; `offers` are the old ads' offers ticked as still true). */
export interface BriefValues {
  product: string;
  targetAudience: string;
  tone: string;
  /** "" = as detected from the account (or the brief). */
  businessType: string;
  adGroupId: string;
  keywords: string;
  facts: string;
  finalUrl: string;
  offers: string[];
}

/** Which button of the ad generator a message answers: Generate, Check lines, Use in campaign, or one line's Regenerate ("regenerate:headline.3"). */
export type GeneratorErrorAt = "generate" | "check" | "use" | `regenerate:${string}`;

const BusinessTypeField = z.enum(BUSINESS_TYPES, { error: "Choose a kind of business from the list" });

/**
 * The screen's form: the seed's fields (Product/Service, Target Audience, Tone; only responsive
 * search ads are made, so no ad type) plus the kind of business, the ad group, keywords and
 * facts (one per line) and the final URL.
 */
export const GeneratorFormSchema = z.object({
  product: Text("Product/Service"),
  targetAudience: Text("Target Audience"),
  tone: z.enum(TONES, { error: "Choose a tone from the list" }).default("professional"),
  businessType: BusinessTypeField.optional(),
  adGroupId: z.preprocess((v) => (v === "" ? undefined : v), AdGroupId.optional()),
  keywords: z.string().default("").transform(linesOf).pipe(Keywords),
  facts: z.string().default("").transform(linesOf).pipe(Facts),
  finalUrl: FinalUrl.default(""),
});
export type GeneratorForm = z.output<typeof GeneratorFormSchema>;

/**
 * The brief as the form posts it, read the same way by the action and by the
 * browser's check: an empty tone or ad type means the default, and the final
 * URL is checked only where it is used (`checkFinalUrl`: generate).
 */
export function parseBrief(get: (name: string) => string, checkFinalUrl: boolean) {
  const parsed = GeneratorFormSchema.safeParse({
    product: get("product"),
    targetAudience: get("targetAudience"),
    tone: get("tone") || undefined,
    businessType: get("businessType") || undefined,
    adGroupId: get("adGroupId"),
    keywords: get("keywords"),
    facts: get("facts"),
    finalUrl: checkFinalUrl ? get("finalUrl") : "",
  });
  if (parsed.success) return { ok: true as const, form: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "_");
    // A bad line of a list names the line.
    const line = typeof issue.path[1] === "number" ? `Line ${issue.path[1] + 1}: ` : "";
    errors[field] ??= line + issue.message;
  }
  return { ok: false as const, errors };
}

/** POST /api/v1/ad-copy, field names as the API documents them. */
export const AdCopyRequestSchema = z.object({
  product: Text("product"),
  audience: Text("audience"),
  tone: z.enum(TONES, { error: `tone must be one of ${TONES.join(", ")}` }),
  businessType: z
    .enum(BUSINESS_TYPES, { error: `businessType must be one of ${BUSINESS_TYPES.join(", ")}` })
    .optional()
    .describe("Whose customers the ad speaks to; when left out, read from the account's own data (or from the brief without one)"),
  finalUrl: FinalUrl.optional(),
  adGroupId: AdGroupId.optional(),
  customerId: CustomerId.optional(),
  keywords: Keywords.optional(),
  facts: Facts.optional().describe(
    "What the ad may state (offers, prices, shipping, guarantees). Offers and prices in the ad group's existing ads are used only when repeated here",
  ),
});
export type AdCopyRequest = z.output<typeof AdCopyRequestSchema>;
