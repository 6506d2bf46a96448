import { randomUUID } from "node:crypto";
import { data, redirect } from "react-router";
import { estimateStrength, lintRsa } from "~/lib/ad-lint";
import {
  AD_GROUP_PARAM,
  AdCopyRequestSchema,
  parseBrief,
  type AdCopyRequest,
  type BriefValues,
  type GeneratorErrorAt,
  type GeneratorForm,
} from "~/lib/ad-generator-form";
import { DESCRIPTION_PINS, HEADLINE_PINS, RSA_DESCRIPTIONS_MAX, RSA_HEADLINES_MAX } from "~/lib/ad-limits";
import { TONES, generateTemplateAds, type GeneratedAd } from "~/lib/ad-templates";
import { BUSINESS_TYPE_LABEL, classifyBrief, isBusinessType, type BusinessType, type BusinessTypeGuess } from "~/lib/business-type";
import type { GeneratedRsa } from "~/lib/rsa-templates";
import { accountOfAdGroup, adGroupChoices, adGroupContext, type AdGroupChoice, type AdGroupContext } from "./ai/ad-copy-context.server";
import { businessTypeOf } from "./ai/business-signals.server";
import { describeModel, MODEL_SETUP_HINT } from "./ai/model.server";
import { withMeter } from "./ai/metered.server";
import { claimSourcesOf, generateAdCopy, regenerateLine, type AdCopyBrief, type AdCopyLine } from "./ai/ad-copy.server";
import { proposeCreateRsa } from "./changes/propose.server";
import { validateQuietly } from "./changes/review.server";
import type { User } from "./db/schema";
import { DomainError, LimitReachedError, NotFoundError } from "./domain-errors.server";
import { readJsonBody, toHttpError } from "./http/errors.server";
import { activeAccountOf, requireAccountOf } from "./account-access.server";
import { redirectWithToast } from "./toast.server";

// The ad generator's loader, actions and JSON API: the brief → the pipeline (model or
// templates) → an RSA every line of which passed the gate → "Use in campaign" as a change set
// through the same propose → validateOnly → review pipeline as every other change. A
// generation or a regenerated line is one use of the metered door (ai/metered.server.ts).

const modelConfigured = () => describeModel().configured;

export type { BriefValues };

/** The kind of business an ad was written for, and how that was decided. */
export interface BusinessChoice {
  type: BusinessType;
  label: string;
  /** true: the person chose it; false: read from the account (or the brief), see basis. */
  chosen: boolean;
  basis: string[];
}

export interface RsaResult {
  /** Changes with every answer from the server, so the screen resets its edits to the new lines. */
  id: string;
  headlines: AdCopyLine[];
  descriptions: AdCopyLine[];
  path1: string;
  path2: string;
  strength: { score: number; band: string; reasons: string[] };
  source: "model" | "templates";
  notices: string[];
  /** What a stated claim may come from, so the screen can flag a typed one nobody gave. */
  claimSources: string[];
  business: BusinessChoice;
}

export interface GeneratorActionData {
  values: BriefValues;
  errors: Record<string, string>;
  formError?: string;
  /** Which button's post the formError answers, so it shows next to that button. */
  errorAt?: GeneratorErrorAt;
  result?: RsaResult;
  /** The seed's three cards (no account, no model) for a post without JavaScript. */
  seedAds?: GeneratedAd[];
}

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

function briefValues(form: FormData | URLSearchParams): BriefValues {
  const get = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, 5000) : "";
  };
  return {
    product: get("product"),
    targetAudience: get("targetAudience"),
    tone: (TONES as readonly string[]).includes(get("tone")) ? get("tone") : "professional",
    businessType: isBusinessType(get("businessType")) ? get("businessType") : "",
    adGroupId: get("adGroupId"),
    keywords: get("keywords"),
    facts: get("facts"),
    finalUrl: get("finalUrl"),
    offers: form
      .getAll("offer")
      .filter((v): v is string => typeof v === "string")
      .slice(0, 50)
      .map((v) => v.slice(0, 300)),
  };
}

/** The kind of business: the person's choice, else what the account shows, else what the brief says. */
async function businessFor(chosen: string | undefined, customerId: string | null, briefTexts: string[]): Promise<BusinessChoice> {
  if (isBusinessType(chosen)) return { type: chosen, label: BUSINESS_TYPE_LABEL[chosen], chosen: true, basis: ["You chose it."] };
  const found = customerId ? await businessTypeOf(customerId) : classifyBrief(briefTexts);
  return { type: found.type, label: BUSINESS_TYPE_LABEL[found.type], chosen: false, basis: found.basis };
}

/** The old ads' offers ticked as still true; one that isn't among the ad group's is refused, never used. */
function confirmedOffers(values: BriefValues, ctx: AdGroupContext | null): { ok: true; offers: string[] } | { ok: false; error: string } {
  const known = new Set(ctx?.offers ?? []);
  const unknown = values.offers.find((o) => !known.has(o));
  if (unknown !== undefined) {
    return { ok: false, error: `“${unknown.slice(0, 60)}” isn't in this ad group's ads; write it under facts if it is true.` };
  }
  return { ok: true, offers: [...new Set(values.offers)] };
}

// ---- the page

/**
 * The page's data. `?adGroupId=<id>` (AD_GROUP_PARAM) chooses an ad group of the active
 * account and prefills its top keywords and a final URL from its ads; the other brief fields
 * may ride along in the query (the no-JavaScript "Load" button submits the form as GET).
 */
export async function adGeneratorPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  const model = modelConfigured();
  const values = briefValues(url.searchParams);
  if (!account) {
    return {
      mode: model ? ("rsa" as const) : ("seed" as const),
      modelConfigured: model,
      account: null,
      adGroups: [] as AdGroupChoice[],
      values,
      notice: null as string | null,
      modelHint: MODEL_SETUP_HINT,
      business: null as BusinessTypeGuess | null,
      pastOffers: [] as string[],
    };
  }
  const [adGroups, business] = await Promise.all([adGroupChoices(account.customerId), businessTypeOf(account.customerId)]);
  const wanted = url.searchParams.get(AD_GROUP_PARAM) ?? "";
  const ctx = wanted ? await adGroupContext(account.customerId, wanted) : null;
  let notice: string | null = null;
  if (wanted && !ctx) notice = `Ad group ${wanted.slice(0, 30)} isn't a search ad group of ${account.name}; choose one below.`;
  if (ctx) {
    values.adGroupId = ctx.adGroup.id;
    values.keywords = ctx.keywords.join("\n");
    values.finalUrl = ctx.finalUrl;
    if (!values.product.trim()) values.product = ctx.adGroup.name;
  } else {
    values.adGroupId = "";
  }
  const pastOffers = ctx?.offers ?? [];
  values.offers = values.offers.filter((o) => pastOffers.includes(o));
  return {
    mode: "rsa" as const,
    modelConfigured: model,
    account: { customerId: account.customerId, name: account.name },
    adGroups,
    values,
    notice,
    modelHint: MODEL_SETUP_HINT,
    business,
    pastOffers,
  };
}

type Parsed = { ok: true; form: GeneratorForm; values: BriefValues } | { ok: false; values: BriefValues; errors: Record<string, string> };

/** The brief as posted; `finalUrl` is checked only where it is used (generate; use checks its own). */
function readBrief(formData: FormData, checkFinalUrl: boolean): Parsed {
  const values = briefValues(formData);
  const parsed = parseBrief((name) => str(formData, name), checkFinalUrl);
  return parsed.ok ? { ok: true, form: parsed.form, values } : { ok: false, values, errors: parsed.errors };
}

/** The ad group's grounding, or a field error when the id isn't one of the account's search ad groups. */
async function groundingFor(customerId: string | null, adGroupId: string | undefined): Promise<AdGroupContext | null | "unknown"> {
  if (!adGroupId) return null;
  if (!customerId) return "unknown";
  return (await adGroupContext(customerId, adGroupId)) ?? "unknown";
}

function resultOf(ad: GeneratedRsa & { source: "model" | "templates"; notices: string[] }, brief: AdCopyBrief, business: BusinessChoice): RsaResult {
  const strength = estimateStrength(ad, brief.keywords);
  return {
    id: randomUUID(),
    headlines: ad.headlines,
    descriptions: ad.descriptions,
    path1: ad.path1,
    path2: ad.path2,
    strength,
    source: ad.source,
    notices: ad.notices,
    claimSources: claimSourcesOf(brief),
    business,
  };
}

/** The lines as posted by the result form (empty slots dropped, pins kept with their line). */
function postedAd(formData: FormData): GeneratedRsa & { slots: { headline: number[]; description: number[] } } {
  const lines = (name: "headline" | "description", max: number, pins: readonly string[]) => {
    const texts = formData
      .getAll(name)
      .filter((v): v is string => typeof v === "string")
      .slice(0, max + 5);
    const pinValues = formData.getAll(`${name}Pin`).filter((v): v is string => typeof v === "string");
    const out: AdCopyLine[] = [];
    const slots: number[] = [];
    texts.forEach((text, i) => {
      if (text.trim() === "") return;
      const pin = pinValues[i];
      out.push(pin && pins.includes(pin) ? { text, pinnedField: pin } : { text });
      slots.push(i);
    });
    return { out, slots };
  };
  const h = lines("headline", RSA_HEADLINES_MAX, HEADLINE_PINS);
  const d = lines("description", RSA_DESCRIPTIONS_MAX, DESCRIPTION_PINS);
  return {
    headlines: h.out,
    descriptions: d.out,
    path1: str(formData, "path1").trim(),
    path2: str(formData, "path2").trim(),
    slots: { headline: h.slots, description: d.slots },
  };
}

/** The page's form posts: generate, regenerate one line, check the lines (no JavaScript), use in campaign. */
export async function adGeneratorAction(user: User, formData: FormData) {
  const intent = str(formData, "regenerate") ? "regenerate" : str(formData, "intent") || "generate";
  const account = await activeAccountOf(user);
  const model = modelConfigured();
  const parsed = readBrief(formData, intent === "generate");
  if (!parsed.ok) return data<GeneratorActionData>({ values: parsed.values, errors: parsed.errors }, { status: 400 });
  const { form, values } = parsed;

  // The seed, unchanged: no account and no model → three template cards.
  if (!account && !model) return data<GeneratorActionData>({ values, errors: {}, seedAds: generateTemplateAds(form) });

  const ctx = await groundingFor(account?.customerId ?? null, form.adGroupId);
  if (ctx === "unknown") return data<GeneratorActionData>({ values, errors: { adGroupId: "Choose one of this account's search ad groups" } }, { status: 400 });
  const offers = confirmedOffers(values, ctx);
  if (!offers.ok) return data<GeneratorActionData>({ values, errors: { offer: offers.error } }, { status: 400 });
  const business = await businessFor(form.businessType, account?.customerId ?? null, [form.product, form.targetAudience, ...form.keywords]);
  const brief: AdCopyBrief = {
    product: form.product,
    audience: form.targetAudience,
    tone: form.tone,
    keywords: form.keywords,
    // An old ad's offer the person confirmed is a fact like any they typed.
    facts: [...form.facts, ...offers.offers],
    businessType: business.type,
  };
  const grounding = { existing: ctx?.existing ?? [] };

  if (intent === "generate") {
    try {
      const ad = await withMeter(user.id, "ad_copy", ({ model, notice }) => generateAdCopy(brief, grounding, { model, notice }));
      return data<GeneratorActionData>({ values, errors: {}, result: resultOf(ad, brief, business) });
    } catch (error) {
      // The day's limit (429) or a brief no ad can be written from (400): said under Generate.
      if (!(error instanceof DomainError)) throw error;
      const failure = toHttpError(error)!;
      return data<GeneratorActionData>({ values, errors: {}, formError: failure.detail, errorAt: "generate" }, { status: failure.status });
    }
  }

  const posted = postedAd(formData);
  const sameAd = (notices: string[], source: "model" | "templates") => resultOf({ ...posted, source, notices }, brief, business);
  const postedSource = str(formData, "source") === "model" ? "model" : "templates";

  if (intent === "regenerate") {
    const [kind, at] = str(formData, "regenerate").split(".");
    const index = Number(at);
    const list = kind === "headline" ? posted.headlines : kind === "description" ? posted.descriptions : null;
    const slot = list ? posted.slots[kind as "headline" | "description"].indexOf(index) : -1;
    const errorAt = `regenerate:${str(formData, "regenerate").slice(0, 20)}` as const;
    if (!list || slot < 0)
      return data<GeneratorActionData>(
        { values, errors: {}, formError: "That line is empty; type a line or generate again.", errorAt, result: sameAd([], postedSource) },
        { status: 400 },
      );
    let next: Awaited<ReturnType<typeof regenerateLine>>;
    try {
      next = await withMeter(user.id, "ad_copy", ({ model, notice }) =>
        regenerateLine(brief, grounding, posted, kind as "headline" | "description", slot, { model, notice }),
      );
    } catch (error) {
      if (error instanceof LimitReachedError)
        return data<GeneratorActionData>({ values, errors: {}, formError: error.message, errorAt, result: sameAd([], postedSource) }, { status: 429 });
      throw error;
    }
    if (!next)
      return data<GeneratorActionData>({
        values,
        errors: {},
        formError: "No other line passes the checks; edit this one instead.",
        errorAt,
        result: sameAd([], postedSource),
      });
    list[slot] = { ...list[slot], text: next.text };
    return data<GeneratorActionData>({ values, errors: {}, result: sameAd([], postedSource) });
  }

  if (intent === "check") return data<GeneratorActionData>({ values, errors: {}, result: sameAd([], postedSource) });

  if (intent === "use") {
    if (!account)
      return data<GeneratorActionData>(
        { values, errors: {}, formError: "Connect a Google Ads account first", errorAt: "use", result: sameAd([], postedSource) },
        { status: 409 },
      );
    const target = str(formData, "targetAdGroupId");
    const errors: Record<string, string> = {};
    // The gate first: nothing that fails it reaches a change set.
    const lint = lintRsa(posted);
    const slotOf = (kind: "headline" | "description", i: number) => posted.slots[kind][i];
    lint.headlines.forEach((issues, i) => {
      const e = issues.find((x) => x.severity === "error");
      if (e) errors[`headline.${slotOf("headline", i)}`] ??= e.message;
    });
    lint.descriptions.forEach((issues, i) => {
      const e = issues.find((x) => x.severity === "error");
      if (e) errors[`description.${slotOf("description", i)}`] ??= e.message;
    });
    for (const [field, issues] of [
      ["path1", lint.path1],
      ["path2", lint.path2],
    ] as const) {
      const e = issues.find((x) => x.severity === "error");
      if (e) errors[field] = e.message;
    }
    const adLevel = lint.ad.find((x) => x.severity === "error");
    if (!/^\d{1,19}$/.test(target) || !(await adGroupContext(account.customerId, target))) errors.targetAdGroupId = "Choose the ad group this ad goes into";
    if (!values.finalUrl.trim()) errors.finalUrl = "Add the final URL (the landing page) before using the ad";
    else if (!/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(values.finalUrl.trim()))
      errors.finalUrl = "Final URL must be an http(s) address, like https://example.com/boots";
    if (Object.keys(errors).length > 0 || adLevel) {
      return data<GeneratorActionData>(
        { values, errors, formError: adLevel?.message ?? "Fix the marked lines first.", errorAt: "use", result: sameAd([], postedSource) },
        { status: 400 },
      );
    }
    try {
      const id = await proposeCreateRsa(
        user.id,
        {
          customerId: account.customerId,
          adGroupId: target,
          headlines: posted.headlines.map((h) => (h.pinnedField ? { text: h.text, pin: h.pinnedField as "HEADLINE_1" } : { text: h.text })),
          descriptions: posted.descriptions.map((d) => (d.pinnedField ? { text: d.text, pin: d.pinnedField as "DESCRIPTION_1" } : { text: d.text })),
          path1: posted.path1 || undefined,
          path2: posted.path2 || undefined,
          finalUrl: values.finalUrl.trim(),
        },
        { source: "user", origin: "ad_generator", sourceDetail: `Ad generator (${postedSource})` },
      );
      const problem = await validateQuietly(user.id, id);
      return problem ? redirectWithToast(`/changes/${id}`, { type: "error", message: problem }) : redirect(`/changes/${id}`);
    } catch (error) {
      const failure = toHttpError(error);
      if (!failure) throw error;
      const fieldErrors: Record<string, string> = {};
      for (const [k, v] of Object.entries(failure.fieldErrors ?? {})) {
        const m = /^(headlines|descriptions)\.(\d+)/.exec(k);
        if (m) {
          const kind = m[1] === "headlines" ? "headline" : "description";
          fieldErrors[`${kind}.${slotOf(kind, Number(m[2]))}`] ??= v;
        } else fieldErrors[k === "adGroupId" ? "targetAdGroupId" : k] ??= v;
      }
      return data<GeneratorActionData>(
        { values, errors: fieldErrors, formError: failure.detail, errorAt: "use", result: sameAd([], postedSource) },
        { status: failure.status },
      );
    }
  }
  return data<GeneratorActionData>({ values, errors: {}, formError: "Unknown action" }, { status: 400 });
}

// ---- the JSON API

/** POST /api/v1/ad-copy: the same pipeline through the same door; another user's ad group (or account) is a 404. */
export async function adCopyForApi(userId: string, request: Request) {
  const body: AdCopyRequest = await readJsonBody(request, AdCopyRequestSchema);
  let ctx: AdGroupContext | null = null;
  let customerId: string | null = null;
  if (body.customerId) customerId = (await requireAccountOf(userId, body.customerId)).customerId;
  if (body.adGroupId) {
    customerId = await accountOfAdGroup(userId, body.adGroupId, body.customerId);
    ctx = customerId ? await adGroupContext(customerId, body.adGroupId) : null;
    if (!ctx)
      throw new NotFoundError("No such ad group among your accounts' search ad groups", {
        adGroupId: "No such ad group among your accounts' search ad groups",
      });
  }
  const keywords = body.keywords ?? ctx?.keywords ?? [];
  const facts = body.facts ?? [];
  const business = await businessFor(body.businessType, customerId, [body.product, body.audience, ...keywords]);
  const brief: AdCopyBrief = { product: body.product, audience: body.audience, tone: body.tone, keywords, facts, businessType: business.type };
  const ad = await withMeter(userId, "ad_copy", ({ model, notice }) =>
    generateAdCopy(brief, { existing: ctx?.existing ?? [] }, { model, notice, abortSignal: request.signal }),
  );
  return {
    headlines: ad.headlines,
    descriptions: ad.descriptions,
    path1: ad.path1,
    path2: ad.path2,
    strength: { score: ad.strength.score, reasons: ad.strength.reasons },
    source: ad.source,
    notices: ad.notices,
    businessType: { type: business.type, chosen: business.chosen, basis: business.basis },
    unusedOffers: (ctx?.offers ?? []).filter((o) => !facts.includes(o)),
  };
}
