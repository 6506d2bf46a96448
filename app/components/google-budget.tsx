import { formatDateTime, formatInteger } from "~/lib/format";

/** The install's Google Ads API budget as /settings shows it (plain JSON from the loader). */
export interface GoogleBudgetView {
  used: number;
  budget: number;
  backgroundBudget: number;
  intervalMinutes: number;
  pausedUntil: string | null;
  pauseReason: string | null;
}

/**
 * Operations used in the last 24 hours against GOOGLE_ADS_DAILY_OPERATIONS, what scheduled refreshes
 * may use of it, how often accounts are refreshed, and why Google Ads calls are paused when they are.
 */
export function GoogleBudget({ view, timeZone }: { view: GoogleBudgetView; timeZone: string }) {
  const share = view.budget > 0 ? Math.min(100, Math.round((view.used / view.budget) * 100)) : 0;
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="budget-heading">
      <h2 id="budget-heading" className="text-lg font-semibold text-gray-900">
        Google Ads API budget
      </h2>
      <label className="mt-3 block text-sm text-gray-700">
        <span data-testid="operations-used">
          {formatInteger(view.used)} of {formatInteger(view.budget)} operations used in the last 24 hours ({share}%)
        </span>
        <progress className="mt-1 block h-2 w-full" max={view.budget} value={Math.min(view.used, view.budget)} />
      </label>
      <p className="mt-3 text-sm text-gray-600">
        Each account is refreshed every {formatInteger(view.intervalMinutes)} minutes. Scheduled refreshes use at most {formatInteger(view.backgroundBudget)}{" "}
        operations a day; the rest is kept for applying your changes and Sync now.
      </p>
      {view.pausedUntil ? (
        <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Google Ads calls are paused until <time dateTime={view.pausedUntil}>{formatDateTime(view.pausedUntil, timeZone)}</time>
          {view.pauseReason ? `: ${view.pauseReason}` : ""}.
        </p>
      ) : null}
    </section>
  );
}
