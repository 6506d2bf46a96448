import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZES, type DetailTab } from "./report-query";

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

const TEXT_KEYS = new Set<string>(["name", "status", "text", "matchType", "adGroup", "adStrength", "term", "keyword"]);

/** Names sort A→Z first; numbers biggest first. */
export function detailDefaultDir(sort: string): "asc" | "desc" {
  return TEXT_KEYS.has(sort) ? "asc" : "desc";
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

export interface DetailListQuery {
  sort: string;
  dir: "asc" | "desc";
  status: DetailStatusFilter;
  q: string;
  page: number;
  pageSize: number;
}

const FIELD_NAMES = {
  sort: "sort column",
  dir: "sort direction",
  status: "status filter",
  q: "search (at most 100 characters)",
  page: "page number",
  pageSize: "page size",
} as const;

/** A tab's table state from the query; anything unparseable falls back to its default and is named in `ignored`. */
export function parseDetailListQuery(params: URLSearchParams, tab: DetailTab): { query: DetailListQuery; ignored: string[] } {
  const fields = {
    sort: z.enum(DETAIL_SORT_KEYS[tab] as unknown as [string, ...string[]]),
    dir: z.enum(["asc", "desc"]),
    status: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(DETAIL_STATUS_FILTERS[tab] as unknown as [DetailStatusFilter, ...DetailStatusFilter[]])),
    q: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().max(MAX_SEARCH_LENGTH)),
    page: z.coerce.number().int().min(1).max(1_000_000),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n)),
  };
  const ignored: string[] = [];
  const read = <K extends keyof typeof fields>(key: K): z.output<(typeof fields)[K]> | undefined => {
    const raw = params.get(key);
    if (raw === null || raw === "") return undefined;
    const parsed = fields[key].safeParse(raw);
    if (!parsed.success) {
      ignored.push(FIELD_NAMES[key]);
      return undefined;
    }
    return parsed.data as z.output<(typeof fields)[K]>;
  };
  const sort = read("sort") ?? "cost";
  return {
    query: {
      sort,
      dir: read("dir") ?? detailDefaultDir(sort),
      status: read("status") ?? "all",
      q: read("q") ?? "",
      page: read("page") ?? 1,
      pageSize: read("pageSize") ?? DEFAULT_PAGE_SIZE,
    },
    ignored,
  };
}

/** The query keys of a tab's table: switching tabs drops them (another tab has other columns). */
export const TABLE_KEYS = ["sort", "dir", "status", "q", "page", "pageSize"];
