import { z } from "zod";
import { KEYWORD_MAX_CHARS } from "./ad-limits";
import { AD_TYPES, TONES } from "./ad-templates";
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

/** The screen's form: the seed's four fields plus the ad group, keywords and facts (one per line) and the final URL. */
export const GeneratorFormSchema = z.object({
  product: Text("Product/Service"),
  targetAudience: Text("Target Audience"),
  tone: z.enum(TONES, { error: "Choose a tone from the list" }).default("professional"),
  adType: z.enum(AD_TYPES, { error: "Choose an ad type from the list" }).default("search"),
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
    adType: get("adType") || undefined,
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
  finalUrl: FinalUrl.optional(),
  adGroupId: AdGroupId.optional(),
  customerId: CustomerId.optional(),
  keywords: Keywords.optional(),
  facts: Facts.optional(),
});
export type AdCopyRequest = z.output<typeof AdCopyRequestSchema>;
