import { useEffect } from "react";
import { useRevalidator } from "react-router";

const EVERY_MS = 2000;

/**
 * While `active` (the page's data says background work it shows is not done),
 * reloads the page's data every 2 s, so its result replaces the message without
 * a reload. Without JavaScript the page offers a link instead.
 */
export function useRevalidateWhile(active: boolean) {
  const revalidator = useRevalidator();
  const idle = revalidator.state === "idle";
  useEffect(() => {
    if (!active || !idle) return;
    const timer = setTimeout(() => void revalidator.revalidate(), EVERY_MS);
    return () => clearTimeout(timer);
    // The revalidator changes identity on every state change: the timer restarts only when the data or the state does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, idle]);
}
