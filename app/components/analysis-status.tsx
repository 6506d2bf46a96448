import { useEffect, useState, type ReactNode } from "react";
import { Link, useLocation, useRevalidator } from "react-router";

/** Whether the recommendations engine is analysing the account now, as pages receive it (plain JSON). */
export interface AnalysisView {
  status: "running" | "idle";
  startedAt: string | null;
}

/** Where the browser polls while an analysis runs (cookie session, the active account). */
export const ANALYSIS_STATUS_PATH = "/analysis";
const POLL_MS = 2000;

/**
 * While an analysis runs, polls the status endpoint (JavaScript on) and
 * revalidates the page once it ends, so the new recommendations and score
 * replace the message without a reload (the sync status's way, sync-status.tsx).
 */
export function useLiveAnalysis(initial: AnalysisView): AnalysisView {
  const [live, setLive] = useState(initial);
  const revalidator = useRevalidator();
  useEffect(() => setLive(initial), [initial]);
  const running = initial.status === "running";
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(ANALYSIS_STATUS_PATH, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (stopped) return;
        if (res.ok) {
          const next = (await res.json()) as AnalysisView;
          if (stopped) return;
          if (next.status !== "running") {
            // The message stays until the page's new data arrives with the results.
            void revalidator.revalidate();
            return;
          }
          setLive(next);
        }
      } catch {
        // A dropped poll is retried on the next tick; the page stays usable.
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    // The revalidator object changes identity on every state change; polling must not restart with it.
    // It does restart with new page data: one that still says "running" (another run started) polls on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, initial]);
  return live;
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
