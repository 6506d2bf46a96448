import type { Server } from "node:http";

/**
 * Graceful shutdown. Work that must not be cut off (an apply to Google: a
 * half-sent change set is left for reconcile, but finishing it is better) runs
 * inside `trackWork`; on SIGTERM `drainServer` stops accepting connections,
 * lets in-flight requests and tracked work finish, bounded by a timeout, and
 * reports whether everything finished in time.
 */

const inFlight = new Set<Promise<unknown>>();
let draining = false;

/** Runs `fn` and counts it as in-flight work that shutdown waits for. */
export function trackWork<T>(fn: () => Promise<T>): Promise<T> {
  const run = fn();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  inFlight.add(settled);
  void settled.then(() => inFlight.delete(settled));
  return run;
}

export function isDraining(): boolean {
  return draining;
}

/** Tracked work still running (for tests and logs). */
export function inFlightWork(): number {
  return inFlight.size;
}

async function allWorkSettled(): Promise<void> {
  // New work can start while earlier work finishes (an apply started by a request already in flight).
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

export interface DrainResult {
  /** Every request and tracked piece of work finished before the timeout. */
  clean: boolean;
  ms: number;
}

/**
 * Stops accepting connections, closes idle keep-alive connections (busy ones
 * are closed after their response: see `connectionCloseWhileDraining`), then
 * waits for the server's connections and for tracked work, at most
 * `timeoutMs`.
 */
export async function drainServer(server: Server, timeoutMs: number): Promise<DrainResult> {
  const started = performance.now();
  draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A request in flight can end on a connection that then sits idle; keep closing those.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    const clean = await Promise.race([Promise.all([closed, allWorkSettled()]).then(() => true as const), timedOut]);
    return { clean, ms: Math.round(performance.now() - started) };
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/** Express/Connect middleware: while draining, every response closes its connection. */
export function connectionCloseWhileDraining(_req: unknown, res: { setHeader(name: string, value: string): unknown }, next: () => void) {
  if (draining) res.setHeader("Connection", "close");
  next();
}

/** Tests only. */
export function resetDrainForTests() {
  draining = false;
  inFlight.clear();
}
