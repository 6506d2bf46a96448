import SQLite from "better-sqlite3";
import { ConfigError } from "../env.server";

/**
 * SQLite serves one app instance: its background jobs run in process, and two
 * processes would each run them. The instance holds an exclusive lock on a
 * small companion file (`<database>.instance`) for as long as it lives; the
 * operating system drops the lock when the process ends, however it ends, so
 * a crash never leaves a stale lock behind. A second process on the same
 * database refuses to start with a message saying why.
 */
export function claimSqliteInstance(databaseFile: string): () => void {
  const file = `${databaseFile}.instance`;
  // No busy wait: another holder means another instance, now.
  const lock = new SQLite(file, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode: the first write's lock is kept until the connection closes.
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("CREATE TABLE IF NOT EXISTS instance (pid INTEGER NOT NULL, started_at TEXT NOT NULL)");
    lock.exec("DELETE FROM instance");
    lock.prepare("INSERT INTO instance (pid, started_at) VALUES (?, ?)").run(process.pid, new Date().toISOString());
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      throw new ConfigError(
        `Another Ads AI Manager process is already running on the SQLite database ${databaseFile}. ` +
          "SQLite serves one instance: stop the other process first, or use PostgreSQL (DATABASE_URL) to run more than one.",
      );
    }
    throw error;
  }
  return () => lock.close();
}
