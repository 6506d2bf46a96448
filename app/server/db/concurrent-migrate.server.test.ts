import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, migrateToLatest } from "./db.server";

// Instances started together on an empty PostgreSQL database (compose starts both app
// instances at once) each migrate it: one of them used to die of "current transaction is
// aborted" while the other created Kysely's migration tables. Instances of one install
// never share a SQLite file (a second process refuses to start), so this is PostgreSQL's.
const adminUrl = process.env.TEST_DATABASE_URL;
const admin = adminUrl ? new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: adminUrl, max: 1 }) }) }) : null;
const created: string[] = [];

afterAll(async () => {
  for (const name of created) await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin!);
  await admin?.destroy();
});

describe.runIf(process.env.TEST_DB_DIALECT === "postgres" && adminUrl)("migrations on PostgreSQL", () => {
  it("three instances migrating one empty database at the same time all succeed, and each migration runs once", async () => {
    const name = `app_test_race_${randomBytes(6).toString("hex")}`;
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin!);
    created.push(name);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const handles = [0, 1, 2].map(() => createDb({ databaseUrl: url.toString(), dataDir: "/nonexistent" }));
    try {
      const outcomes = await Promise.allSettled(handles.map((h) => migrateToLatest(h.db)));
      expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
      const { rows } = await sql<{ n: string; d: string }>`SELECT count(*) AS n, count(DISTINCT name) AS d FROM kysely_migration`.execute(handles[0].db);
      expect(Number(rows[0].n)).toBe(Number(rows[0].d));
      expect(Number(rows[0].n)).toBeGreaterThan(10);
    } finally {
      await Promise.all(handles.map((h) => h.db.destroy()));
    }
  }, 120_000);
});
