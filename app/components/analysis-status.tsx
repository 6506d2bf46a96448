import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { usePolledStatus } from "./use-polled-status";

/** Whether the recommendations engine is analysing the account now, as pages receive it (plain JSON). */
export interface AnalysisView {
  status: "running" | "idle";
  startedAt: string | null;
}

/** Where the browser polls while an analysis runs (cookie session, the active account). */
export const ANALYSIS_STATUS_PATH = "/analysis";

/**
 * While an analysis runs, polls the status endpoint (JavaScript on) and
 * revalidates the page once it ends, so the new recommendations and score
 * replace the message without a reload (the sync status's way, sync-status.tsx).
 */
export function useLiveAnalysis(initial: AnalysisView): AnalysisView {
  // The message stays until the page's new data arrives with the results.
  return usePolledStatus(ANALYSIS_STATUS_PATH, initial, initial.status === "running", (next) => next.status !== "running", false);
}

/**
 * "Analysing your data…" in a polite live region, while an analysis is in
 * flight. With JavaScript on the page polls and updates itself; with it off a
 * <noscript> refresh reloads the page every 3 s, and a link does it at once.
 */
export function AnalysisRunning({ children, className }: { children: ReactNode; className?: string }) {
  const { pathname, search, hash } = useLocation();
  return (
    <div role="status" aria-live="polite" className={className}>
      <noscript>
        <meta httpEquiv="refresh" content="3" />
      </noscript>
      {children}{" "}
      <Link to={`${pathname}${search}${hash}`} className="font-semibold text-blue-700 hover:underline">
        Refresh
      </Link>
    </div>
  );
}
