import { z } from "zod";
import { defaultDirFor, parseListQuery, type ListQuery } from "./list-query";
import type { DetailTab } from "./report-query";

// The campaign detail's tabs keep their table state in the address like the
// campaigns list (?sort=&dir=&status=&q=&page=&pageSize=, with ?tab=), so
// every control is a link or a GET form and works without JavaScript. Each
// tab has its own columns and so its own sort keys and status filter.

/** The metric columns every tab shares, sortable in SQL (reports' RATIOS for the ratios). */
export const METRIC_SORT_KEYS = ["impressions", "clicks", "ctr", "averageCpc", "cost", "conversions", "costPerConversion", "conversionValuePerCost"] as const;
export type MetricSortKey = (typeof METRIC_SORT_KEYS)[number];

export const DETAIL_SORT_KEYS = {
  adgroups: ["name", "status", "bid", ...METRIC_SORT_KEYS],
  keywords: ["text", "matchType", "adGroup", "status", "bid", "qualityScore", ...METRIC_SORT_KEYS],
  ads: ["adGroup", "status", "adStrength", ...METRIC_SORT_KEYS],
  searchterms: ["term", "status", "adGroup", "keyword", ...METRIC_SORT_KEYS],
} as const satisfies Record<DetailTab, readonly string[]>;
export type DetailSortKey<T extends DetailTab = DetailTab> = (typeof DETAIL_SORT_KEYS)[T][number];

const TEXT_KEYS = ["name", "status", "text", "matchType", "adGroup", "adStrength", "term", "keyword"];

/** Names sort A→Z first; numbers biggest first. */
export function detailDefaultDir(sort: string): "asc" | "desc" {
  return defaultDirFor(sort, TEXT_KEYS);
}

/** Entities have Google's statuses; a search term is added as a keyword, excluded as a negative, both, or neither. */
export const DETAIL_STATUS_FILTERS = {
  adgroups: ["all", "enabled", "paused", "removed"],
  keywords: ["all", "enabled", "paused", "removed"],
  ads: ["all", "enabled", "paused", "removed"],
  searchterms: ["all", "added", "excluded", "none"],
} as const satisfies Record<DetailTab, readonly string[]>;
export type DetailStatusFilter = (typeof DETAIL_STATUS_FILTERS)[DetailTab][number];

export const DETAIL_STATUS_LABELS: Record<DetailStatusFilter, string> = {
  all: "All",
  enabled: "Enabled",
  paused: "Paused",
  removed: "Removed",
  added: "Added",
  excluded: "Excluded",
  none: "None",
};

/** What the text search looks in, per tab (for the label and placeholder). */
export const DETAIL_SEARCH_LABELS: Record<DetailTab, { label: string; placeholder: string }> = {
  adgroups: { label: "Search by name", placeholder: "Ad group name" },
  keywords: { label: "Search keywords", placeholder: "Keyword text" },
  ads: { label: "Search ad text", placeholder: "Headline, description or URL" },
  searchterms: { label: "Search terms", placeholder: "Search term" },
};

export type DetailListQuery = ListQuery<string, DetailStatusFilter>;

/** A tab's table state from the query; anything unparseable falls back to its default and is named in `ignored`. */
export function parseDetailListQuery(params: URLSearchParams, tab: DetailTab): { query: DetailListQuery; ignored: string[] } {
  return parseListQuery<string, DetailStatusFilter>(params, {
    sortKeys: DETAIL_SORT_KEYS[tab],
    statusFilters: DETAIL_STATUS_FILTERS[tab],
    defaultSort: "cost",
    textKeys: TEXT_KEYS,
  });
}

/** The query keys of a tab's table: switching tabs drops them (another tab has other columns). */
export { TABLE_KEYS } from "./list-query";

/** The Ads tab shows full cards or a compact table (one row per ad); a link switches (?view=table), so it works without JavaScript. */
export const AD_VIEWS = ["cards", "table"] as const;
export type AdView = (typeof AD_VIEWS)[number];

export function parseAdView(params: URLSearchParams): { view: AdView; ignored: boolean } {
  const raw = params.get("view");
  if (raw === null || raw === "") return { view: "cards", ignored: false };
  const parsed = z.enum(AD_VIEWS).safeParse(raw);
  return parsed.success ? { view: parsed.data, ignored: false } : { view: "cards", ignored: true };
}
