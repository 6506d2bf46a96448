import { RSA_DESCRIPTIONS_MAX, RSA_HEADLINES_MAX } from "~/lib/ad-limits";
import type { Action } from "~/lib/change-actions";
import { AD_GROUP_REQUIRED, parseAmount, parseKeywordLines } from "~/lib/change-form-schemas";
import { DomainError, InvalidError } from "../domain-errors.server";
import { userFacingError } from "../http/errors.server";
import {
  proposeAddKeywords,
  proposeAddNegatives,
  proposeBidChange,
  proposeBudgetChange,
  proposeBulk,
  proposeCreateRsa,
  proposeStatusChange,
} from "./propose.server";

// The screens' forms (which work without JavaScript) → the propose services.
// Field names here are the forms' own; errors come back keyed by them so each
// message can sit next to its field.

export const CHANGE_INTENTS = [
  "pause",
  "enable",
  "remove",
  "status",
  "budget",
  "bid",
  "add_keywords",
  "add_negatives",
  "create_rsa",
  "term_keywords",
  "term_negatives",
] as const;
export type ChangeIntent = (typeof CHANGE_INTENTS)[number];

export type ProposeFormResult =
  { ok: true; changeSetId: string } | { ok: false; status: number; intent: string; formError: string; errors: Record<string, string> };

const STATUS_OF: Record<string, string> = { pause: "PAUSED", enable: "ENABLED", remove: "REMOVED" };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};
const all = (form: FormData, name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");

// The form-reading rules are shared with the browser (app/lib/change-form-schemas.ts).
export { parseAmount, parseKeywordLines };

/** "adGroupId~search term" from the search-terms table. */
function parseTerms(values: string[]) {
  return values.flatMap((v) => {
    const i = v.indexOf("~");
    return i > 0 && /^\d+$/.test(v.slice(0, i)) ? [{ adGroupId: v.slice(0, i), text: v.slice(i + 1) }] : [];
  });
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) out.set(key(it), [...(out.get(key(it)) ?? []), it]);
  return out;
}

/** A service field path ("keywords.3.text") → the form field it belongs to, and a message that says which line. */
function formField(intent: string, path: string, message: string, lines: string[]): [string, string] {
  const parts = path.split(".");
  const line = (i: string) => {
    const n = Number(i);
    return Number.isInteger(n) && lines[n] !== undefined ? `Line ${n + 1} (“${lines[n]}”): ${message}` : message;
  };
  switch (parts[0]) {
    case "ids":
      return ["id", message];
    case "items":
      return parts[2] === "cpc" ? ["cpc", message] : ["id", message];
    case "keywords":
      if (parts[2] === "matchType") return ["matchType", message];
      if (parts[2] === "cpc") return ["cpc", message];
      return [intent.startsWith("term_") ? "term" : "keywords", parts[1] ? line(parts[1]) : message];
    case "headlines":
      return parts[1] ? [`headline.${parts[1]}`, message] : ["headlines", message];
    case "descriptions":
      return parts[1] ? [`description.${parts[1]}`, message] : ["descriptions", message];
    case "actions":
      // Bulk from the search-terms table: actions.N.keywords.M.text etc.
      return parts[2] === "keywords" ? ["term", message] : formField(intent, parts.slice(2).join("."), message, []);
    default:
      return [parts[0] || "_", message];
  }
}

/**
 * Turns one submitted form into a proposed change set. Bad input changes
 * nothing and comes back as messages keyed by the form's field names.
 */
export async function proposeFromForm(userId: string, customerId: string, form: FormData): Promise<ProposeFormResult> {
  const intent = text(form, "intent");
  let lines: string[] = [];
  try {
    let id: string;
    switch (intent) {
      case "pause":
      case "enable":
      case "remove":
      case "status": {
        // The bulk bars' buttons say what they do; "status" takes it from a field.
        const status = intent === "status" ? text(form, "status") : STATUS_OF[intent];
        id = await proposeStatusChange(userId, { customerId, kind: text(form, "kind") as "campaign", status: status as "PAUSED", ids: all(form, "id") });
        break;
      }
      case "budget":
        id = await proposeBudgetChange(userId, { customerId, campaignId: text(form, "campaignId"), amount: parseAmount(text(form, "amount")) as number });
        break;
      case "bid": {
        const cpc = parseAmount(text(form, "cpc")) as number;
        id = await proposeBidChange(userId, { customerId, kind: text(form, "kind") as "keyword", items: all(form, "id").map((i) => ({ id: i, cpc })) });
        break;
      }
      case "add_keywords": {
        // The ad group is an explicit choice: the form has no preselected one.
        if (!text(form, "adGroupId")) {
          throw new InvalidError(AD_GROUP_REQUIRED, { adGroupId: AD_GROUP_REQUIRED });
        }
        const parsed = parseKeywordLines(text(form, "keywords"), text(form, "matchType"));
        lines = parsed.map((k) => k.text);
        const cpc = parseAmount(text(form, "cpc"));
        id = await proposeAddKeywords(userId, {
          customerId,
          adGroupId: text(form, "adGroupId"),
          keywords: parsed.map((k) => ({ ...k, matchType: k.matchType as "EXACT", ...(cpc === undefined ? {} : { cpc }) })),
        });
        break;
      }
      case "add_negatives": {
        const parsed = parseKeywordLines(text(form, "keywords"), text(form, "matchType"));
        lines = parsed.map((k) => k.text);
        id = await proposeAddNegatives(userId, {
          customerId,
          level: text(form, "level") as "campaign",
          parentId: text(form, text(form, "level") === "ad_group" ? "adGroupId" : "campaignId"),
          keywords: parsed.map((k) => ({ ...k, matchType: k.matchType as "EXACT" })),
        });
        break;
      }
      case "create_rsa": {
        const headlines = all(form, "headline").slice(0, RSA_HEADLINES_MAX + 5);
        const headlinePins = all(form, "headlinePin");
        const descriptions = all(form, "description").slice(0, RSA_DESCRIPTIONS_MAX + 5);
        const descriptionPins = all(form, "descriptionPin");
        // Empty slots of the fixed form are not assets; their positions still name the fields.
        const assets = (texts: string[], pins: string[]) =>
          texts.flatMap((t, i) => (t.trim() === "" ? [] : [{ text: t, ...(pins[i] ? { pin: pins[i] } : {}), slot: i }]));
        const h = assets(headlines, headlinePins);
        const d = assets(descriptions, descriptionPins);
        try {
          id = await proposeCreateRsa(userId, {
            customerId,
            adGroupId: text(form, "adGroupId"),
            headlines: h.map(({ slot: _slot, ...a }) => a) as Array<{ text: string }>,
            descriptions: d.map(({ slot: _slot, ...a }) => a) as Array<{ text: string }>,
            path1: text(form, "path1") || undefined,
            path2: text(form, "path2") || undefined,
            finalUrl: text(form, "finalUrl").trim(),
          });
        } catch (error) {
          // Name the visible slot, not the position among the filled ones.
          if (error instanceof DomainError && error.fieldErrors) {
            const remapped: Record<string, string> = {};
            for (const [k, v] of Object.entries(error.fieldErrors)) {
              const m = /^(headlines|descriptions)\.(\d+)(\..*)?$/.exec(k);
              const slot = m ? (m[1] === "headlines" ? h : d)[Number(m[2])]?.slot : undefined;
              remapped[m && slot !== undefined ? `${m[1]}.${slot}${m[3] ?? ""}` : k] = v;
            }
            throw error.withFieldErrors(remapped);
          }
          throw error;
        }
        break;
      }
      case "term_keywords":
      case "term_negatives": {
        const terms = parseTerms(all(form, "term"));
        if (terms.length === 0) throw new InvalidError("Choose at least one search term", { term: "Choose at least one search term" });
        const matchType = text(form, "matchType") as "EXACT";
        let actions: Action[];
        if (intent === "term_keywords") {
          const cpc = parseAmount(text(form, "cpc"));
          actions = [...groupBy(terms, (t) => t.adGroupId)].map(([adGroupId, list]) => ({
            type: "add_keywords" as const,
            adGroupId,
            keywords: list.map((t) => ({ text: t.text, matchType, ...(cpc === undefined ? {} : { cpc }) })),
          }));
        } else if (text(form, "level") === "ad_group") {
          actions = [...groupBy(terms, (t) => t.adGroupId)].map(([adGroupId, list]) => ({
            type: "add_negatives" as const,
            level: "ad_group" as const,
            parentId: adGroupId,
            keywords: list.map((t) => ({ text: t.text, matchType })),
          }));
        } else {
          actions = [
            { type: "add_negatives", level: "campaign", parentId: text(form, "campaignId"), keywords: terms.map((t) => ({ text: t.text, matchType })) },
          ];
        }
        id = await proposeBulk(userId, { customerId, actions });
        break;
      }
      default:
        throw new InvalidError("Unknown action");
    }
    return { ok: true, changeSetId: id };
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    const errors: Record<string, string> = {};
    for (const [path, message] of Object.entries(failure.fieldErrors ?? {})) {
      const [field, msg] = formField(intent, path, message, lines);
      errors[field] ??= msg;
    }
    return { ok: false, status: failure.status, intent, formError: failure.detail, errors };
  }
}
