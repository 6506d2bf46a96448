import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { dialectOf, sqliteFileOf } from "../db/db.server";
import { claimSqliteInstance } from "../db/sqlite-instance-lock.server";
import { ensurePrivateDir } from "../data-dir.server";
import { ConfigError, type AppConfig } from "../env.server";

/**
 * Backups (issue 27 point 6). SQLite: SQLite's online backup API copies the
 * database while the server keeps running (readers and the writer go on; the
 * copy is one consistent moment), then the copy is checked. The generated
 * secrets (DATA_DIR/secrets.json, holding the key the Google tokens are
 * encrypted with, unless ENCRYPTION_KEY is set) go beside it: a database
 * without its key cannot use its Google connections. PostgreSQL: pg_dump
 * (PG_DUMP_HOWTO), which the database server does better than the app could.
 */
export const PG_DUMP_HOWTO = [
  "This server uses PostgreSQL (DATABASE_URL): back it up with PostgreSQL's own tools, for example",
  '  pg_dump --format=custom --file=ads-ai-manager-$(date +%Y%m%d-%H%M).dump "$DATABASE_URL"',
  "and restore into an empty database with",
  '  pg_restore --no-owner --dbname="$DATABASE_URL" ads-ai-manager-….dump',
  "(pg-boss's job queue is in the same database, schema pgboss, and comes along). Keep ENCRYPTION_KEY",
  "(or DATA_DIR/secrets.json) with the dump: the Google tokens in it are encrypted with that key.",
].join("\n");

export interface BackupResult {
  file: string;
  bytes: number;
  /** The copy of DATA_DIR/secrets.json beside the backup; null when the keys come from the environment. */
  secretsFile: string | null;
}

function sqliteOnly(config: AppConfig): string {
  if (dialectOf(config.DATABASE_URL) === "postgres") throw new ConfigError(PG_DUMP_HOWTO);
  const file = sqliteFileOf({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  if (file === ":memory:") throw new ConfigError("An in-memory database has nothing to back up or restore");
  return file;
}

const secretsOf = (config: AppConfig) => path.join(config.DATA_DIR, "secrets.json");

/** Copies the live SQLite database to `destination` (default: DATA_DIR/backups/app-<UTC time>.db), then checks the copy. */
export async function backupSqlite(config: AppConfig, destination?: string): Promise<BackupResult> {
  const source = sqliteOnly(config);
  if (!fs.existsSync(source)) throw new ConfigError(`There is no database at ${source} to back up`);
  const file = path.resolve(destination ?? path.join(config.DATA_DIR, "backups", `app-${new Date().toISOString().replace(/[:.]/g, "-")}.db`));
  if (fs.existsSync(file)) throw new ConfigError(`${file} exists already; choose another name`);
  ensurePrivateDir(path.dirname(file));
  const db = new SQLite(source, { fileMustExist: true });
  try {
    // Every page in one step: SQLite restarts a stepwise backup whenever the server writes in between,
    // which a busy server could do forever. One step reads one consistent moment (WAL: writers go on).
    await db.backup(file, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  fs.chmodSync(file, 0o600);
  checkIntegrity(file);
  let secretsFile: string | null = null;
  if (fs.existsSync(secretsOf(config))) {
    secretsFile = `${file}.secrets.json`;
    fs.copyFileSync(secretsOf(config), secretsFile);
    fs.chmodSync(secretsFile, 0o600);
  }
  return { file, bytes: fs.statSync(file).size, secretsFile };
}

/**
 * Puts a backup in place of the database. Refused while a server runs on it
 * (the instance lock), and unless the backup passes SQLite's integrity check.
 * The database it replaces is kept as `<database>.before-restore-<time>`, and
 * so are the secrets the backup's own secrets replace.
 */
export function restoreSqlite(config: AppConfig, backupFile: string): { replaced: string | null } {
  const target = sqliteOnly(config);
  const backup = path.resolve(backupFile);
  if (!fs.existsSync(backup)) throw new ConfigError(`There is no backup at ${backup}`);
  checkIntegrity(backup);
  const release = claimSqliteInstance(target);
  try {
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    let replaced: string | null = null;
    if (fs.existsSync(target)) {
      // A consistent copy of what is replaced (its WAL included), then the files themselves go.
      replaced = `${target}.before-restore-${stamp}`;
      const current = new SQLite(target, { fileMustExist: true });
      try {
        current.pragma("wal_checkpoint(TRUNCATE)");
      } finally {
        current.close();
      }
      fs.renameSync(target, replaced);
    }
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${target}${suffix}`, { force: true });
    ensurePrivateDir(path.dirname(target));
    fs.copyFileSync(backup, `${target}.restoring`);
    fs.chmodSync(`${target}.restoring`, 0o600);
    fs.renameSync(`${target}.restoring`, target);
    const secrets = `${backup}.secrets.json`;
    if (fs.existsSync(secrets)) {
      if (fs.existsSync(secretsOf(config))) fs.renameSync(secretsOf(config), `${secretsOf(config)}.before-restore-${stamp}`);
      fs.copyFileSync(secrets, secretsOf(config));
      fs.chmodSync(secretsOf(config), 0o600);
    }
    return { replaced };
  } finally {
    release();
  }
}

function checkIntegrity(file: string) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma("integrity_check", { simple: true });
    if (result !== "ok") throw new ConfigError(`${file} failed SQLite's integrity check: ${String(result)}`);
  } finally {
    db.close();
  }
}
