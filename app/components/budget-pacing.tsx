import { Form } from "react-router";
import { formatMoney, formatPercent } from "~/lib/format";
import type { Pacing } from "~/lib/pacing";

export type PacingView = Pacing;

const STATUS_TEXT = { on_plan: "On plan", over: "Over plan", under: "Under plan" } as const;
const STATUS_CLASS = { on_plan: "bg-green-100 text-green-800", over: "bg-red-100 text-red-800", under: "bg-amber-100 text-amber-800" } as const;

/** "On plan" / "Over plan +12%" — a spend figure judged against the plan, not against last month. */
export function PacingBadge({ pacing }: { pacing: PacingView }) {
  const off = pacing.status === "on_plan" ? "" : ` ${pacing.offPlanRatio > 0 ? "+" : ""}${formatPercent(pacing.offPlanRatio, 0)}`;
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[pacing.status]}`}
    >{`${STATUS_TEXT[pacing.status]}${off}`}</span>
  );
}

/**
 * The dashboard's budget pacing: the monthly budget (a plain form; empty
 * removes it) and, once set, the month so far, the projection, how far off
 * plan, and the daily budget that lands on plan, offered as a change set.
 */
export function BudgetPacing({ pacing, currencyCode, error }: { pacing: PacingView | null; currencyCode: string; error: string | null }) {
  const money = (m: number) => formatMoney(m, currencyCode);
  return (
    <section className="mt-8 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="pacing-heading">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h2 id="pacing-heading" className="text-lg font-semibold text-gray-900">
          Budget pacing {pacing ? <PacingBadge pacing={pacing} /> : null}
        </h2>
        <Form method="post" className="flex items-end gap-2">
          <input type="hidden" name="intent" value="budget-plan" />
          <label className="flex flex-col text-xs font-medium text-gray-600">
            Monthly budget ({currencyCode})
            <input
              name="monthlyBudget"
              inputMode="decimal"
              defaultValue={pacing ? String(pacing.budgetMicros / 1_000_000) : ""}
              placeholder="e.g. 3000"
              className="mt-0.5 w-32 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
              aria-describedby={error ? "pacing-error" : undefined}
            />
          </label>
          <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
            Save
          </button>
        </Form>
      </div>
      {error ? (
        <p id="pacing-error" role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {pacing ? (
        <>
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Figure label="Spent this month" value={money(pacing.spentMicros)} hint={`Plan to date ${money(pacing.planToDateMicros)}`} />
            <Figure
              label="Projected month-end"
              value={money(pacing.projectedMicros)}
              hint={`${money(pacing.runRateMicros)} a day, ${pacing.daysLeft} days left`}
            />
            <Figure
              label="Against plan"
              value={`${pacing.offPlanMicros >= 0 ? "+" : "−"}${money(Math.abs(pacing.offPlanMicros))}`}
              hint={`${pacing.offPlanRatio >= 0 ? "+" : ""}${formatPercent(pacing.offPlanRatio, 1)} of ${money(pacing.budgetMicros)}`}
            />
            <Figure label="Daily budget to land on plan" value={money(pacing.suggestedDailyMicros)} hint="Across the account" />
          </dl>
          {pacing.status !== "on_plan" ? (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="propose-pacing" />
              <button type="submit" className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-700">
                Propose daily budgets
              </button>
              <span className="ml-2 text-xs text-gray-500">A change set to review; nothing changes until you apply it.</span>
            </Form>
          ) : null}
        </>
      ) : (
        <p className="mt-2 text-sm text-gray-600">Set a monthly budget to see whether the month lands on plan.</p>
      )}
    </section>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div>
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="text-lg font-semibold text-gray-900">{value}</dd>
      <dd className="text-xs text-gray-500">{hint}</dd>
    </div>
  );
}
