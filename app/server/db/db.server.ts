import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type DatabaseConnection, type Driver } from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { ensurePrivateDir, ensurePrivateFile } from "../data-dir.server";
import { getConfig } from "../env.server";
import { migrations } from "./migrations";
import { installQueues, newPgBoss } from "../jobs/pg-boss-store.server";
import type { Database } from "./schema";
import { log } from "../log.server";

export type DB = Kysely<Database>;
export type Dialect = "sqlite" | "postgres";

// int8 (COUNT(*), SUM over bigint) comes back from pg as a string; every
// int8 the app stores (micros, counts) fits a double exactly.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function dialectOf(url: string | undefined): Dialect {
  return url && /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/**
 * The client under Kysely, for a library that speaks to the database itself
 * (rate-limiter-flexible's stores, limits/limiter.server.ts): the same pool, or
 * the same SQLite connection, so it adds no connection of its own.
 */
export type RawClient = { kind: "postgres"; pool: pg.Pool } | { kind: "sqlite"; database: SQLite.Database };

export interface DbHandle {
  db: DB;
  dialect: Dialect;
  raw: RawClient;
}

export function createDb(opts: { databaseUrl?: string; dataDir: string }): DbHandle {
  const dialect = dialectOf(opts.databaseUrl);
  if (dialect === "postgres") {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next checkout.
    pool.on("error", (error) => log.warn(`PostgreSQL idle client error: ${error.message}`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect, raw: { kind: "postgres", pool } };
  }
  const file = sqliteFileOf(opts);
  if (file !== ":memory:") {
    ensurePrivateDir(path.dirname(file));
    // SQLite gives its -wal and -shm files the database file's mode.
    ensurePrivateFile(file);
  }
  const database = new SQLite(file);
  // WAL: readers don't block the writer; synchronous=NORMAL is crash-safe in WAL mode.
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  // A sync's switch-over holds the write lock for seconds on a big account; a
  // sign-in or an apply waits for it rather than failing.
  database.pragma("busy_timeout = 15000");
  return {
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }) }),
    dialect,
    raw: { kind: "sqlite", database },
  };
}

/** The SQLite database's file (absolute), or ":memory:". */
export function sqliteFileOf(opts: { databaseUrl?: string; dataDir: string }): string {
  const file = opts.databaseUrl?.replace(/^sqlite:(\/\/)?/, "") || path.join(opts.dataDir, "app.db");
  return file === ":memory:" ? file : path.resolve(file);
}

/**
 * Transactions take the write lock when they begin (BEGIN IMMEDIATE). Kysely's
 * plain BEGIN is deferred: a transaction that reads, then writes while another
 * connection (the sync worker) has written meanwhile, fails at once with
 * "database is locked" (SQLITE_BUSY_SNAPSHOT; the busy timeout does not apply
 * to that upgrade). Taking the lock up front makes it wait its turn instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

// Statements longer than this (multi-row INSERTs) are prepared each time: their prepared form is large.
const CACHED_SQL_MAX_LENGTH = 8_000;
const CACHED_STATEMENTS = 300;

/**
 * Kysely's SQLite driver prepares every query afresh; the app's queries are a
 * fixed set of texts, so each is prepared once and reused (a small LRU keyed
 * by SQL). better-sqlite3 frees a statement only when V8 collects it, so
 * reuse also keeps native memory flat. A statement still being iterated is
 * never handed out twice.
 */
function withStatementCache(database: SQLite.Database) {
  const cache = new LRUCache<string, SQLite.Statement>({ max: CACHED_STATEMENTS });
  return {
    close: () => database.close(),
    prepare(text: string) {
      if (text.length > CACHED_SQL_MAX_LENGTH) return database.prepare(text);
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = database.prepare(text);
      if (!cached) cache.set(text, statement);
      return statement;
    },
  };
}

/** Any fixed number: the PostgreSQL advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK = 7_209_114_026;

export async function migrateToLatest(db: DB) {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return runMigrations(db);
  // Instances started together (compose brings both up at once) would each create Kysely's
  // migration tables and run the same migration: PostgreSQL aborts one of them, and that
  // instance failed to start. The lock makes the others wait, then find nothing left to do.
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await runMigrations(db);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}

async function runMigrations(db: DB) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel branches with pre-assigned migration numbers; a
    // database that already ran a later one must still accept an earlier one.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ""}: ${String(error)}`);
  }
  // PostgreSQL's job queue lives in pg-boss's own schema, which pg-boss installs and upgrades (ADR 022).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await installQueues(newPgBoss(db, { work: false }));
}

let instance: DbHandle | undefined;

/** The process-wide database handle. */
export function getDb(): DB {
  if (!instance) {
    const config = getConfig();
    instance = createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  }
  return instance.db;
}

/** The process-wide handle (database, dialect, raw client). */
export function getDbHandle(): DbHandle {
  getDb();
  return instance!;
}

export function setDbForTests(handle: DbHandle | undefined) {
  instance = handle;
}

export async function pingDb(db: DB = getDb()) {
  await sql`select 1`.execute(db);
}

export async function closeDb() {
  await instance?.db.destroy();
  instance = undefined;
}
