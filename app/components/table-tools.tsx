import { Form, Link } from "react-router";
import { hrefWith, keptParams } from "~/lib/query";
import { DEFAULT_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZES } from "~/lib/report-query";

// The controls around a report table (campaigns, each campaign tab): status
// filter, text search, rows per page and the CSV download. All are links or
// GET forms over the address, so they work without JavaScript and any view
// can be bookmarked.

/** Status filter links; each goes back to page 1. */
export function StatusFilter<S extends string>({
  filters,
  labels,
  current,
  pathname,
  search,
}: {
  filters: readonly S[];
  labels: Record<S, string>;
  current: S;
  pathname: string;
  search: string;
}) {
  return (
    <nav aria-label="Status filter" className="relative flex max-w-full overflow-x-auto rounded-lg border border-gray-300 bg-white text-sm">
      {filters.map((status) => {
        const active = current === status;
        return (
          <Link
            key={status}
            to={hrefWith(pathname, search, { status: status === "all" ? null : status, page: null })}
            aria-current={active ? "true" : undefined}
            preventScrollReset
            className={`border-l border-gray-300 px-3 py-1.5 font-medium first:border-l-0 ${active ? "bg-blue-600 text-white" : "text-gray-700 hover:bg-gray-50"}`}
          >
            {labels[status]}
          </Link>
        );
      })}
    </nav>
  );
}

/** A GET form that sets ?q= and keeps everything else but the page. */
export function SearchBox({
  pathname,
  search,
  q,
  name,
  label,
  placeholder,
}: {
  pathname: string;
  search: string;
  q: string;
  /** The form's accessible name, e.g. "Search campaigns". */
  name: string;
  label: string;
  placeholder: string;
}) {
  return (
    <Form method="get" action={pathname} role="search" aria-label={name} preventScrollReset className="flex max-w-full items-end gap-2">
      {keptParams(search, ["q", "page"]).map(([key, value], i) => (
        <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
      ))}
      <label className="flex min-w-0 flex-col text-xs font-medium text-gray-600">
        {label}
        <input
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder={placeholder}
          className="mt-0.5 w-44 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900 sm:w-56"
        />
      </label>
      <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
        Search
      </button>
      {q ? (
        <Link to={hrefWith(pathname, search, { q: null, page: null })} preventScrollReset className="px-1 py-1 text-sm text-blue-700 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

export function PageSizeLinks({ pathname, search, pageSize }: { pathname: string; search: string; pageSize: number }) {
  return (
    <nav aria-label="Rows per page" className="mt-2 flex items-center gap-2 text-sm text-gray-600">
      <span>Rows per page:</span>
      {PAGE_SIZES.map((size) => (
        <Link
          key={size}
          to={hrefWith(pathname, search, { pageSize: size === DEFAULT_PAGE_SIZE ? null : size, page: null })}
          aria-current={size === pageSize ? "true" : undefined}
          preventScrollReset
          className={size === pageSize ? "font-semibold text-gray-900" : "text-blue-700 hover:underline"}
        >
          {size}
        </Link>
      ))}
    </nav>
  );
}

/**
 * "Download CSV" of the table as it is filtered, sorted and ranged (every
 * page, not only the one shown). A plain link to a resource route: the
 * browser downloads it, with or without JavaScript.
 */
export function DownloadCsv({ href, label = "Download CSV" }: { href: string; label?: string }) {
  return (
    <a
      href={href}
      download
      className="inline-flex items-center gap-1.5 rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2}>
        <path strokeLinecap="round" strokeLinejoin="round" d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" />
      </svg>
      {label}
    </a>
  );
}

/** The path of a page's CSV export: the same query (range, filters, sort), page and page size dropped. */
export function csvHref(path: string, search: string, extra: Record<string, string | null> = {}): string {
  return hrefWith(path, search, { page: null, pageSize: null, ...extra });
}
