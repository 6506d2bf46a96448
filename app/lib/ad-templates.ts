import { z } from "zod";

// Google's responsive search ad limits (characters).
export const HEADLINE_MAX = 30;
export const DESCRIPTION_MAX = 90;
export const PATH_MAX = 15;

export const TONES = ["professional", "casual", "urgent", "friendly"] as const;
/** The seed's simulated generation time. */
export const GENERATION_DELAY_MS = 2000;
export const GENERATED_AD_COUNT = 3;

export const AdFormSchema = z.object({
  product: z.string().trim().min(1, "Product/Service is required").max(200, "Keep it under 200 characters"),
  targetAudience: z.string().trim().min(1, "Target Audience is required").max(200, "Keep it under 200 characters"),
  tone: z.enum(TONES).default("professional"),
});
export type AdForm = z.infer<typeof AdFormSchema>;

export interface GeneratedAd {
  headline: string;
  description: string;
  cta: string;
}

/** Shortens at a word boundary so the text stays within Google's limit without a cut word. */
export function fitTo(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max + 1);
  const lastSpace = cut.lastIndexOf(" ");
  const shortened = (lastSpace > max / 2 ? cut.slice(0, lastSpace) : clean.slice(0, max)).replace(/[\s,;:–—-]+$/, "");
  return shortened;
}

// Calls to action and closers that fit a product or a service alike (no "Shop", no "Request a Quote"),
// and promise nothing the user did not type (no quality, offer or scarcity claims).
const TONE_COPY: Record<AdForm["tone"], { ctas: [string, string, string]; closers: [string, string, string] }> = {
  professional: {
    ctas: ["Learn More", "Get Started", "See the Details"],
    closers: ["Compare the options today.", "See how it fits your needs.", "Get started today."],
  },
  casual: {
    ctas: ["Check It Out", "Take a Look", "See What's New"],
    closers: ["Take a look today.", "Easy to find, made for you.", "Come take a look!"],
  },
  urgent: {
    ctas: ["Act Now", "Start Today", "Don't Wait"],
    closers: ["Act now and get started today!", "Don't wait. Start today!", "Take the first step today!"],
  },
  friendly: {
    ctas: ["Discover More", "Get in Touch", "Say Hello"],
    closers: ["We're here to help every step.", "Made with care, just for you.", "We'd love to hear from you!"],
  },
};

function titleCase(text: string) {
  return text.replace(/\b\w/g, (c) => c.toUpperCase());
}

/**
 * The seed's template generator: 3 ads from the product and audience text, within Google's
 * limits. Its lines make no claim (no price, offer or superlative) the user did not type.
 */
export function generateTemplateAds(form: AdForm): GeneratedAd[] {
  const product = titleCase(form.product.trim());
  const audience = form.targetAudience.trim();
  const { ctas, closers } = TONE_COPY[form.tone];
  const candidates: Array<[string[], string]> = [
    [[`${product} for ${titleCase(audience)}`, product], `Discover ${product.toLowerCase()} designed for ${audience}. ${closers[0]}`],
    [[`Explore ${product}`, product], `Our ${product.toLowerCase()}, for ${audience}. ${closers[1]}`],
    [[`Find ${product} Today`, `Find ${product}`, product], `The right ${product.toLowerCase()} for ${audience}. ${closers[2]}`],
  ];
  return candidates.map(([headlines, description], i) => ({
    headline: fitTo(headlines.find((h) => h.length <= HEADLINE_MAX) ?? headlines[headlines.length - 1], HEADLINE_MAX),
    description: fitTo(description, DESCRIPTION_MAX),
    cta: ctas[i],
  }));
}
