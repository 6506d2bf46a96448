import { z } from "zod";
import { addDays, lastNDays, makeDateRangeSchema, presetOf, RANGE_PRESETS, DEFAULT_RANGE_DAYS, type DateRange, type RangePreset } from "./dates";
import { hrefWith, keptParams } from "./query";

// The report pages keep their whole state in the address (range, sort,
// filters, page, tab), so every control is a link or a GET form and works
// without JavaScript. A value that does not parse never fails the page: it
// falls back to the default and the page says what it ignored.

export type PresetId = RangePreset["id"];

export interface ResolvedRange {
  range: DateRange;
  /** The preset the range matches, or null for a custom range. */
  presetId: PresetId | null;
  /** Why the range asked for was not used. */
  notice: string | null;
}

const PresetIdSchema = z.enum(RANGE_PRESETS.map((p) => p.id) as [PresetId, ...PresetId[]]);

export type RangeParse = { ok: true; range: DateRange; presetId: PresetId | null } | { ok: false; error: string };

/**
 * The range the query asks for: ?range=7d|30d|90d (relative, so a bookmark
 * keeps meaning "the last 7 days"), or ?from=&to= (custom, inclusive), or,
 * with neither, the last 30 days ending yesterday. `yesterday` is in the
 * account's time zone.
 */
export function parseRangeQuery(params: URLSearchParams, yesterday: string): RangeParse {
  const from = params.get("from");
  const to = params.get("to");
  if (from !== null || to !== null) {
    if (!from || !to) return { ok: false, error: "Choose both a start and an end date (YYYY-MM-DD)." };
    // Today is allowed (its numbers are still coming in); later days are not.
    const parsed = makeDateRangeSchema({ maxDate: addDays(yesterday, 1) }).safeParse({ from, to });
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That date range is not valid." };
    return { ok: true, range: parsed.data, presetId: presetOf(parsed.data, yesterday)?.id ?? null };
  }
  const preset = params.get("range");
  if (preset === null) return { ok: true, range: lastNDays(DEFAULT_RANGE_DAYS, yesterday), presetId: "30d" };
  const parsed = PresetIdSchema.safeParse(preset);
  if (!parsed.success) return { ok: false, error: "Unknown date range." };
  const days = RANGE_PRESETS.find((p) => p.id === parsed.data)!.days;
  return { ok: true, range: lastNDays(days, yesterday), presetId: parsed.data };
}

/** The range a page shows: what the query asks for, or the default with a notice saying why not. */
export function resolveRange(params: URLSearchParams, yesterday: string): ResolvedRange {
  const parsed = parseRangeQuery(params, yesterday);
  if (parsed.ok) return { range: parsed.range, presetId: parsed.presetId, notice: null };
  return { range: lastNDays(DEFAULT_RANGE_DAYS, yesterday), presetId: "30d", notice: `${parsed.error} Showing the last 30 days.` };
}

/** The query keys that carry the range; a new range replaces all of them. */
export const RANGE_KEYS = ["range", "from", "to"];

/** Links for the preset buttons: each keeps the rest of the query and goes back to page 1. */
export function presetLinks(pathname: string, search: string, presetId: PresetId | null) {
  return RANGE_PRESETS.map((p) => ({
    label: p.label,
    current: p.id === presetId,
    // The default range needs no parameter: the plain address means "last 30 days".
    href: hrefWith(pathname, search, { range: p.days === DEFAULT_RANGE_DAYS ? null : p.id, from: null, to: null, page: null }),
  }));
}

/** Only the range part of the query: links to another report page carry it, so its numbers match. */
export function rangeOnly(search: string): URLSearchParams {
  return new URLSearchParams(keptParams(search, []).filter(([key]) => RANGE_KEYS.includes(key)));
}

/** Hidden inputs for the custom range form: everything but the range and the page. */
export function rangeFormHidden(search: string) {
  return keptParams(search, [...RANGE_KEYS, "page"]);
}

// ---------------------------------------------------------------- campaigns

export const CAMPAIGN_SORT_KEYS = [
  "name",
  "status",
  "channelType",
  "budget",
  "biddingStrategyType",
  "impressions",
  "clicks",
  "ctr",
  "averageCpc",
  "cost",
  "conversions",
  "costPerConversion",
  "conversionValuePerCost",
] as const;
export type CampaignSortKeyParam = (typeof CAMPAIGN_SORT_KEYS)[number];

const TEXT_SORT_KEYS: readonly CampaignSortKeyParam[] = ["name", "status", "channelType", "biddingStrategyType"];

export const STATUS_FILTERS = ["all", "enabled", "paused", "removed"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_SEARCH_LENGTH = 100;

export interface CampaignListQuery {
  sort: CampaignSortKeyParam;
  dir: "asc" | "desc";
  status: StatusFilter;
  q: string;
  page: number;
  pageSize: number;
}

export const DEFAULT_CAMPAIGN_SORT: CampaignSortKeyParam = "cost";

const field = {
  sort: z.enum(CAMPAIGN_SORT_KEYS),
  dir: z.enum(["asc", "desc"]),
  status: z.string().transform((s) => s.toLowerCase()).pipe(z.enum(STATUS_FILTERS)),
  q: z.string().transform((s) => s.trim()).pipe(z.string().max(MAX_SEARCH_LENGTH)),
  page: z.coerce.number().int().min(1).max(1_000_000),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n)),
};

const FIELD_NAMES: Record<keyof typeof field, string> = {
  sort: "sort column",
  dir: "sort direction",
  status: "status filter",
  q: "search (at most 100 characters)",
  page: "page number",
  pageSize: "page size",
};

/** The campaign table's state from the query; anything unparseable falls back to its default and is named in `ignored`. */
export function parseCampaignListQuery(params: URLSearchParams): { query: CampaignListQuery; ignored: string[] } {
  const ignored: string[] = [];
  const read = <K extends keyof typeof field>(key: K): z.output<(typeof field)[K]> | undefined => {
    const raw = params.get(key);
    if (raw === null || raw === "") return undefined;
    const parsed = field[key].safeParse(raw);
    if (!parsed.success) {
      ignored.push(FIELD_NAMES[key]);
      return undefined;
    }
    return parsed.data as z.output<(typeof field)[K]>;
  };
  const sort = read("sort") ?? DEFAULT_CAMPAIGN_SORT;
  const query: CampaignListQuery = {
    sort,
    dir: read("dir") ?? defaultDir(sort),
    status: read("status") ?? "all",
    q: read("q") ?? "",
    page: read("page") ?? 1,
    pageSize: read("pageSize") ?? DEFAULT_PAGE_SIZE,
  };
  return { query, ignored };
}

/** Names sort A→Z first; numbers biggest first. */
export function defaultDir(sort: string): "asc" | "desc" {
  return (TEXT_SORT_KEYS as readonly string[]).includes(sort) ? "asc" : "desc";
}

// ---------------------------------------------------------------- campaign detail

export const DETAIL_TABS = ["adgroups", "keywords", "ads", "searchterms"] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

export function parseDetailTab(params: URLSearchParams): { tab: DetailTab; ignored: boolean } {
  const raw = params.get("tab");
  if (raw === null || raw === "") return { tab: "adgroups", ignored: false };
  const parsed = z.enum(DETAIL_TABS).safeParse(raw);
  return parsed.success ? { tab: parsed.data, ignored: false } : { tab: "adgroups", ignored: true };
}
