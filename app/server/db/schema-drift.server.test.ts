// @vitest-environment node
import path from "node:path";
import { sql } from "kysely";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../tests/setup/test-db";

/**
 * The table types in schema.ts are written by hand beside the migrations, and
 * nothing else ties them (issue 30, point 4; ADR 030): this migrates a fresh
 * database (SQLite, or PostgreSQL under TEST_DB_DIALECT=postgres) and compares
 * every table and column the migrations made with the `Database` interface,
 * read by the TypeScript compiler, names and nullability alike.
 */

type Columns = Map<string, { nullable: boolean }>;

/** Tables one dialect's migrations create and the other's do not (0130: the job queue is pg-boss's on PostgreSQL). */
const ONLY_ON: Record<string, "sqlite" | "postgres"> = { jobs: "sqlite", job_leases: "postgres" };

const SCHEMA_FILE = path.resolve(__dirname, "schema.ts");

/** Every table of `Database` in schema.ts with its columns; a column is nullable when its selected type admits null. */
function declaredTables(): Map<string, Columns> {
  const configFile = ts.readConfigFile(path.resolve(__dirname, "../../../tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, path.resolve(__dirname, "../../.."));
  const program = ts.createProgram([SCHEMA_FILE], { ...options, types: [], noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Database");
  if (!database) throw new Error("schema.ts has no `Database` interface");
  const tables = new Map<string, Columns>();
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(database))) {
    const columns: Columns = new Map();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      let type = checker.getTypeOfSymbol(column);
      // Generated<T> and ColumnType<S, I, U> are objects whose __select__ is what a query reads.
      const select = type.getProperty("__select__");
      if (select) type = checker.getTypeOfSymbol(select);
      const parts = type.isUnion() ? type.types : [type];
      const nullable = parts.some((t) => (t.flags & ts.TypeFlags.Null) !== 0) || (column.flags & ts.SymbolFlags.Optional) !== 0;
      columns.set(column.name, { nullable });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** What the migrations made: every table (PostgreSQL's public schema; pg-boss keeps its own) with its columns. */
async function migratedTables(ctx: TestContext): Promise<Map<string, Columns>> {
  const tables = new Map<string, Columns>();
  for (const table of await ctx.db.introspection.getTables()) {
    if (table.isView || (testDialect === "postgres" && table.schema !== "public")) continue;
    // SQLite lets a non-INTEGER PRIMARY KEY column hold NULL unless it says NOT NULL; the app never
    // writes one, and PostgreSQL (the same migration) refuses it, so such a column counts as NOT NULL.
    const primaryKey = new Set<string>();
    if (testDialect === "sqlite") {
      const info = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table.name})`.execute(ctx.db);
      for (const row of info.rows) if (row.pk > 0) primaryKey.add(row.name);
    }
    tables.set(table.name, new Map(table.columns.map((c) => [c.name, { nullable: c.isNullable && !primaryKey.has(c.name) }])));
  }
  return tables;
}

describe(`schema.ts against the migrated database (${testDialect})`, () => {
  let ctx: TestContext;
  let declared: Map<string, Columns>;
  let migrated: Map<string, Columns>;

  beforeAll(async () => {
    ctx = await setupTestEnvironment();
    declared = declaredTables();
    migrated = await migratedTables(ctx);
  }, 60_000);
  afterAll(() => ctx?.cleanup());

  it("declares every table the migrations create, and no other", () => {
    const expected = [...declared.keys()].filter((t) => (ONLY_ON[t] ?? testDialect) === testDialect).sort();
    expect([...migrated.keys()].sort()).toEqual(expected);
    // The dialect exceptions are real: the other dialect's table is absent here.
    for (const [table, dialect] of Object.entries(ONLY_ON)) expect(migrated.has(table)).toBe(dialect === testDialect);
  });

  it("declares every column of every table, and no other", () => {
    const drift: string[] = [];
    for (const [table, columns] of migrated) {
      const types = declared.get(table);
      if (!types) continue;
      for (const column of columns.keys()) if (!types.has(column)) drift.push(`${table}.${column}: in the database, not in schema.ts`);
      for (const column of types.keys()) if (!columns.has(column)) drift.push(`${table}.${column}: in schema.ts, not in the database`);
    }
    expect(drift).toEqual([]);
  });

  it("gives every column the nullability of the database's column", () => {
    const drift: string[] = [];
    for (const [table, columns] of migrated) {
      for (const [column, { nullable }] of columns) {
        const declaredColumn = declared.get(table)?.get(column);
        if (declaredColumn && declaredColumn.nullable !== nullable)
          drift.push(
            `${table}.${column}: ${nullable ? "NULL allowed" : "NOT NULL"} in the database, ${declaredColumn.nullable ? "nullable" : "not nullable"} in schema.ts`,
          );
      }
    }
    expect(drift).toEqual([]);
  });
});
