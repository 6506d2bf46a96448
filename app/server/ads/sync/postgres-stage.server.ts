import { CompiledQuery, sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { copyOver, quote, stageName, writeQueue, WRITES_IN_FLIGHT, type Stager } from "./staging.server";

/**
 * A PostgreSQL sync's staging: TEMP tables of the sync's connection (private
 * to it, gone when it closes), written by the server process while this
 * thread parses the next batch.
 */
export async function createPostgresStager(conn: Kysely<Database>, tables: readonly string[]): Promise<Stager> {
  const counts: Record<string, number> = Object.fromEntries(tables.map((t) => [t, 0]));
  for (const table of tables) {
    const stage = quote(stageName(table));
    await sql.raw(`DROP TABLE IF EXISTS pg_temp.${stage}`).execute(conn);
    await sql.raw(`CREATE TEMP TABLE ${stage} (LIKE ${quote(table)} INCLUDING DEFAULTS)`).execute(conn);
  }

  // One INSERT … SELECT FROM unnest(one array per column) per batch. A VALUES list of 200 rows
  // is a statement of thousands of parameters for the server to parse and plan each time; the
  // arrays make it one statement of a dozen parameters per 10,000 rows.
  const columnTypes = new Map<string, Map<string, string>>();
  for (const table of tables) {
    const { rows } = await sql<{ name: string; type: string }>`
      SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = ${`pg_temp.${quote(stageName(table))}`}::regclass AND attnum > 0 AND NOT attisdropped`.execute(conn);
    columnTypes.set(table, new Map(rows.map((r) => [r.name, r.type])));
  }
  const statements = new Map<string, string>();
  const unnestFor = (table: string, columns: readonly string[]) => {
    const key = `${table}:${columns.join(",")}`;
    let text = statements.get(key);
    if (!text) {
      const types = columnTypes.get(table)!;
      const arrays = columns.map((c, i) => `$${i + 1}::${types.get(c) ?? "text"}[]`);
      text = `insert into ${quote(stageName(table))} (${columns.map(quote).join(",")}) select * from unnest(${arrays.join(",")})`;
      statements.set(key, text);
    }
    return text;
  };
  // pg sends a connection's queries in order: the server inserts a batch while this thread parses the next.
  const writes = writeQueue(WRITES_IN_FLIGHT);

  return {
    async append(table, columns, rows) {
      if (rows.length === 0) return;
      const types = columnTypes.get(table)!;
      const arrays = columns.map((column, c) => arrayLiteral(rows, c, NUMERIC_TYPES.has(types.get(column) ?? "")));
      counts[table] += rows.length;
      await writes.push(conn.executeQuery(CompiledQuery.raw(unnestFor(table, columns), arrays)).then(() => undefined));
    },
    async reset(table) {
      await writes.drain();
      await sql.raw(`DELETE FROM ${quote(stageName(table))}`).execute(conn);
      counts[table] = 0;
    },
    counts: () => ({ ...counts }),
    async switchOver(customerId, claim, derive, scopes) {
      await writes.drain();
      return copyOver(conn, tables, customerId, claim, derive, scopes);
    },
    async dispose() {
      await writes.drain().catch(() => undefined);
    },
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
