import { Form } from "react-router";

// /settings: the target CPA / ROAS the engine judges campaigns against when
// their bidding strategy has none (otherwise it assumes the 90-day average).

export interface TargetsData {
  accountName: string;
  currencyCode: string;
  targetCpa: number | null;
  targetRoasPercent: number | null;
}

export function OptimizationTargets({ data, errors, values }: { data: TargetsData; errors?: Record<string, string>; values?: Record<string, string> }) {
  const field = (name: "targetCpa" | "targetRoas", label: string, hint: string, current: number | null) => (
    <div>
      <label htmlFor={name} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <input
        id={name}
        name={name}
        inputMode="decimal"
        defaultValue={values?.[name] ?? (current === null ? "" : String(current))}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `${name}-error` : `${name}-hint`}
        className="mt-1 w-40 rounded-lg border border-gray-300 px-3 py-2 text-sm"
      />
      {errors?.[name] ? (
        <p id={`${name}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {errors[name]}
        </p>
      ) : (
        <p id={`${name}-hint`} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="targets-heading">
      <h2 id="targets-heading" className="text-lg font-semibold text-gray-900">
        Optimization targets
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For {data.accountName}: what recommendations judge campaigns against when their bidding strategy sets no target. Empty: the 90-day
        average, shown as “assumed target”.
      </p>
      <Form method="post" className="mt-4 flex flex-wrap items-start gap-6">
        <input type="hidden" name="intent" value="set-targets" />
        {field("targetCpa", `Target CPA (${data.currencyCode})`, "Cost per conversion, e.g. 25", data.targetCpa)}
        {field("targetRoas", "Target ROAS (%)", "Conversion value per cost, e.g. 400", data.targetRoasPercent)}
        <button type="submit" className="mt-6 rounded-lg bg-blue-600 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-700">
          Save targets
        </button>
      </Form>
      {errors?.form ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {errors.form}
        </p>
      ) : null}
    </section>
  );
}
