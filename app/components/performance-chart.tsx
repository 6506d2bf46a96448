import { useId } from "react";
import { formatDate, formatDateRange, formatDecimal, formatInteger, formatMoney } from "~/lib/format";

export interface ChartPoint {
  date: string;
  costMicros: number;
  clicks: number;
  conversions: number;
}

interface Panel {
  key: "costMicros" | "clicks" | "conversions";
  label: string;
  color: string;
  format: (value: number) => string;
}

const WIDTH = 720;
const PANEL_HEIGHT = 96;
const PANEL_GAP = 28;
const LEFT = 8;
const RIGHT = 8;
const TOP = 18;
const AXIS = 22;

/**
 * Spend, clicks and conversions over a date range, as three small line charts
 * sharing one time axis: the three measures have unrelated scales, and one
 * chart with three y axes is hard to read. Plain server-rendered SVG: no
 * script, so it shows with JavaScript off. Screen readers get a title, a
 * summary and the numbers as a table.
 */
export function PerformanceChart({
  points,
  currencyCode,
  range,
}: {
  points: ChartPoint[];
  currencyCode: string;
  range: { from: string; to: string };
}) {
  const id = useId();
  const panels: Panel[] = [
    { key: "costMicros", label: "Spend", color: "#2563eb", format: (v) => formatMoney(v, currencyCode) },
    { key: "clicks", label: "Clicks", color: "#059669", format: (v) => formatInteger(v) },
    { key: "conversions", label: "Conversions", color: "#d97706", format: (v) => formatDecimal(v) },
  ];
  const totals = {
    costMicros: points.reduce((s, p) => s + p.costMicros, 0),
    clicks: points.reduce((s, p) => s + p.clicks, 0),
    conversions: points.reduce((s, p) => s + p.conversions, 0),
  };
  const title = `Spend, clicks and conversions, ${formatDateRange(range)}`;
  const summary =
    points.length === 0
      ? "No data for this range."
      : `${points.length} days. Total spend ${formatMoney(totals.costMicros, currencyCode)}, ` +
        `${formatInteger(totals.clicks)} clicks, ${formatDecimal(totals.conversions)} conversions.`;
  const height = TOP + panels.length * PANEL_HEIGHT + (panels.length - 1) * PANEL_GAP + AXIS;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (i: number) => LEFT + (points.length <= 1 ? plotWidth / 2 : (i / (points.length - 1)) * plotWidth);
  const tickIndexes = points.length === 0 ? [] : [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])];

  return (
    <figure className="m-0">
      <dl className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {panels.map((p) => (
          <div key={p.key} className="flex items-center gap-2">
            <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: p.color }} />
            <dt className="text-gray-500">{p.label}</dt>
            <dd className="font-semibold text-gray-900">{p.format(totals[p.key])}</dd>
          </div>
        ))}
      </dl>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        data-testid="performance-chart"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {panels.map((panel, pi) => {
          const top = TOP + pi * (PANEL_HEIGHT + PANEL_GAP);
          const values = points.map((p) => p[panel.key]);
          const max = Math.max(0, ...values);
          const y = (v: number) => top + PANEL_HEIGHT - (max > 0 ? (v / max) * PANEL_HEIGHT : 0);
          const line = values.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
          const area =
            values.length > 1
              ? `${line} L${x(values.length - 1).toFixed(1)},${top + PANEL_HEIGHT} L${x(0).toFixed(1)},${top + PANEL_HEIGHT} Z`
              : "";
          return (
            <g key={panel.key} data-series={panel.label}>
              <text x={LEFT} y={top - 6} fontSize="11" fill="#6b7280">
                {panel.label} · max {panel.format(max)}
              </text>
              <line x1={LEFT} x2={WIDTH - RIGHT} y1={top} y2={top} stroke="#f3f4f6" />
              <line x1={LEFT} x2={WIDTH - RIGHT} y1={top + PANEL_HEIGHT} y2={top + PANEL_HEIGHT} stroke="#e5e7eb" />
              {area ? <path d={area} fill={panel.color} fillOpacity={0.08} /> : null}
              {values.length > 1 ? (
                <path d={line} fill="none" stroke={panel.color} strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
              ) : null}
              {values.length === 1 ? <circle cx={x(0)} cy={y(values[0])} r={3} fill={panel.color} /> : null}
            </g>
          );
        })}
        {tickIndexes.map((i, n) => (
          <text
            key={points[i].date}
            x={x(i)}
            y={height - 6}
            fontSize="11"
            fill="#6b7280"
            textAnchor={n === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}
          >
            {formatDate(points[i].date, { short: true })}
          </text>
        ))}
        {points.length === 0 ? (
          <text x={WIDTH / 2} y={height / 2} fontSize="13" fill="#6b7280" textAnchor="middle">
            No data for this range
          </text>
        ) : null}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {panels.map((p) => (
              <th key={p.key} scope="col">
                {p.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.date}>
              <th scope="row">{formatDate(point.date)}</th>
              {panels.map((p) => (
                <td key={p.key}>{p.format(point[p.key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
