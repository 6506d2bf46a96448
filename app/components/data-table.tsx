import type { ReactNode } from "react";
import { Link } from "react-router";

export type SortDir = "asc" | "desc";

export interface Column<Row> {
  /** Unique per table; doubles as the sort key when `sortable`. */
  key: string;
  label: string;
  /** Replaces the label in the header (e.g. a "select all" box); the label stays its accessible name. */
  header?: ReactNode;
  /** Numbers align right and sort descending first (biggest first is what people look for). */
  numeric?: boolean;
  sortable?: boolean;
  /** The row's name cell: a row header for screen readers. */
  rowHeader?: boolean;
  cell: (row: Row) => ReactNode;
  /** The totals row's cell; omitted columns stay empty there. */
  total?: ReactNode;
}

export interface TableSort {
  key: string;
  dir: SortDir;
  /** The link that sorts by `key` in `dir` (keeping the rest of the query). */
  href: (key: string, dir: SortDir) => string;
}

/**
 * A server-rendered table. Sorting is by links (?sort=&dir=), so it works with
 * JavaScript off, and the active column carries aria-sort.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  totalsLabel = "Total",
  showTotals = false,
  empty,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  sort?: TableSort;
  totalsLabel?: string;
  showTotals?: boolean;
  empty?: ReactNode;
}) {
  // The totals label sits under the row names, not in a leading checkbox column.
  const labelAt = Math.max(0, columns.findIndex((c) => c.rowHeader));
  return (
    <div className="overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-gray-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50">
          <tr>
            {columns.map((col) => {
              const active = sort?.key === col.key;
              const ariaSort = active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined;
              const align = col.numeric ? "text-right" : "text-left";
              if (!sort || !col.sortable) {
                return (
                  <th key={col.key} scope="col" className={`whitespace-nowrap px-3 py-2 font-semibold text-gray-700 ${align}`}>
                    {col.header ?? col.label}
                  </th>
                );
              }
              const firstDir: SortDir = col.numeric ? "desc" : "asc";
              const nextDir: SortDir = active ? (sort.dir === "asc" ? "desc" : "asc") : firstDir;
              return (
                <th key={col.key} scope="col" aria-sort={ariaSort} className={`whitespace-nowrap px-3 py-2 font-semibold text-gray-700 ${align}`}>
                  <Link
                    to={sort.href(col.key, nextDir)}
                    preventScrollReset
                    className={`inline-flex items-center gap-1 hover:text-blue-700 ${active ? "text-blue-700" : ""}`}
                  >
                    {col.label}
                    <span aria-hidden="true" className="text-xs">
                      {active ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}
                    </span>
                  </Link>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-gray-500">
                {empty ?? "Nothing to show."}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className="hover:bg-gray-50">
                {columns.map((col) => {
                  const className = `whitespace-nowrap px-3 py-2 ${col.numeric ? "text-right tabular-nums" : "text-left"}`;
                  return col.rowHeader ? (
                    <th key={col.key} scope="row" className={`${className} font-medium text-gray-900`}>
                      {col.cell(row)}
                    </th>
                  ) : (
                    <td key={col.key} className={`${className} text-gray-700`}>
                      {col.cell(row)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
        {showTotals && rows.length > 0 ? (
          <tfoot className="border-t-2 border-gray-300 bg-gray-50 font-semibold">
            <tr data-testid="totals-row">
              {columns.map((col, i) =>
                i === labelAt ? (
                  <th key={col.key} scope="row" className="whitespace-nowrap px-3 py-2 text-left text-gray-900">
                    {totalsLabel}
                  </th>
                ) : (
                  <td key={col.key} className={`whitespace-nowrap px-3 py-2 text-gray-900 ${col.numeric ? "text-right tabular-nums" : "text-left"}`}>
                    {col.total ?? null}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
