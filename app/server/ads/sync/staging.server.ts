import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";

/** What the ways of staging a sync's rows share (bulk-insert.server.ts chooses one). */

export type Dialect = "sqlite" | "postgres";

export interface Stager {
  /**
   * Queues rows (values in `columns` order) for the table's staging copy.
   * Resolves once it is taken, which may be before they are written: a
   * failed write rejects a later append, `reset` or the switch-over.
   */
  append(table: string, columns: readonly string[], rows: unknown[][]): Promise<void>;
  /** Empties one table's staging copy (a stream that starts over). */
  reset(table: string): Promise<void>;
  /** Rows staged per table so far. */
  counts(): Record<string, number>;
  /**
   * In one transaction: `claim` (false aborts: the sync lost its claim), then,
   * per table, delete the account's rows and copy the staged ones in, then
   * `derive` (what is computed from the new rows, switched in with them).
   */
  switchOver(customerId: string, claim: (trx: Kysely<Database>) => Promise<boolean>, derive?: (trx: Kysely<Database>) => Promise<void>): Promise<boolean>;
  /**
   * Waits for writes still in flight, their failures unreported (the stage is given up or done), so
   * the connection is idle when the job goes on; after a switch-over or a failure.
   */
  dispose(): Promise<void>;
}

// Batches written while the next is parsed: one in the database's hands, one waiting.
export const WRITES_IN_FLIGHT = 2;

export const stageName = (table: string) => `stage_${table}`;
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes that may run while the caller goes on, at most `limit` at a time; the
 * first failure is thrown by the next push or by drain.
 */
export function writeQueue(limit: number) {
  const inflight: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  const rethrow = () => {
    if (failure) throw failure.error;
  };
  return {
    async push(write: Promise<void>): Promise<void> {
      rethrow();
      // Marked handled now; the failure is thrown where the caller awaits.
      write.catch((error: unknown) => (failure ??= { error }));
      inflight.push(write);
      while (inflight.length >= limit) await inflight.shift();
    },
    async drain(): Promise<void> {
      while (inflight.length > 0) await inflight.shift()!.catch(() => undefined);
      rethrow();
    },
  };
}

/** The switch-over's transaction (Stager.switchOver), copying from the staging tables of `conn`. */
export function copyOver(
  conn: Kysely<Database>,
  tables: readonly string[],
  customerId: string,
  claim: (trx: Kysely<Database>) => Promise<boolean>,
  derive?: (trx: Kysely<Database>) => Promise<void>,
): Promise<boolean> {
  return conn.transaction().execute(async (trx) => {
    if (!(await claim(trx))) return false;
    for (const table of tables) {
      await sql`DELETE FROM ${sql.table(table)} WHERE customer_id = ${customerId}`.execute(trx);
      // The staging table was made from this one (same columns, same order).
      await sql.raw(`INSERT INTO ${quote(table)} SELECT * FROM ${quote(stageName(table))}`).execute(trx);
    }
    await derive?.(trx);
    return true;
  });
}
