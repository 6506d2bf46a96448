import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { createDb, migrateToLatest, setDbForTests, type DB } from "~/server/db/db.server";
import { parseConfig, setConfigForTests, type AppConfig } from "~/server/env.server";

/**
 * A fresh, migrated database for one test file: SQLite in a temp dir by
 * default, or a new PostgreSQL database (created and dropped per file) when
 * TEST_DB_DIALECT=postgres, so the same tests prove both.
 */
export const testDialect = process.env.TEST_DB_DIALECT === "postgres" ? "postgres" : "sqlite";

export interface TestContext {
  db: DB;
  config: AppConfig;
  dataDir: string;
  cleanup: () => Promise<void>;
}

export async function setupTestEnvironment(env: Record<string, string> = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-test-"));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (testDialect === "postgres") {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("TEST_DB_DIALECT=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
    const name = `app_test_${randomBytes(6).toString("hex")}`;
    const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: adminUrl, max: 1 }) }) });
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin);
      await admin.destroy();
    };
  }
  const config = parseConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    APP_URL: "http://localhost:3000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  setConfigForTests(config);
  const handle = createDb({ databaseUrl: config.DATABASE_URL, dataDir });
  const { db } = handle;
  await migrateToLatest(db);
  setDbForTests(handle);
  return {
    db,
    config,
    dataDir,
    cleanup: async () => {
      setDbForTests(undefined);
      setConfigForTests(undefined);
      try {
        await db.destroy();
      } finally {
        // Even when closing the pool failed: a PostgreSQL database left behind stays on the machine.
        await dropDatabase();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
