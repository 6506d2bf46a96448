import { CompiledQuery, sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";

/**
 * Where a sync writes while it runs: one staging table per synced table, in
 * the sync's own connection (TEMP tables: private to that connection, without
 * indexes, gone when it closes, and on SQLite in a separate file, so staging
 * takes no lock on the database the pages read and write). Rows arrive in
 * batches and go in with multi-row INSERTs through statements prepared once.
 * At the end `switchOver` replaces the account's rows with the staged ones in
 * one transaction, inside the database (INSERT … SELECT): the previous data
 * stays in place, untouched, until that commit.
 */

export type Dialect = "sqlite" | "postgres";

// Rows per INSERT: enough to amortise the round trip, small enough that the
// statement (and SQLite's prepared form of it) stays small.
const ROWS_PER_STATEMENT = 200;
// pg's limit on parameters per statement.
const PG_MAX_PARAMS = 65_535;

const stageName = (table: string) => `stage_${table}`;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface Stager {
  /** Appends rows (values in `columns` order) to the table's staging copy. */
  append(table: string, columns: readonly string[], rows: unknown[][]): Promise<void>;
  /** Empties one table's staging copy (a stream that starts over). */
  reset(table: string): Promise<void>;
  /** Rows staged per table so far. */
  counts(): Record<string, number>;
}

export async function createStager(conn: Kysely<Database>, dialect: Dialect, tables: readonly string[]): Promise<Stager> {
  const counts: Record<string, number> = Object.fromEntries(tables.map((t) => [t, 0]));
  if (dialect === "sqlite") {
    // Staged rows in a file, not in memory: the largest accounts stage over a million rows.
    await sql`PRAGMA temp_store = FILE`.execute(conn);
  }
  for (const table of tables) {
    const stage = quote(stageName(table));
    await sql.raw(`DROP TABLE IF EXISTS ${dialect === "postgres" ? "pg_temp." : "temp."}${stage}`).execute(conn);
    await sql
      .raw(
        dialect === "postgres"
          ? `CREATE TEMP TABLE ${stage} (LIKE ${quote(table)} INCLUDING DEFAULTS)`
          : `CREATE TEMP TABLE ${stage} AS SELECT * FROM main.${quote(table)} WHERE 0`,
      )
      .execute(conn);
  }

  const statements = new Map<string, string>();
  // PostgreSQL: one INSERT … SELECT FROM unnest(one array per column) per batch. A VALUES list
  // of 200 rows is a statement of thousands of parameters for the server to parse and plan
  // each time; the arrays make it one statement of a dozen parameters per 10,000 rows.
  const columnTypes = new Map<string, Map<string, string>>();
  if (dialect === "postgres") {
    for (const table of tables) {
      const { rows } = await sql<{ name: string; type: string }>`
        SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = ${`pg_temp.${quote(stageName(table))}`}::regclass AND attnum > 0 AND NOT attisdropped`.execute(conn);
      columnTypes.set(table, new Map(rows.map((r) => [r.name, r.type])));
    }
  }
  const unnestFor = (table: string, columns: readonly string[]) => {
    const key = `${table}:unnest`;
    let text = statements.get(key);
    if (!text) {
      const types = columnTypes.get(table)!;
      const arrays = columns.map((c, i) => `$${i + 1}::${types.get(c) ?? "text"}[]`);
      text = `insert into ${quote(stageName(table))} (${columns.map(quote).join(",")}) select * from unnest(${arrays.join(",")})`;
      statements.set(key, text);
    }
    return text;
  };

  const statementFor = (table: string, columns: readonly string[], count: number) => {
    const key = `${table}:${count}`;
    let text = statements.get(key);
    if (!text) {
      const width = columns.length;
      const tuples: string[] = [];
      for (let r = 0; r < count; r++) {
        const marks: string[] = [];
        for (let c = 0; c < width; c++) marks.push(dialect === "postgres" ? `$${r * width + c + 1}` : "?");
        tuples.push(`(${marks.join(",")})`);
      }
      text = `insert into ${quote(stageName(table))} (${columns.map(quote).join(",")}) values ${tuples.join(",")}`;
      statements.set(key, text);
    }
    return text;
  };

  return {
    async append(table, columns, rows) {
      if (rows.length === 0) return;
      const width = columns.length;
      if (dialect === "postgres") {
        const types = columnTypes.get(table)!;
        const arrays = columns.map((column, c) => arrayLiteral(rows, c, NUMERIC_TYPES.has(types.get(column) ?? "")));
        await conn.executeQuery(CompiledQuery.raw(unnestFor(table, columns), arrays));
        counts[table] += rows.length;
        return;
      }
      const per = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(PG_MAX_PARAMS / width)));
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
  };
}

const NUMERIC_TYPES = new Set(["bigint", "integer", "smallint", "double precision", "real", "numeric"]);
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/**
 * Column `c` of the rows as a PostgreSQL array literal ('{1,2,NULL}', '{"a","b\\"c"}'), built
 * here rather than by pg's generic per-element conversion (the bulk of a batch's cost in JS).
 */
function arrayLiteral(rows: unknown[][], c: number, numeric: boolean): string {
  const parts = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const v = rows[r][c];
    if (v === null || v === undefined) parts[r] = "NULL";
    else if (numeric) parts[r] = typeof v === "boolean" ? (v ? "1" : "0") : String(v);
    else {
      const text = String(v);
      parts[r] = NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, "\\$&")}"` : `"${text}"`;
    }
  }
  return `{${parts.join(",")}}`;
}

/**
 * In one transaction: `claim` (false aborts: the sync lost its claim), then,
 * per table, delete the account's rows and copy the staged ones in, then
 * `derive` (what is computed from the new rows, switched in with them).
 */
export async function switchOver(
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
