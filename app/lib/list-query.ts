import { z } from "zod";

// The one parser of a report table's state in the address (?sort=&dir=
// &status=&q=&page=&pageSize=): the campaigns list and each campaign detail
// tab differ only in their sort keys, status filters and which keys are text.
// A value that does not parse never fails the page: it falls back to the
// default and is named in `ignored`, for the page to say so.

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_SEARCH_LENGTH = 100;

/** The query keys of a table's state. */
export const TABLE_KEYS = ["sort", "dir", "status", "q", "page", "pageSize"];

export interface ListQuery<Sort extends string = string, Status extends string = string> {
  sort: Sort;
  dir: "asc" | "desc";
  status: Status;
  q: string;
  page: number;
  pageSize: number;
}

export interface ListQueryShape<Sort extends string, Status extends string> {
  sortKeys: readonly Sort[];
  /** The first is the default ("all"). */
  statusFilters: readonly Status[];
  defaultSort: Sort;
  /** Names sort A→Z first; numbers biggest first. */
  textKeys: readonly string[];
}

/** The direction a column sorts in first: text A→Z, numbers biggest first. */
export function defaultDirFor(sort: string, textKeys: readonly string[]): "asc" | "desc" {
  return textKeys.includes(sort) ? "asc" : "desc";
}

const FIELD_NAMES = {
  sort: "sort column",
  dir: "sort direction",
  status: "status filter",
  q: "search (at most 100 characters)",
  page: "page number",
  pageSize: "page size",
} as const;

function buildFields<Sort extends string, Status extends string>(shape: ListQueryShape<Sort, Status>) {
  return {
    sort: z.enum(shape.sortKeys as unknown as [Sort, ...Sort[]]),
    dir: z.enum(["asc", "desc"]),
    status: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(shape.statusFilters as unknown as [Status, ...Status[]])),
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
}

// Building zod schemas costs far more than using them (a third of a millisecond
// per campaigns page in the server's profile): one set per table shape, kept.
// The shapes' key lists are module constants, so they identify the shape.
const fieldsBySortKeys = new WeakMap<readonly string[], WeakMap<readonly string[], unknown>>();

function fieldsFor<Sort extends string, Status extends string>(shape: ListQueryShape<Sort, Status>): ReturnType<typeof buildFields<Sort, Status>> {
  let byStatus = fieldsBySortKeys.get(shape.sortKeys);
  if (!byStatus) fieldsBySortKeys.set(shape.sortKeys, (byStatus = new WeakMap()));
  let fields = byStatus.get(shape.statusFilters) as ReturnType<typeof buildFields<Sort, Status>> | undefined;
  if (!fields) byStatus.set(shape.statusFilters, (fields = buildFields(shape)));
  return fields;
}

export function parseListQuery<Sort extends string, Status extends string>(
  params: URLSearchParams,
  shape: ListQueryShape<Sort, Status>,
): { query: ListQuery<Sort, Status>; ignored: string[] } {
  const fields = fieldsFor(shape);
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
  const sort = (read("sort") as Sort | undefined) ?? shape.defaultSort;
  return {
    query: {
      sort,
      dir: read("dir") ?? defaultDirFor(sort, shape.textKeys),
      status: (read("status") as Status | undefined) ?? shape.statusFilters[0],
      q: read("q") ?? "",
      page: read("page") ?? 1,
      pageSize: read("pageSize") ?? DEFAULT_PAGE_SIZE,
    },
    ignored,
  };
}
