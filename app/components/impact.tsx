import { Link } from "react-router";
import { Pill } from "~/components/change-display";
import { formatDate, formatDecimal, formatMoney } from "~/lib/format";
import {
  METRIC_LABEL,
  VERDICT_LABEL,
  signedPercent,
  wholeMoney,
  type CalibrationRow,
  type ImpactRecord,
  type ImpactVerdict,
  type MetricEffect,
} from "~/lib/impact";
import { RECOMMENDATION_TYPE_LABELS } from "~/lib/recommendations";

// The measured effect of an applied change (ADR 027): its verdict, the small
// before/after chart of the changed entities against the untouched control
// group, and the whole record. Server-rendered SVG and HTML: nothing here
// needs JavaScript.

const VERDICT_TONE: Record<ImpactVerdict, string> = { effect: "blue", no_effect: "gray", too_early: "amber", not_measurable: "gray" };

export function ImpactVerdictBadge({ verdict }: { verdict: ImpactVerdict }) {
  return <Pill tone={VERDICT_TONE[verdict]}>{VERDICT_LABEL[verdict]}</Pill>;
}

type ChartData = Pick<ImpactRecord, "series" | "pre" | "lastChangeDay" | "changeDay">;

/**
 * Daily cost of the changed entities and of the control group, each as a
 * percentage of its own mean before the change, so the two lines start
 * together and part where the change made a difference. The post-period is
 * shaded; the change day(s) marked.
 */
export function ImpactChart({ record, size = "small" }: { record: ChartData; size?: "small" | "large" }) {
  const { series, pre } = record;
  if (!pre || series.length < 2) return null;
  const preDays = series.filter((d) => d.date <= pre.to);
  const mean = (key: "treated" | "control") => preDays.reduce((s, d) => s + d[key], 0) / Math.max(1, preDays.length);
  const base = { treated: mean("treated"), control: mean("control") };
  if (base.treated <= 0 || base.control <= 0) return null;
  const index = (key: "treated" | "control") => series.map((d) => (d[key] / base[key]) * 100);
  const treated = index("treated");
  const control = index("control");
  const values = [...treated, ...control];
  const lo = Math.min(...values, 100);
  const hi = Math.max(...values, 100);
  const [width, height] = size === "small" ? [160, 44] : [600, 160];
  const pad = 4;
  const x = (i: number) => (i / (series.length - 1)) * width;
  const y = (v: number) => pad + (1 - (v - lo) / Math.max(1, hi - lo)) * (height - 2 * pad);
  const path = (list: number[]) => list.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const firstChange = series.findIndex((d) => d.date >= record.changeDay);
  const postStart = series.findIndex((d) => d.date > record.lastChangeDay);
  const label = `Daily cost from ${formatDate(series[0].date)} to ${formatDate(series[series.length - 1].date)}: the changed entities (solid blue) against comparable untouched ones (dashed grey), each as a percentage of its average before the change; the shaded part is after the change.`;
  return (
    <figure className={size === "small" ? "mt-1 w-40" : "mt-3 w-full max-w-2xl"}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className={size === "small" ? "h-11 w-40" : "h-40 w-full"}
        role="img"
        aria-label={label}
        data-testid="impact-chart"
      >
        {postStart > 0 ? <rect x={x(postStart)} y={0} width={width - x(postStart)} height={height} fill="#eff6ff" /> : null}
        <line x1={0} x2={width} y1={y(100)} y2={y(100)} stroke="#e5e7eb" vectorEffect="non-scaling-stroke" />
        {firstChange >= 0 ? (
          <line x1={x(firstChange)} x2={x(firstChange)} y1={0} y2={height} stroke="#9ca3af" strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />
        ) : null}
        <path d={path(control)} fill="none" stroke="#9ca3af" strokeWidth={1.5} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" />
        <path d={path(treated)} fill="none" stroke="#2563eb" strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
      </svg>
      {size === "large" ? (
        <figcaption className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600">
          <span>
            <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-blue-600 align-middle" />
            Changed
          </span>
          <span>
            <span aria-hidden="true" className="mr-1 inline-block w-4 border-t-2 border-dashed border-gray-400 align-middle" />
            Untouched peers
          </span>
          <span>Daily cost, 100 = its average before the change; shaded: after</span>
        </figcaption>
      ) : null}
    </figure>
  );
}

/** History's cell: the verdict, its line and the small chart. */
export function ImpactSummary({ record, href }: { record: ImpactRecord; href: string | null }) {
  return (
    <div className="max-w-xs" data-testid="impact-summary">
      <ImpactVerdictBadge verdict={record.verdict} />
      <p className="mt-1 text-xs text-gray-700">
        {record.verdict === "too_early" && record.nextMeasureOn ? `Measured from ${formatDate(record.nextMeasureOn)}` : record.headline}
      </p>
      {record.together.length ? (
        <p className="mt-0.5 text-xs text-gray-500">
          Measured together with {record.together.length === 1 ? "another change" : `${record.together.length} other changes`} on the same entities.
        </p>
      ) : null}
      <ImpactChart record={record} />
      {href ? (
        <Link to={href} className="text-xs text-blue-700 hover:underline">
          How it was measured
        </Link>
      ) : null}
    </div>
  );
}

function HeadRow({ labels, cell }: { labels: string[]; cell: string }) {
  return (
    <thead className="bg-gray-50">
      <tr>
        {labels.map((h) => (
          <th key={h} scope="col" className={`whitespace-nowrap text-left font-semibold text-gray-700 ${cell}`}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function figure(m: MetricEffect, value: number, currency: string): string {
  // A ratio without its denominator (no conversions after a pause) is not zero: it is undefined.
  if ((m.metric === "cpa" || m.metric === "roas") && value === 0) return "—";
  if (m.metric === "cost" || m.metric === "value" || m.metric === "cpa") return formatMoney(Math.round(value * 1_000_000), currency);
  return formatDecimal(value, m.metric === "clicks" ? 0 : 2);
}

/** The change set page's section: the verdict, the chart, the figures per post-period, the control group and the method. */
export function ImpactRecordSection({ record }: { record: ImpactRecord }) {
  const pct = Math.round(record.method.confidence * 100);
  return (
    <section id="impact" aria-labelledby="impact-heading" className="mb-4 rounded-xl border border-gray-200 bg-white p-4 text-sm shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="impact-heading" className="text-base font-semibold text-gray-900">
          Did it work?
        </h2>
        <ImpactVerdictBadge verdict={record.verdict} />
      </div>
      <p className="mt-2 text-gray-800" data-testid="impact-headline">
        {record.headline}
      </p>
      {record.together.length ? (
        <p className="mt-2 text-gray-700">
          Measured together with{" "}
          {record.together.map((t, i) => (
            <span key={t.subject}>
              {i > 0 ? ", " : ""}
              {t.changeSetId ? (
                <Link to={`/changes/${t.changeSetId}`} className="text-blue-700 hover:underline">
                  {t.title}
                </Link>
              ) : (
                t.title
              )}{" "}
              ({formatDate(t.day)})
            </span>
          ))}
          : they changed the same {record.level?.replace("_", " ") ?? "entities"} within weeks of each other, so their effects cannot be told apart.
        </p>
      ) : null}
      <ImpactChart record={record} size="large" />
      {record.periods.length ? (
        <div className="mt-4 space-y-4">
          {record.periods.map((p) => (
            <div key={p.days}>
              <h3 id={`impact-${p.days}`} className="mb-1 font-medium text-gray-900">
                {p.days} days after ({formatDate(p.from)} – {formatDate(p.to)}) · {p.verdict === "effect" ? "measured effect" : "no measurable effect"}
              </h3>
              <div className="relative overflow-x-auto">
                <table className="min-w-full divide-y divide-gray-200" aria-labelledby={`impact-${p.days}`}>
                  <HeadRow
                    labels={["Per day", "Before", "After", "Expected after", `Effect (${pct} % interval)`, "A month", "Plain before/after"]}
                    cell="px-2 py-1"
                  />
                  <tbody className="divide-y divide-gray-100">
                    {p.metrics.map((m) => (
                      <tr key={m.metric} className={m.significant ? "bg-blue-50/50" : undefined}>
                        <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-medium text-gray-900">
                          {METRIC_LABEL[m.metric]}
                        </th>
                        <td className="px-2 py-1">{figure(m, m.before, record.currencyCode)}</td>
                        <td className="px-2 py-1">{figure(m, m.after, record.currencyCode)}</td>
                        <td className="px-2 py-1">{figure(m, m.expected, record.currencyCode)}</td>
                        <td className="whitespace-nowrap px-2 py-1">
                          {m.relative === null ? "—" : signedPercent(m.relative)}
                          {m.interval ? ` (${signedPercent(m.interval[0])} to ${signedPercent(m.interval[1])})` : ""}
                          {m.significant ? "" : m.interval ? " · unchanged" : ""}
                        </td>
                        <td className="whitespace-nowrap px-2 py-1">
                          {m.monthly === null ? "—" : `${m.monthly < 0 ? "−" : "+"}${figure(m, Math.abs(m.monthly), record.currencyCode)}`}
                        </td>
                        <td className="px-2 py-1 text-gray-500">{m.naive === null ? "—" : signedPercent(m.naive)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ))}
        </div>
      ) : null}
      {record.nextMeasureOn ? <p className="mt-3 text-gray-600">The next post-period is measured from {formatDate(record.nextMeasureOn)}.</p> : null}
      <details className="mt-3">
        <summary className="cursor-pointer font-medium text-blue-700">How it was measured</summary>
        <div className="mt-2 space-y-2 text-gray-700">
          <p>
            <strong>Changed:</strong> {record.treated.map((t) => t.name).join(", ") || "—"}.
          </p>
          <p>
            <strong>Compared with:</strong> {record.control.count} untouched{" "}
            {record.control.count === 1 ? (record.level ?? "entity").replace("_", " ") : `${(record.level ?? "entitie").replace("_", " ")}s`}
            {record.control.names.length ? ` (${record.control.names.join(", ")}${record.control.count > record.control.names.length ? ", …" : ""})` : ""}.{" "}
            {record.control.rule}.
          </p>
          <p>
            <strong>Method:</strong> difference-in-differences on daily figures. The changed entities&apos; figures after the change are compared with what they
            would have been had they moved as the untouched ones did, so a season or a holiday the whole account shares is not credited to the change.{" "}
            {record.pre ? `Before: ${formatDate(record.pre.from)} – ${formatDate(record.pre.to)} (${record.pre.days} days). ` : ""}
            The change day and the last {record.method.lagDays} days of data (conversions still arriving) are left out. The {pct} % interval comes from{" "}
            {record.method.resamples.toLocaleString("en-US")} resamples of the days (seeded: the same figures give the same interval). “Unchanged” means the
            interval spans zero.
          </p>
        </div>
      </details>
    </section>
  );
}

const KIND_UNIT: Record<CalibrationRow["kind"], string> = {
  cost_saved: "Cost saved",
  conversions_gained: "Conversions gained",
  value_gained: "Conversion value gained",
};

/** The score page's table: the engine's estimate against the measured effect per rule type, so estimates that run hot show. */
export function CalibrationTable({ rows, currencyCode }: { rows: CalibrationRow[]; currencyCode: string }) {
  const amount = (row: CalibrationRow, n: number) => (row.kind === "conversions_gained" ? formatDecimal(n, 1) : wholeMoney(n, currencyCode));
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="calibration-heading">
      <h2 id="calibration-heading" className="text-lg font-semibold text-gray-900">
        Estimated vs measured impact
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For each kind of recommendation you applied: what the engine estimated a month, and what was measured against untouched comparable campaigns, ad groups
        or keywords. Below 100 %, the estimates run hot.
      </p>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-gray-500">No recommendation has been applied yet: once one is, its measured effect appears here.</p>
      ) : (
        <div className="relative mt-3 overflow-x-auto">
          <table className="min-w-full divide-y divide-gray-200 text-sm">
            <caption className="sr-only">Estimated and measured impact per recommendation type</caption>
            <HeadRow
              labels={["Recommendation", "Impact", "Applied", "Measured", "Estimated a month", "Measured a month", "Measured ÷ estimated"]}
              cell="px-3 py-2"
            />
            <tbody className="divide-y divide-gray-100">
              {rows.map((r) => (
                <tr key={`${r.type}-${r.kind}`}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-gray-900">
                    {RECOMMENDATION_TYPE_LABELS[r.type] ?? r.type}
                  </th>
                  <td className="px-3 py-2 text-gray-700">{KIND_UNIT[r.kind]}</td>
                  <td className="px-3 py-2">{r.applied}</td>
                  <td className="px-3 py-2">{r.measured === r.applied ? r.measured : `${r.measured} of ${r.applied}`}</td>
                  <td className="px-3 py-2">{r.measured ? amount(r, r.estimated) : "—"}</td>
                  <td className="px-3 py-2">{r.measured ? amount(r, r.actual) : "—"}</td>
                  <td className={`px-3 py-2 ${r.ratio !== null && r.ratio < 0.67 ? "font-medium text-amber-800" : ""}`}>
                    {r.ratio === null ? "—" : `${Math.round(r.ratio * 100)} %${r.ratio < 0.67 ? " · runs hot" : ""}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
