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
  /** A short text column (type, bidding) that may wrap onto two lines in small print, to leave room for the numbers. */
  narrow?: boolean;
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
  const labelAt = Math.max(
    0,
    columns.findIndex((c) => c.rowHeader),
  );
  // The columns up to the row's name stay in view while the numbers scroll
  // sideways (a phone, or many columns): a leading checkbox column is w-10.
  const stickyClass = (i: number, bg: string) => {
    if (i > labelAt) return "";
    const left = i === 0 ? "left-0" : "left-10";
    const edge = i === labelAt ? "shadow-[inset_-1px_0_0_#e5e7eb]" : "";
    return `sticky ${left} z-10 ${bg} ${edge} ${i < labelAt ? "w-10 min-w-10" : ""}`;
  };
  const cellClass = (col: Column<Row>) =>
    col.rowHeader
      ? "min-w-[8rem] max-w-[15rem] whitespace-normal break-words md:min-w-[9rem]"
      : col.narrow
        ? "min-w-[4.5rem] max-w-[6.5rem] whitespace-normal text-xs leading-tight"
        : "whitespace-nowrap";
  return (
    <div className="relative max-w-full overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm" data-testid="table-scroll">
      {/* w-full, not min-w-full: when the columns do not fit, the browser shrinks them to their narrowest (headers wrap) before the box has to scroll. */}
      <table className="w-full divide-y divide-gray-200 text-[13px]">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50">
          <tr>
            {columns.map((col, i) => {
              const active = sort?.key === col.key;
              const ariaSort = active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined;
              const align = col.numeric ? "text-right" : "text-left";
              // Headers may wrap ("Conv. value/cost" on two lines): the cells' numbers set the width.
              const base = `${col.numeric ? "px-1.5" : "px-2"} py-2 align-bottom text-xs font-semibold leading-tight text-gray-700 ${align} ${stickyClass(i, "bg-gray-50")}`;
              if (!sort || !col.sortable) {
                return (
                  <th key={col.key} scope="col" className={base}>
                    {col.header ?? col.label}
                  </th>
                );
              }
              const firstDir: SortDir = col.numeric ? "desc" : "asc";
              const nextDir: SortDir = active ? (sort.dir === "asc" ? "desc" : "asc") : firstDir;
              return (
                <th key={col.key} scope="col" aria-sort={ariaSort} className={base}>
                  <Link
                    to={sort.href(col.key, nextDir)}
                    preventScrollReset
                    className={`inline-flex items-end gap-1 underline-offset-2 hover:text-blue-700 hover:underline ${active ? "text-blue-700" : ""}`}
                  >
                    {col.label}
                    {/* Only the sorted column carries an arrow: fourteen ↕ would cost a money column's width. */}
                    {active ? (
                      <span aria-hidden="true" className="text-xs">
                        {sort.dir === "asc" ? "▲" : "▼"}
                      </span>
                    ) : null}
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
              <tr key={rowKey(row)} className="group">
                {columns.map((col, i) => {
                  const className = `${col.numeric ? "px-1.5" : "px-2"} py-2 group-hover:bg-gray-50 ${cellClass(col)} ${col.numeric ? "text-right tabular-nums" : "text-left"} ${stickyClass(i, "bg-white")}`;
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
                  <th key={col.key} scope="row" className={`px-2 py-2 text-left text-gray-900 ${cellClass(col)} ${stickyClass(i, "bg-gray-50")}`}>
                    {totalsLabel}
                  </th>
                ) : (
                  <td
                    key={col.key}
                    className={`whitespace-nowrap ${col.numeric ? "px-1.5" : "px-2"} py-2 text-gray-900 ${col.numeric ? "text-right tabular-nums" : "text-left"} ${stickyClass(i, "bg-gray-50")}`}
                  >
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
