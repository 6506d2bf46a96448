import { Form, useNavigation } from "react-router";
import { usePolledStatus } from "./use-polled-status";
import { formatAge, formatDateTime } from "~/lib/format";

/**
 * Keyword, ad and search-term performance: an account's first sync makes the
 * rest of the data available first (status "ok") and imports these right
 * after ("running"); "failed" keeps the rest and says why.
 */
export interface DetailImportView {
  status: "never" | "running" | "ok" | "failed";
  currentStep: string | null;
  lastError: string | null;
  progressDone: number;
  progressTotal: number;
}

/** The sync state as pages receive it (plain JSON, no server types). */
export interface SyncView {
  status: "never" | "running" | "ok" | "failed";
  lastSuccessAt: string | null;
  lastError: string | null;
  progressDone: number;
  progressTotal: number;
  currentStep: string | null;
  detail: DetailImportView;
  /** Google Ads calls are paused for the whole install until then, and why (the daily budget is spent). */
  googlePausedUntil: string | null;
  googlePauseReason: string | null;
}

/** A sync, or a first sync's detail import, is running: what is shown will change when it ends. */
export const syncInProgress = (sync: SyncView) => sync.status === "running" || sync.detail.status === "running";

/** The data is in, its keyword, ad and search-term performance still importing. */
export const importingDetail = (sync: SyncView) => sync.status !== "running" && sync.detail.status === "running";

/** Where the browser polls while a sync runs (cookie session, the active account). */
export const SYNC_STATUS_PATH = "/sync";

/**
 * While a sync runs, polls the status endpoint (JavaScript on) and revalidates
 * the page once it ends, so fresh numbers replace the old ones without a
 * reload; the same while a first sync's detail import runs, revalidating when
 * it ends. Returns the newest state seen, for the progress bar. `enabled`
 * false: the page polls already (one hook per page) and passes the state in.
 */
export function useLiveSync(initial: SyncView, enabled = true): SyncView {
  const running = enabled && syncInProgress(initial);
  // The sync's data (or a first sync's stage 1) is in, or its detail import ended: the page's data changed.
  // The revalidated page polls on if there is more to come (a first sync's stage 1 in: its detail import).
  return usePolledStatus(SYNC_STATUS_PATH, initial, running, (next) => {
    const synced = initial.status === "running" && next.status !== "running";
    const detailDone = initial.detail.status === "running" && next.detail.status !== "running" && next.status !== "running";
    return synced || detailDone;
  });
}

/**
 * "Updated 12 min ago" (accounts are refreshed on a schedule), a Sync now
 * button (a plain POST form), a progress bar while a sync runs, the reason
 * when the last one failed, and why nothing is refreshed while Google Ads
 * calls are paused. With JavaScript off a <noscript> refresh reloads the page
 * every 3 s until the sync ends.
 */
export function SyncStatus({
  sync,
  live: given,
  now,
  timeZone,
  returnTo,
}: {
  sync: SyncView;
  /** The state the page polls itself (useLiveSync), if it does; otherwise this component polls. */
  live?: SyncView;
  /** The server's clock when the page was rendered (ISO), so "… ago" renders the same on both sides. */
  now: string;
  timeZone: string;
  /** Path and query to come back to after Sync now. */
  returnTo: string;
}) {
  const own = useLiveSync(sync, given === undefined);
  const live = given ?? own;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === SYNC_STATUS_PATH;
  const running = live.status === "running";
  return (
    <section aria-label="Data freshness" className="mb-6 rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-sm">
      {sync.status === "running" ? (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-gray-600" data-testid="last-synced">
          {live.lastSuccessAt ? (
            <>
              Updated{" "}
              <time dateTime={live.lastSuccessAt} title={formatDateTime(live.lastSuccessAt, timeZone)}>
                {formatAge(live.lastSuccessAt, now)}
              </time>
            </>
          ) : running ? (
            "Importing your account for the first time…"
          ) : (
            "Not synced yet"
          )}
        </p>
        <Form method="post" action={SYNC_STATUS_PATH}>
          <input type="hidden" name="returnTo" value={returnTo} />
          <button
            type="submit"
            disabled={running || submitting}
            className="rounded-lg border border-gray-300 bg-white px-3 py-1.5 text-sm font-semibold text-gray-700 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {running || submitting ? "Syncing…" : "Sync now"}
          </button>
        </Form>
      </div>
      {running ? <SyncProgress sync={live} /> : null}
      {importingDetail(live) ? (
        <p role="status" className="mt-3 text-sm text-gray-700">
          Your campaigns are ready; keyword, ad and search-term performance is still importing
          {live.detail.currentStep ? ` (${live.detail.currentStep})` : ""}.
        </p>
      ) : null}
      {live.googlePausedUntil ? (
        <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Google Ads calls are paused until <time dateTime={live.googlePausedUntil}>{formatDateTime(live.googlePausedUntil, timeZone)}</time>
          {live.googlePauseReason ? `: ${live.googlePauseReason}` : ""}. Your data is shown as last updated; refreshes and applying changes resume then.
        </p>
      ) : null}
      {live.status === "failed" ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          The last sync failed: {live.lastError ?? "unknown error"}.{live.lastSuccessAt ? " Showing the data from the last successful sync." : null}
        </p>
      ) : live.detail.status === "failed" ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          Keyword, ad and search-term performance could not be imported: {live.detail.lastError ?? "unknown error"}. Your campaigns&apos; data is complete; Sync
          now to try again.
        </p>
      ) : null}
    </section>
  );
}

export function SyncProgress({ sync }: { sync: SyncView }) {
  const known = sync.progressTotal > 0;
  const step = sync.currentStep ? `${sync.currentStep}` : "Starting";
  const label = known ? `Syncing: ${step} (${sync.progressDone} of ${sync.progressTotal})` : `Syncing: ${step}`;
  return (
    <div className="mt-3" role="status">
      <label className="block text-sm text-gray-700">
        <span>{label}</span>
        {/* Without a value the bar is indeterminate: the total is not known yet. */}
        <progress
          className="mt-1 block h-2 w-full"
          max={known ? sync.progressTotal : undefined}
          value={known ? Math.min(sync.progressDone, sync.progressTotal) : undefined}
        />
      </label>
    </div>
  );
}
