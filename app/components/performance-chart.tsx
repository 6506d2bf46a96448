import { useId, useState, type KeyboardEvent, type PointerEvent } from "react";
import { formatDate, formatDateRange, formatDecimal, formatInteger, formatMoney } from "~/lib/format";
import { axisTicks, compactNumber, percentChange } from "~/lib/chart-scale";

export interface ChartPoint {
  date: string;
  costMicros: number;
  clicks: number;
  conversions: number;
}

type SeriesKey = "costMicros" | "clicks" | "conversions";

interface Panel {
  key: SeriesKey;
  label: string;
  /** What the y axis counts, shown next to the panel's name. */
  unit: string;
  color: string;
  format: (value: number) => string;
  tick: (value: number) => string;
}

// The plot is drawn in SVG stretched to the box (preserveAspectRatio="none",
// strokes that do not scale), and every text is HTML laid over it: labels stay
// 11-12 px and readable at any width, from a 390 px phone to a wide screen.
const VIEW_WIDTH = 1000;
const PANEL_HEIGHT = 84;
const PANEL_TITLE = 30;
const PANEL_GAP = 14;
const AXIS = 22;
const LEFT = 52;

/**
 * Spend, clicks and conversions over a date range, as three small line charts
 * sharing one time axis: the three measures have unrelated scales, and one
 * chart with three y axes is hard to read. Each panel has its own y axis with
 * its unit. Server-rendered SVG, so it shows with JavaScript off; with
 * JavaScript, hovering (or focusing the chart and using the arrow keys) shows
 * the day's numbers in a tooltip. The same numbers are a table behind a
 * "Show the numbers" disclosure: reachable by keyboard and screen readers,
 * and taking no room on the page while closed.
 *
 * `previous` (same length, the period just before) draws dashed lines and
 * adds its numbers to the tooltip, table and totals.
 */
export function PerformanceChart({
  points,
  previous,
  currencyCode,
  range,
  previousRange,
}: {
  points: ChartPoint[];
  previous?: ChartPoint[] | null;
  currencyCode: string;
  range: { from: string; to: string };
  previousRange?: { from: string; to: string } | null;
}) {
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const panels: Panel[] = [
    {
      key: "costMicros",
      label: "Spend",
      unit: currencyCode,
      color: "#2563eb",
      format: (v) => formatMoney(v, currencyCode),
      tick: (v) => compactNumber(v / 1_000_000, currencyCode),
    },
    { key: "clicks", label: "Clicks", unit: "clicks", color: "#059669", format: (v) => formatInteger(v), tick: (v) => compactNumber(v) },
    { key: "conversions", label: "Conversions", unit: "conversions", color: "#d97706", format: (v) => formatDecimal(v), tick: (v) => compactNumber(v) },
  ];
  const sum = (list: ChartPoint[], key: SeriesKey) => list.reduce((s, p) => s + p[key], 0);
  const compare = previous && previousRange && previous.length === points.length ? previous : null;
  const title = `Spend, clicks and conversions, ${formatDateRange(range)}${compare ? `, compared with ${formatDateRange(previousRange!)}` : ""}`;
  const summary =
    points.length === 0
      ? "No data for this range."
      : `${points.length} days. Total spend ${formatMoney(sum(points, "costMicros"), currencyCode)}, ` +
        `${formatInteger(sum(points, "clicks"))} clicks, ${formatDecimal(sum(points, "conversions"))} conversions.`;
  const panelTop = (pi: number) => pi * (PANEL_TITLE + PANEL_HEIGHT + PANEL_GAP) + PANEL_TITLE;
  const height = panelTop(panels.length - 1) + PANEL_HEIGHT + AXIS;
  /** x of day i in the SVG's view units, and as a percentage of the plot's width for the HTML on top. */
  const share = (i: number) => (points.length <= 1 ? 0.5 : i / (points.length - 1));
  const x = (i: number) => share(i) * VIEW_WIDTH;
  const pct = (i: number) => `${(share(i) * 100).toFixed(3)}%`;
  const tickIndexes =
    points.length === 0 ? [] : [...new Set([0, Math.round((points.length - 1) / 3), Math.round((2 * (points.length - 1)) / 3), points.length - 1])];
  const scales = panels.map((panel, pi) => {
    const values = points.map((p) => p[panel.key]);
    const before = compare ? compare.map((p) => p[panel.key]) : [];
    const ticks = axisTicks(Math.max(0, ...values, ...before));
    const topValue = ticks[ticks.length - 1];
    const top = panelTop(pi);
    const y = (v: number) => top + PANEL_HEIGHT - (topValue > 0 ? (v / topValue) * PANEL_HEIGHT : 0);
    return { panel, values, before, ticks, top, y };
  });

  const indexAt = (clientX: number, rect: DOMRect) => {
    if (points.length === 0 || rect.width === 0) return null;
    const i = points.length <= 1 ? 0 : Math.round(((clientX - rect.left) / rect.width) * (points.length - 1));
    return Math.max(0, Math.min(points.length - 1, i));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => setActive(indexAt(e.clientX, e.currentTarget.getBoundingClientRect()));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (points.length === 0) return;
    const last = points.length - 1;
    const next =
      e.key === "ArrowRight"
        ? Math.min(last, (active ?? -1) + 1)
        : e.key === "ArrowLeft"
          ? Math.max(0, (active ?? last + 1) - 1)
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : null;
    if (next === null) {
      if (e.key === "Escape") setActive(null);
      return;
    }
    e.preventDefault();
    setActive(next);
  };

  return (
    <figure className="m-0">
      <dl className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="chart-totals">
        {panels.map((p) => {
          const now = sum(points, p.key);
          const change = compare ? percentChange(now, sum(compare, p.key)) : null;
          return (
            <div key={p.key} className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: p.color }} />
              <dt className="text-gray-500">{p.label}</dt>
              <dd className="font-semibold text-gray-900">
                {p.format(now)}
                {compare ? <Change value={change} previous={p.format(sum(compare, p.key))} /> : null}
              </dd>
            </div>
          );
        })}
      </dl>
      <div className="relative select-none" style={{ height }}>
        {scales.map(({ panel, ticks, top, y }) => (
          <div key={panel.key} aria-hidden="true">
            <p className="absolute left-0 text-xs font-semibold text-gray-700" style={{ top: top - PANEL_TITLE }}>
              {panel.label} <span className="font-normal text-gray-500">({panel.unit})</span>
            </p>
            {ticks.map((t) => (
              <span
                key={t}
                data-testid="y-tick"
                className="absolute left-0 -translate-y-1/2 pr-1.5 text-right text-[11px] tabular-nums text-gray-500"
                style={{ top: y(t), width: LEFT }}
              >
                {panel.tick(t)}
              </span>
            ))}
          </div>
        ))}
        <div
          className="absolute inset-y-0 right-2 touch-pan-y rounded outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
          style={{ left: LEFT }}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          data-testid="performance-chart"
          tabIndex={points.length ? 0 : undefined}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(null)}
        >
          <span id={`${id}-title`} className="sr-only">
            {title}
          </span>
          <span id={`${id}-desc`} className="sr-only">
            {summary} Hover, or focus and use the arrow keys, for each day&apos;s numbers.
          </span>
          <svg
            viewBox={`0 0 ${VIEW_WIDTH} ${height}`}
            preserveAspectRatio="none"
            className="absolute inset-0 h-full w-full overflow-visible"
            aria-hidden="true"
          >
            {scales.map(({ panel, values, before, ticks, top, y }) => {
              const path = (list: number[]) => list.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
              const line = path(values);
              const area =
                values.length > 1 ? `${line} L${x(values.length - 1).toFixed(1)},${top + PANEL_HEIGHT} L${x(0).toFixed(1)},${top + PANEL_HEIGHT} Z` : "";
              return (
                <g key={panel.key} data-series={panel.label}>
                  {ticks.map((t) => (
                    <line key={t} x1={0} x2={VIEW_WIDTH} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#d1d5db" : "#f3f4f6"} vectorEffect="non-scaling-stroke" />
                  ))}
                  {area ? <path d={area} fill={panel.color} fillOpacity={0.08} /> : null}
                  {before.length > 1 ? (
                    <path
                      d={path(before)}
                      fill="none"
                      stroke={panel.color}
                      strokeOpacity={0.55}
                      strokeWidth={1.5}
                      strokeDasharray="4 3"
                      vectorEffect="non-scaling-stroke"
                      data-testid="previous-line"
                    />
                  ) : null}
                  {values.length > 1 ? (
                    <path d={line} fill="none" stroke={panel.color} strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
                  ) : null}
                </g>
              );
            })}
            {active !== null ? (
              <line x1={x(active)} x2={x(active)} y1={0} y2={height - AXIS} stroke="#9ca3af" strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />
            ) : null}
          </svg>
          {/* Dots are HTML: a circle in a stretched SVG would be an ellipse. */}
          {scales.map(({ panel, values, y }) =>
            values.length === 1 || (active !== null && values[active] !== undefined) ? (
              <span
                key={panel.key}
                aria-hidden="true"
                className="absolute h-2 w-2 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 bg-white"
                style={{ left: pct(active ?? 0), top: y(values[active ?? 0]), borderColor: panel.color }}
              />
            ) : null,
          )}
          {tickIndexes.map((i, n) => (
            <span
              key={points[i].date}
              aria-hidden="true"
              className={`absolute bottom-0 whitespace-nowrap text-[11px] text-gray-500 ${n === 0 ? "" : i === points.length - 1 ? "-translate-x-full" : "-translate-x-1/2"}`}
              style={{ left: pct(i) }}
            >
              {formatDate(points[i].date, { short: true })}
            </span>
          ))}
          {points.length === 0 ? <p className="absolute inset-0 flex items-center justify-center text-sm text-gray-500">No data for this range</p> : null}
          {active !== null && points[active] ? (
            <div
              role="tooltip"
              data-testid="chart-tooltip"
              className="pointer-events-none absolute top-0 z-10 w-max max-w-[16rem] rounded-lg border border-gray-200 bg-white px-3 py-2 text-xs shadow-lg"
              style={share(active) > 0.5 ? { right: `calc(${100 - share(active) * 100}% + 10px)` } : { left: `calc(${pct(active)} + 10px)` }}
            >
              <p className="mb-1 font-semibold text-gray-900">
                {formatDate(points[active].date)}
                {compare ? <span className="font-normal text-gray-500"> vs {formatDate(compare[active].date)}</span> : null}
              </p>
              <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5">
                {panels.map((p) => (
                  <div key={p.key} className="contents">
                    <dt className="text-gray-500">{p.label}</dt>
                    <dd className="text-right font-medium tabular-nums text-gray-900">
                      {p.format(points[active][p.key])}
                      {compare ? <span className="font-normal text-gray-500"> vs {p.format(compare[active][p.key])}</span> : null}
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          ) : null}
        </div>
      </div>
      {points.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-blue-700 hover:underline">Show the numbers as a table</summary>
          <div className="relative mt-2 max-h-96 max-w-full overflow-auto rounded-lg border border-gray-200">
            <table className="min-w-full divide-y divide-gray-200 text-sm">
              <caption className="sr-only">{title}</caption>
              <thead className="sticky top-0 bg-gray-50">
                <tr>
                  <th scope="col" className="px-3 py-1.5 text-left font-semibold text-gray-700">
                    Date
                  </th>
                  {panels.map((p) => (
                    <th key={p.key} scope="col" className="px-3 py-1.5 text-right font-semibold text-gray-700">
                      {p.label}
                    </th>
                  ))}
                  {compare
                    ? panels.map((p) => (
                        <th key={`prev-${p.key}`} scope="col" className="px-3 py-1.5 text-right font-semibold text-gray-500">
                          {p.label}, previous period
                        </th>
                      ))
                    : null}
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {points.map((point, i) => (
                  <tr key={point.date}>
                    <th scope="row" className="whitespace-nowrap px-3 py-1 text-left font-normal text-gray-900">
                      {formatDate(point.date)}
                    </th>
                    {panels.map((p) => (
                      <td key={p.key} className="px-3 py-1 text-right tabular-nums">
                        {p.format(point[p.key])}
                      </td>
                    ))}
                    {compare
                      ? panels.map((p) => (
                          <td key={`prev-${p.key}`} className="px-3 py-1 text-right tabular-nums text-gray-500">
                            {p.format(compare[i][p.key])}
                          </td>
                        ))
                      : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </figure>
  );
}

/** "▲ 12.3% (was $1,234.00)": the change against the previous period. */
export function Change({ value, previous }: { value: number | null; previous: string }) {
  if (value === null) {
    return <span className="ml-2 text-xs font-normal text-gray-500">(previous period: {previous})</span>;
  }
  const up = value > 0;
  const flat = Math.abs(value) < 0.05;
  return (
    <span className={`ml-2 text-xs font-medium ${flat ? "text-gray-500" : up ? "text-emerald-700" : "text-red-700"}`} data-testid="change">
      <span aria-hidden="true">{flat ? "■" : up ? "▲" : "▼"}</span> {flat ? "0.0" : `${up ? "+" : ""}${formatDecimal(value, 1)}`}%{" "}
      <span className="font-normal text-gray-500">vs {previous}</span>
    </span>
  );
}
