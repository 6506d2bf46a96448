import { Link } from "react-router";
import { formatInteger } from "~/lib/format";

/** Page numbers around the current one, with the ends always reachable: 1 … 4 5 [6] 7 8 … 200. */
export function pageWindow(page: number, pages: number, radius = 2): Array<number | "gap"> {
  const out: Array<number | "gap"> = [];
  const from = Math.max(1, page - radius);
  const to = Math.min(pages, page + radius);
  if (from > 1) out.push(1);
  if (from > 2) out.push("gap");
  for (let p = from; p <= to; p++) out.push(p);
  if (to < pages - 1) out.push("gap");
  if (to < pages) out.push(pages);
  return out;
}

/** Previous/next and numbered page links; plain links, so paging works with JavaScript off. */
export function Pagination({
  page,
  pageSize,
  total,
  href,
  noun = "rows",
}: {
  page: number;
  pageSize: number;
  total: number;
  href: (page: number) => string;
  noun?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const linkClass = "rounded-md px-2.5 py-1 text-sm font-medium text-gray-700 hover:bg-gray-100";
  const disabledClass = "rounded-md px-2.5 py-1 text-sm text-gray-400";
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-gray-600" data-testid="page-summary">
        {total === 0 ? `No ${noun}` : `Showing ${formatInteger(first)}–${formatInteger(last)} of ${formatInteger(total)} ${noun}`}
      </p>
      {pages > 1 ? (
        <nav aria-label="Pagination" className="flex items-center gap-1">
          {page > 1 ? (
            <Link to={href(page - 1)} className={linkClass} rel="prev">
              Previous
            </Link>
          ) : (
            <span className={disabledClass} aria-disabled="true">
              Previous
            </span>
          )}
          {pageWindow(page, pages).map((p, i) =>
            p === "gap" ? (
              <span key={`gap-${i}`} className="px-1 text-gray-400" aria-hidden="true">
                …
              </span>
            ) : (
              <Link
                key={p}
                to={href(p)}
                aria-label={`Page ${p}`}
                aria-current={p === page ? "page" : undefined}
                className={p === page ? "rounded-md bg-blue-600 px-2.5 py-1 text-sm font-semibold text-white" : linkClass}
              >
                {p}
              </Link>
            ),
          )}
          {page < pages ? (
            <Link to={href(page + 1)} className={linkClass} rel="next">
              Next
            </Link>
          ) : (
            <span className={disabledClass} aria-disabled="true">
              Next
            </span>
          )}
        </nav>
      ) : null}
    </div>
  );
}
