import { z } from "zod";
import { AdCopyRequestSchema } from "~/lib/ad-generator-form";
import { DESCRIPTION_MAX, HEADLINE_MAX, PATH_MAX } from "~/lib/ad-limits";
import { BUSINESS_TYPES } from "~/lib/business-type";
import type { adCopyForApi } from "../ad-generator.server";
import { defineArea, errorResponse, NOT_JSON, ok, TOO_MANY, type Assert, type SameFields } from "./registry.server";

// /ad-copy: a complete responsive search ad, every line through the gate (app/lib/ad-lint.ts).

const line = (max: number, pins: string[]) =>
  z.object({
    text: z.string().describe(`At most ${max} width units (a double-width character counts 2); passes Google's editorial rules`),
    pinnedField: z.enum(pins).optional(),
  });

export const AdCopy = z.object({
  headlines: z.array(line(HEADLINE_MAX, ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"])).describe("Up to 15 (3 at least), no two alike"),
  descriptions: z.array(line(DESCRIPTION_MAX, ["DESCRIPTION_1", "DESCRIPTION_2"])).describe("Up to 4 (2 at least), no two alike"),
  path1: z.string().describe(`Display path 1, at most ${PATH_MAX}; may be empty`),
  path2: z.string().describe(`Display path 2, at most ${PATH_MAX}; only with path1; may be empty`),
  strength: z
    .object({ score: z.int().min(0).max(100), reasons: z.array(z.string()) })
    .describe("Our estimate from Google's published factors (count, uniqueness, keywords, pins, lengths); not Google's Ad Strength"),
  source: z.enum(["model", "templates"]).describe("model: written by the configured AI model (AI_MODEL); templates: no model, or its lines fell short"),
  notices: z.array(z.string()).describe("E.g. that no model is configured (or why it was not used), or how many lines templates filled in"),
  businessType: z
    .object({
      type: z.enum(BUSINESS_TYPES),
      chosen: z.boolean().describe("true: the request's businessType; false: read from the account's data (or the brief without an account)"),
      basis: z.array(z.string()).describe("What the choice rests on, in words"),
    })
    .describe("Whose customers the ad speaks to: chooses the calls to action (shop and order, request a quote, book a visit)"),
  unusedOffers: z
    .array(z.string())
    .describe("Lines of the ad group's existing ads that state an offer, price or number and were not used because facts doesn't repeat them"),
});

export type AdCopyFieldsMatch = Assert<SameFields<Awaited<ReturnType<typeof adCopyForApi>>, z.output<typeof AdCopy>>>;

export default defineArea({
  tag: "ad-copy",
  description: "Responsive search ads that pass Google's limits and editorial rules",
  schemas: { AdCopyRequest: AdCopyRequestSchema, AdCopy },
  paths: {
    "/ad-copy": {
      post: {
        summary: "Write a responsive search ad: up to 15 headlines and 4 descriptions, paths, an estimated strength",
        description:
          "With adGroupId (and optionally customerId), grounded in that ad group: its BEST/GOOD assets are style examples, LOW ones counter-examples, and its top keywords are used when keywords is not given. Every number, price, offer or superlative comes from facts or the inputs; an existing ad's offer only when facts repeats it (see unusedOffers). The calls to action follow businessType, read from the account when not given. Templates write no generic filler beyond one call to action, so they may give fewer than 15 headlines (a notice says so). Nothing is sent to Google: to use the ad, propose a create_rsa change set. A generation written by the model counts toward AI_DAILY_AD_COPY_LIMIT; with an unconfirmed address, or once the install's AI_MONTHLY_TOKEN_BUDGET is spent, templates write the ad and notices say why.",
        body: AdCopyRequestSchema,
        responses: {
          200: ok("The ad; every line passed the gate", AdCopy),
          400: { ...NOT_JSON, description: "Body is not JSON, or a field is invalid (errors keyed by field)" },
          404: errorResponse("No such ad group or account among the caller's"),
          415: errorResponse("Content-Type is not application/json"),
          429: { ...TOO_MANY, description: "AI_DAILY_AD_COPY_LIMIT reached for today (UTC), or two AI requests of the caller's already running" },
        },
      },
    },
  },
});
