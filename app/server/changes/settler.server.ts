import type { DB } from "../db/db.server";
import { reconcileInFlight } from "./pipeline.server";
import { errorMessage, log } from "../log.server";

/**
 * Settles change sets left "applying" (a crash mid-apply, or Google's answer
 * lost) against Google's live state, in the background, until none is left.
 * Runs at start and whenever an apply ends with an unknown outcome; a failure
 * (Google unreachable, a revoked grant) is logged with its real reason and
 * retried with exponential backoff, so a set never stays "applying" for good
 * just because Google was down when the server started.
 */
export interface SettlerOptions {
  db?: DB;
  /** First retry after a failure; doubles up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Passed to reconcileInFlight: how long after approval an intent is left alone. */
  settleMs?: number;
}

interface Settler {
  kick(): void;
  stop(): void;
  /** Resolves once nothing is left to settle (for tests). */
  idle(): Promise<void>;
}

let current: Settler | undefined;

export function startSettling(opts: SettlerOptions = {}): Settler {
  current?.stop();
  const initial = opts.initialDelayMs ?? 5_000;
  const max = opts.maxDelayMs ?? 5 * 60_000;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let waiters: Array<() => void> = [];

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), ms);
    timer.unref?.();
  };

  const run = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let retry = false;
      try {
        const r = await reconcileInFlight({ db: opts.db, settleMs: opts.settleMs });
        if (r.applied + r.failed > 0) log.info(`Settled in-flight changes with Google: ${r.applied} applied, ${r.failed} failed`);
        for (const error of r.errors) log.warn(`Settling change set ${error} (will retry)`);
        retry = r.errors.length > 0;
      } catch (error) {
        log.warn(`Settling in-flight changes failed (will retry): ${errorMessage(error)}`);
        retry = true;
      } finally {
        running = undefined;
      }
      if (again) {
        again = false;
        failures = 0;
        return run();
      }
      if (retry) {
        failures += 1;
        schedule(Math.min(max, initial * 2 ** (failures - 1)));
      } else {
        failures = 0;
        const done = waiters;
        waiters = [];
        for (const resolve of done) resolve();
      }
    })();
    return running;
  };

  const settler: Settler = {
    kick: () => {
      failures = 0;
      schedule(0);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      if (current === settler) current = undefined;
    },
    idle: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
  current = settler;
  schedule(0);
  return settler;
}

/** An apply ended with changes whose outcome is unknown: settle them as soon as possible (no-op before start). */
export function kickSettling() {
  current?.kick();
}

export function stopSettling() {
  current?.stop();
}
