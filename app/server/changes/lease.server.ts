import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";
import { ConflictError } from "../domain-errors.server";
import { errorMessage, log } from "../log.server";

/**
 * Who may write a change set's outcome (issue 27 point 2). Applying or
 * settling a set means holding its lease: taken with a conditional update (two
 * workers cannot both win), renewed every LEASE_BEAT_MS while the work goes on,
 * and checked in the same transaction as every outcome it writes. A holder
 * that dies stops renewing; LEASE_MS later any instance may take the set over
 * and settle it from Google's live state (never sending anything again).
 */
export const LEASE_MS = 30_000;
const LEASE_BEAT_MS = 10_000;

export interface Lease {
  setId: string;
  holder: string;
}

/** The lease ran out and another worker holds the set now: this worker must not write or send anything more. */
export class LeaseLostError extends ConflictError {
  constructor(setId: string) {
    super(`Change set ${setId} is being settled by another process; nothing more was sent from here`);
  }
}

export const newLease = (setId: string, kind: string): Lease => ({ setId, holder: `${kind}:${randomUUID()}` });

export const leaseUntil = (nowMs: number) => new Date(nowMs + LEASE_MS).toISOString();

/**
 * Takes the lease of a set that is "applying" and that nobody holds (or whose
 * holder's lease ran out). False when someone holds it or it is not applying.
 */
export async function takeLease(db: DB, lease: Lease, nowMs = Date.now()): Promise<boolean> {
  const now = new Date(nowMs).toISOString();
  const r = await db
    .updateTable("change_sets")
    .set({ lease_holder: lease.holder, lease_expires_at: leaseUntil(nowMs) })
    .where("id", "=", lease.setId)
    .where("status", "=", "applying")
    .where((eb) => eb.or([eb("lease_holder", "is", null), eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Runs `write` in a transaction that first renews the lease: it commits only
 * while the lease is still this holder's (the renewal also locks the row, so
 * nobody takes the set over until it commits). Throws LeaseLostError otherwise.
 */
export async function asHolder<T>(db: DB, lease: Lease, write: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("change_sets")
      .set({ lease_expires_at: leaseUntil(Date.now()) })
      .where("id", "=", lease.setId)
      .where("lease_holder", "=", lease.holder)
      .where("status", "=", "applying")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new LeaseLostError(lease.setId);
    return write(trx);
  });
}

/** Lets go of the lease now (the work stopped without an outcome): the set may be settled by the next worker at once. */
export async function releaseLease(db: DB, lease: Lease): Promise<void> {
  await db
    .updateTable("change_sets")
    .set({ lease_holder: null, lease_expires_at: null })
    .where("id", "=", lease.setId)
    .where("lease_holder", "=", lease.holder)
    .execute();
}

/** Renews the lease every LEASE_BEAT_MS until `stop()`; a renewal that finds the lease gone is logged, and the next outcome write fails. */
export function keepLease(db: DB, lease: Lease): { stop: () => void } {
  const timer = setInterval(() => {
    void db
      .updateTable("change_sets")
      .set({ lease_expires_at: leaseUntil(Date.now()) })
      .where("id", "=", lease.setId)
      .where("lease_holder", "=", lease.holder)
      .where("status", "=", "applying")
      .executeTakeFirst()
      .then((r) => {
        if (Number(r.numUpdatedRows) !== 1) log.warn(`Change set ${lease.setId}: the lease of ${lease.holder} is gone`);
      })
      .catch((error: unknown) => log.warn(`Change set ${lease.setId}: could not renew its lease: ${errorMessage(error)}`));
  }, LEASE_BEAT_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
