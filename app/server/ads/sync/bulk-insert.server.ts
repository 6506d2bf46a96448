import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { createPostgresStager } from "./postgres-stage.server";
import { createSqliteStager } from "./sqlite-stage.server";
import type { Dialect, Stager } from "./staging.server";

/**
 * Where a sync writes while it runs: one staging table per synced table.
 * Rows arrive in batches; at the end `switchOver` replaces the account's rows
 * with the staged ones in one transaction, inside the database (INSERT …
 * SELECT): the previous data stays in place, untouched, until that commit.
 *
 * Both keep them in TEMP tables of the sync's own connection
 * (sqlite-stage.server.ts, postgres-stage.server.ts); PostgreSQL's server
 * inserts a batch while this thread parses the next.
 */

export type { Dialect, ReplaceScope, ReplaceScopes, Stager } from "./staging.server";

export async function createStager(conn: Kysely<Database>, dialect: Dialect, tables: readonly string[]): Promise<Stager> {
  return dialect === "sqlite" ? createSqliteStager(conn, tables) : createPostgresStager(conn, tables);
}

/** Runs `work` with a stager for `tables`, and lets go of the stager after it, whatever happens. */
export async function withStager<T>(conn: Kysely<Database>, dialect: Dialect, tables: readonly string[], work: (stager: Stager) => Promise<T>): Promise<T> {
  const stager = await createStager(conn, dialect, tables);
  try {
    return await work(stager);
  } finally {
    await stager.dispose();
  }
}
