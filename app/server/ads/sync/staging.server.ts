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
   * per table, delete the account's rows (those `scopes` says the staged rows
   * replace; default all) and copy the staged ones in, then `derive` (what is
   * computed from the new rows, switched in with them).
   */
  switchOver(
    customerId: string,
    claim: (trx: Kysely<Database>) => Promise<boolean>,
    derive?: (trx: Kysely<Database>) => Promise<void>,
    scopes?: ReplaceScopes,
  ): Promise<boolean>;
  /**
   * Waits for writes still in flight, their failures unreported (the stage is given up or done), so
   * the connection is idle when the job goes on; after a switch-over or a failure.
   */
  dispose(): Promise<void>;
}

/**
 * Which of the account's rows a table's staged rows replace (an incremental refresh re-reads part of a table):
 * - all: every row (a full read);
 * - days: the daily rows from `from` on (re-read) and those before `keepFrom` (fallen out of the window);
 * - keys: the rows sharing `columns` with a staged row (entities re-read because they changed).
 */
export type ReplaceScope = { kind: "all" } | { kind: "days"; keepFrom: string; from: string } | { kind: "keys"; columns: readonly string[] };
export type ReplaceScopes = Readonly<Record<string, ReplaceScope>>;

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
  scopes: ReplaceScopes = {},
): Promise<boolean> {
  return conn.transaction().execute(async (trx) => {
    if (!(await claim(trx))) return false;
    for (const table of tables) {
      await deleteReplaced(trx, table, customerId, scopes[table] ?? { kind: "all" });
      // The staging table was made from this one (same columns, same order).
      await sql.raw(`INSERT INTO ${quote(table)} SELECT * FROM ${quote(stageName(table))}`).execute(trx);
    }
    await derive?.(trx);
    return true;
  });
}

function deleteReplaced(trx: Kysely<Database>, table: string, customerId: string, scope: ReplaceScope) {
  const live = sql.table(table);
  switch (scope.kind) {
    case "all":
      return sql`DELETE FROM ${live} WHERE customer_id = ${customerId}`.execute(trx);
    case "days":
      return sql`DELETE FROM ${live} WHERE customer_id = ${customerId} AND (date < ${scope.keepFrom} OR date >= ${scope.from})`.execute(trx);
    case "keys": {
      // The live table by its own name (SQLite's DELETE takes no alias); the staged rows are all this account's.
      const same = scope.columns.map((c) => `s.${quote(c)} = ${quote(table)}.${quote(c)}`).join(" AND ");
      return sql`DELETE FROM ${live} WHERE customer_id = ${customerId} AND EXISTS (SELECT 1 FROM ${sql.raw(quote(stageName(table)))} s WHERE ${sql.raw(same)})`.execute(
        trx,
      );
    }
  }
}
