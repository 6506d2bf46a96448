import { formatEnum, formatMoney } from "./format";

/** One changed field as a person reads it: "Daily budget: $50.00 → $60.00". */
export interface FieldDiff {
  field: string;
  before: string | null;
  after: string | null;
  /** Signed change in percent for money fields (budgets, bids); null otherwise. */
  percent: number | null;
}

const NAMES: Record<string, string> = {
  status: "Status",
  amountMicros: "Daily budget",
  cpcBidMicros: "Max. CPC",
  targetCpaMicros: "Target CPA",
  text: "Keyword",
  matchType: "Match type",
  negative: "Negative",
  headlines: "Headlines",
  descriptions: "Descriptions",
  finalUrls: "Final URL",
  path1: "Display path 1",
  path2: "Display path 2",
  pins: "Pinned",
};

// Parent resource names say where, not what; the label already names the parent.
const HIDDEN = new Set(["adGroup", "campaign", "resourceName", "campaignBudget", "criterionId", "id"]);

/** A field's name as people read it ("cpcBidMicros" → "Max. CPC"; "keyword.text" → "Keyword"). */
export function fieldName(key: string): string {
  const last = key.slice(key.lastIndexOf(".") + 1);
  return NAMES[key] ?? NAMES[last] ?? formatEnum(last.replace(/([a-z])([A-Z])/g, "$1_$2"));
}

function show(key: string, value: unknown, currency: string): string | null {
  if (value === null || value === undefined) return key === "cpcBidMicros" ? "Not set" : key === "targetCpaMicros" ? "Campaign's target" : null;
  if (key.endsWith("Micros") && typeof value === "number") return formatMoney(value, currency);
  if (key === "status" || key === "matchType") return formatEnum(String(value));
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === "object" ? JSON.stringify(v) : String(v))).join(" | ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The fields a change touches, before and after, formatted. Works on the
 * product's own change records (camelCase fields, micros as numbers).
 */
export function diffFields(before: unknown, after: unknown, currency: string): FieldDiff[] {
  const b = (before && typeof before === "object" ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === "object" ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !HIDDEN.has(k));
  // A create shows what it makes; a remove shows only the status it ends in.
  const shown = after && before && Object.keys(a).length > 0 ? keys.filter((k) => k in a) : keys;
  return shown.map((k) => {
    const from = b[k];
    const to = a[k];
    const percent = k.endsWith("Micros") && typeof from === "number" && typeof to === "number" && from > 0 ? ((to - from) / from) * 100 : null;
    return { field: fieldName(k), before: before ? show(k, from, currency) : null, after: after ? show(k, to, currency) : null, percent };
  });
}

export function formatPercentChange(percent: number): string {
  const rounded = Math.round(percent * 10) / 10;
  return `${rounded > 0 ? "+" : ""}${rounded}%`;
}

export const CHANGE_STATUS_LABEL: Record<string, string> = {
  pending: "Not validated yet",
  valid: "Accepted by Google (validated)",
  invalid: "Refused by Google",
  applying: "Applying",
  applied: "Applied",
  failed: "Failed",
  unknown: "Outcome unknown",
};

export const SET_STATUS_LABEL: Record<string, string> = {
  proposed: "Awaiting validation",
  validated: "Ready to apply",
  invalid: "Refused by Google",
  applying: "Applying",
  applied: "Applied",
  partially_applied: "Partly applied",
  failed: "Failed",
  discarded: "Discarded",
};

export const RESOURCE_KIND_LABEL: Record<string, string> = {
  campaign: "Campaign",
  campaign_budget: "Budget",
  ad_group: "Ad group",
  keyword: "Keyword",
  negative_keyword: "Negative keyword (ad group)",
  campaign_negative_keyword: "Negative keyword (campaign)",
  ad: "Ad",
};
