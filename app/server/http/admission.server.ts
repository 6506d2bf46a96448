import { AsyncResource } from "node:async_hooks";

/**
 * Fair admission: at most `perTurn` new requests start per event-loop turn,
 * the rest wait in arrival order (ADR 016).
 *
 * Under load Node accepts new connections once per event-loop turn, and one
 * turn runs every request whose bytes arrived in it. With 50 busy keep-alive
 * connections a turn is 50 page renders long, so a newly opened connection
 * waited seconds for its accept() while the open ones were served again and
 * again (measured: p99 3 s at p50 150 ms on /dashboard; a plain http server
 * doing 5 ms of work per request shows the same). Starting one request per
 * turn keeps turns short, so accepts and new clients get their turn within
 * milliseconds, at no cost in throughput: the work is the same, only its order
 * changes.
 */
export function createAdmission(perTurn = 1) {
  const waiting: Array<() => void> = [];
  let startedThisTurn = 0;
  let scheduled = false;

  const nextTurn = () => {
    scheduled = false;
    startedThisTurn = 0;
    while (waiting.length > 0 && startedThisTurn < perTurn) {
      startedThisTurn++;
      waiting.shift()!();
    }
    schedule();
  };
  // Only while something started this turn or waits: an idle server keeps no immediate pending.
  const schedule = () => {
    if (scheduled || (waiting.length === 0 && startedThisTurn === 0)) return;
    scheduled = true;
    setImmediate(nextTurn);
  };

  return {
    /** Runs `start` now if this turn has room and no one waits, else in a later turn, in arrival order. */
    admit(start: () => void) {
      if (startedThisTurn < perTurn && waiting.length === 0) {
        startedThisTurn++;
        start();
      } else {
        // Bound to its own request's async context (the request log's id), not the turn that starts it.
        waiting.push(AsyncResource.bind(start));
      }
      schedule();
    },
    /** Requests waiting for their turn (for tests and the drain). */
    get waiting() {
      return waiting.length;
    },
  };
}

/** Express-style middleware over {@link createAdmission}. */
export function fairAdmission(perTurn = 1) {
  const admission = createAdmission(perTurn);
  return (_req: unknown, _res: unknown, next: () => void) => admission.admit(next);
}
