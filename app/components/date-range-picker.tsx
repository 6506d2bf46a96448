import { Form, Link } from "react-router";
import { formatDateRange } from "~/lib/format";

export interface RangePresetLink {
  label: string;
  href: string;
  current: boolean;
}

/**
 * Preset ranges as links plus a custom from/to GET form: both work with
 * JavaScript off, and the chosen range lives in the address, so it can be
 * bookmarked and shared.
 */
export function DateRangePicker({
  action,
  range,
  presets,
  hidden,
  notice,
  max,
}: {
  /** The page's path: a GET form's own address must not carry the old query (or a ?token=). */
  action: string;
  range: { from: string; to: string };
  presets: RangePresetLink[];
  /** The rest of the query, kept when a custom range is applied. */
  hidden: Array<[string, string]>;
  /** Why the range asked for was not used (shown instead of failing). */
  notice?: string | null;
  /** The last selectable day (yesterday in the account's zone). */
  max?: string;
}) {
  const custom = !presets.some((p) => p.current);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-3">
        <nav aria-label="Date range" className="flex overflow-hidden rounded-lg border border-gray-300 bg-white text-sm">
          {presets.map((p) => (
            <Link
              key={p.label}
              to={p.href}
              aria-current={p.current ? "true" : undefined}
              preventScrollReset
              className={`px-3 py-1.5 font-medium ${p.current ? "bg-blue-600 text-white" : "text-gray-700 hover:bg-gray-50"} border-l border-gray-300 first:border-l-0`}
            >
              {p.label}
            </Link>
          ))}
        </nav>
        <Form method="get" action={action} className="flex flex-wrap items-end gap-2" aria-label="Custom date range" preventScrollReset>
          {hidden.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label className="flex flex-col text-xs font-medium text-gray-600">
            From
            <input
              type="date"
              name="from"
              defaultValue={range.from}
              max={max}
              required
              className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
            />
          </label>
          <label className="flex flex-col text-xs font-medium text-gray-600">
            To
            <input
              type="date"
              name="to"
              defaultValue={range.to}
              max={max}
              required
              className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
            />
          </label>
          <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
            Apply range
          </button>
        </Form>
      </div>
      <p className="text-sm text-gray-600" data-testid="range-label">
        {custom ? "Custom range: " : null}
        <span className="font-medium text-gray-900">{formatDateRange(range)}</span>
      </p>
      {notice ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
