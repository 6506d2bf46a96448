// @vitest-environment node
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDialect } from "../../../tests/setup/test-db";
import { createDb, migrateToLatest, type DB } from "../db/db.server";
import { claimSqliteInstance } from "../db/sqlite-instance-lock.server";
import { parseConfig, type AppConfig } from "../env.server";
import { backupSqlite, PG_DUMP_HOWTO, restoreSqlite } from "./backup.server";

// Issue 27 point 6: `npm run backup` copies the live SQLite database (online backup) with the key of
// its Google tokens, and `npm run restore` puts a backup back, refused while a server runs on it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-backup-"));
const dataDir = path.join(dir, "data");
let config: AppConfig;
let db: DB;

const userCount = async (handle: DB) =>
  Number(
    (
      await handle
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const addUser = (handle: DB, email: string) =>
  handle
    .insertInto("users")
    .values({
      id: randomUUID(),
      email,
      password_hash: null,
      email_verified_at: null,
      active_customer_id: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .execute();

beforeAll(async () => {
  config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, APP_URL: "http://localhost:3000" });
  db = createDb({ dataDir }).db;
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(testDialect === "sqlite")("SQLite backup and restore", () => {
  it("backs up while the server writes, then restores that moment (refused while a server runs on the database)", async () => {
    for (let i = 0; i < 50; i++) await addUser(db, `before-${i}@example.com`);
    // Writes go on during the backup, as a live server's would.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await addUser(db, `during-${i}@example.com`);
        // Another connection's writes, interleaved with the backup's steps (a server is another process).
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const backup = await backupSqlite(config);
    writing = false;
    await writer;
    expect(backup.file.startsWith(path.join(dataDir, "backups", "app-"))).toBe(true);
    expect(fs.statSync(backup.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(backup.secretsFile!, "utf8"))).toEqual(JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")));
    const inBackup = Number((new SQLite(backup.file, { readonly: true }).prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n);
    expect(inBackup).toBeGreaterThanOrEqual(50);

    // Later: data is lost (a bad change, a broken disk…).
    await db.deleteFrom("users").execute();
    await addUser(db, "after@example.com");

    // A server still runs on the database: refused, nothing touched.
    const dbFile = path.join(dataDir, "app.db");
    const server = claimSqliteInstance(dbFile);
    try {
      expect(() => restoreSqlite(config, backup.file)).toThrow(/Another Ads AI Manager process is already running/);
    } finally {
      server();
    }
    expect(await userCount(db)).toBe(1);

    // The server is stopped (its connection closed), and the backup goes back in place.
    await db.destroy();
    const { replaced } = restoreSqlite(config, backup.file);
    expect(replaced).toMatch(/app\.db\.before-restore-/);
    db = createDb({ dataDir }).db;
    expect(await userCount(db)).toBe(inBackup);
    expect(await db.selectFrom("users").select("email").where("email", "=", "after@example.com").executeTakeFirst()).toBeUndefined();
    // Still migrated and usable.
    await migrateToLatest(db);
    await addUser(db, "after-restore@example.com");
    expect(await userCount(db)).toBe(inBackup + 1);
  });

  it("refuses a file that is not an intact SQLite database, and changes nothing", async () => {
    const junk = path.join(dir, "junk.db");
    fs.writeFileSync(junk, "not a database at all, just text that goes on for a while".repeat(100));
    const before = await userCount(db);
    expect(() => restoreSqlite(config, junk)).toThrow();
    expect(await userCount(db)).toBe(before);
  });

  it("npm run backup's command works as the operator runs it", () => {
    const out = spawnSync(process.execPath, ["--import", "tsx", "app/server/ops/cli.ts", "backup", path.join(dir, "by-hand.db")], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(
      new RegExp(`^Backed up the database to ${path.join(dir, "by-hand.db").replace(/[.]/g, "\\.")} \\(\\d+ bytes; integrity checked\\)\\.`),
    );
  });
});

describe("PostgreSQL", () => {
  it("npm run backup says how to use pg_dump instead", async () => {
    const pgConfig = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/none" });
    await expect(backupSqlite(pgConfig)).rejects.toThrow(PG_DUMP_HOWTO);
    expect(PG_DUMP_HOWTO).toMatch(/pg_dump --format=custom/);
  });
});
