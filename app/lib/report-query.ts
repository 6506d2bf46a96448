import { z } from "zod";
import { addDays, lastNDays, makeDateRangeSchema, presetOf, RANGE_PRESETS, DEFAULT_RANGE_DAYS, type DateRange, type RangePreset } from "./dates";
import { DEFAULT_PAGE_SIZE, defaultDirFor, MAX_SEARCH_LENGTH, PAGE_SIZES, parseListQuery, type ListQuery } from "./list-query";
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

export { DEFAULT_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZES };

export type CampaignListQuery = ListQuery<CampaignSortKeyParam, StatusFilter>;

export const DEFAULT_CAMPAIGN_SORT: CampaignSortKeyParam = "cost";

/** The campaign table's state from the query; anything unparseable falls back to its default and is named in `ignored`. */
export function parseCampaignListQuery(params: URLSearchParams): { query: CampaignListQuery; ignored: string[] } {
  return parseListQuery(params, { sortKeys: CAMPAIGN_SORT_KEYS, statusFilters: STATUS_FILTERS, defaultSort: DEFAULT_CAMPAIGN_SORT, textKeys: TEXT_SORT_KEYS });
}

/** Names sort A→Z first; numbers biggest first. */
export function defaultDir(sort: string): "asc" | "desc" {
  return defaultDirFor(sort, TEXT_SORT_KEYS);
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
