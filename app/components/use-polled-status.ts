import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";

const POLL_MS = 2000;

/**
 * While `active`, polls a status document (JavaScript on, the cookie session)
 * every 2 s and revalidates the page once `ended(next)` says the work behind it
 * is done, so the page's new data replaces its message without a reload.
 * Returns the newest state seen; with `showEnd` false the last running state
 * stays shown until the revalidated data arrives. Restarts with new page data
 * (which may still say running: another run started, or another stage).
 */
export function usePolledStatus<T>(path: string, initial: T, active: boolean, ended: (next: T) => boolean, showEnd = true): T {
  const [live, setLive] = useState(initial);
  const revalidator = useRevalidator();
  useEffect(() => setLive(initial), [initial]);
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (stopped) return;
        if (res.ok) {
          const next = (await res.json()) as T;
          if (stopped) return;
          const done = ended(next);
          if (!done || showEnd) setLive(next);
          if (done) {
            void revalidator.revalidate();
            return;
          }
        }
      } catch {
        // A dropped poll is retried on the next tick; the page stays usable.
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    // The revalidator object changes identity on every state change, and `ended` is a new
    // function each render: polling must not restart with either, only with new page data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, initial, path]);
  return live;
}
