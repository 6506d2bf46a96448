import { CompiledQuery, sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { copyOver, quote, stageName, type Stager } from "./staging.server";

/**
 * A SQLite sync's staging: TEMP tables of the sync's connection (private to
 * it, without indexes, gone when it closes, and in a file of their own, so
 * staging takes no lock on the database the pages read and write), filled by
 * multi-row INSERTs through statements prepared once (db.server.ts caches
 * them by text).
 *
 * Writing them from a second thread, so the next batch is parsed while the
 * last is inserted, was tried and measured slower on the 2-core bench machine
 * (ADR 013, amendment): the cores were already busy, and handing batches over cost more
 * than it saved.
 */

// Rows per INSERT: enough to amortise the statement, small enough that its prepared form stays small.
const ROWS_PER_STATEMENT = 200;
// SQLite's default limit on a statement's parameters.
const MAX_PARAMS = 32_766;

export async function createSqliteStager(conn: Kysely<Database>, tables: readonly string[]): Promise<Stager> {
  const counts: Record<string, number> = Object.fromEntries(tables.map((t) => [t, 0]));
  // Staged rows in a file, not in memory: the largest accounts stage over a million rows.
  await sql`PRAGMA temp_store = FILE`.execute(conn);
  for (const table of tables) {
    const stage = quote(stageName(table));
    await sql.raw(`DROP TABLE IF EXISTS temp.${stage}`).execute(conn);
    // Same columns, same order, same affinities as the table it stages for.
    await sql.raw(`CREATE TEMP TABLE ${stage} AS SELECT * FROM main.${quote(table)} WHERE 0`).execute(conn);
  }

  const statements = new Map<string, string>();
  const statementFor = (table: string, columns: readonly string[], count: number) => {
    const key = `${table}:${columns.join(",")}:${count}`;
    let text = statements.get(key);
    if (!text) {
      const row = `(${columns.map(() => "?").join(",")})`;
      text = `insert into ${quote(stageName(table))} (${columns.map(quote).join(",")}) values ${Array<string>(count).fill(row).join(",")}`;
      statements.set(key, text);
    }
    return text;
  };

  return {
    async append(table, columns, rows) {
      const width = columns.length;
      const per = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(MAX_PARAMS / width)));
      for (let i = 0; i < rows.length; i += per) {
        const count = Math.min(per, rows.length - i);
        const params = new Array<unknown>(count * width);
        for (let r = 0; r < count; r++) {
          const row = rows[i + r];
          for (let c = 0; c < width; c++) params[r * width + c] = row[c];
        }
        await conn.executeQuery(CompiledQuery.raw(statementFor(table, columns, count), params));
      }
      counts[table] += rows.length;
    },
    async reset(table) {
      await sql.raw(`DELETE FROM ${quote(stageName(table))}`).execute(conn);
      counts[table] = 0;
    },
    counts: () => ({ ...counts }),
    switchOver: (customerId, claim, derive, scopes) => copyOver(conn, tables, customerId, claim, derive, scopes),
    // TEMP tables go with the connection; the next sync's drops them first anyway.
    dispose: async () => {},
  };
}
