import { Form } from "react-router";
import type { FormResult } from "~/lib/form-result";
import { TargetsForm } from "~/lib/targets-form";
import { errorAria, FieldMessage, useSchemaForm } from "./forms";

// /settings: the target CPA / ROAS the engine judges campaigns against when
// their bidding strategy has none (otherwise it compares them with the account's other campaigns).

export interface TargetsData {
  accountName: string;
  currencyCode: string;
  targetCpa: number | null;
  targetRoasPercent: number | null;
}

export function OptimizationTargets({ data, lastResult }: { data: TargetsData; lastResult?: FormResult }) {
  const [form, fields] = useSchemaForm(TargetsForm, { id: "targets", lastResult });
  const field = (name: "targetCpa" | "targetRoas", label: string, hint: string, current: number | null) => {
    const meta = fields[name];
    const hintId = `${meta.id}-hint`;
    return (
      <div>
        <label htmlFor={meta.id} className="block text-sm font-medium text-gray-700">
          {label}
        </label>
        <input
          id={meta.id}
          name={meta.name}
          key={meta.key}
          inputMode="decimal"
          defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : current === null ? "" : String(current)}
          {...errorAria(meta, meta.errors?.length ? undefined : hintId)}
          className="mt-1 w-40 rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        {meta.errors?.length ? (
          <FieldMessage field={meta} className="mt-1 text-sm text-red-700" />
        ) : (
          <p id={hintId} className="mt-1 text-xs text-gray-500">
            {hint}
          </p>
        )}
      </div>
    );
  };
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="targets-heading">
      <h2 id="targets-heading" className="text-lg font-semibold text-gray-900">
        Optimization targets
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For {data.accountName}: what recommendations judge campaigns against when their bidding strategy sets no target. Empty: each campaign is compared with
        the account&apos;s other campaigns of its channel (“account reference”), and bids are only cut when far above it.
      </p>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="mt-4 flex flex-wrap items-start gap-6">
        <input type="hidden" name="intent" value="set-targets" />
        {field("targetCpa", `Target CPA (${data.currencyCode})`, "Cost per conversion, e.g. 25", data.targetCpa)}
        {field("targetRoas", "Target ROAS (%)", "Conversion value per cost, e.g. 400", data.targetRoasPercent)}
        <button type="submit" className="mt-6 rounded-lg bg-blue-600 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-700">
          Save targets
        </button>
      </Form>
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="mt-2 text-sm text-red-700">
          {form.errors[0]}
        </p>
      ) : null}
    </section>
  );
}
