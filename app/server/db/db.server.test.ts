import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "./db.server";

describe("SQLite transactions", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  // The sync worker writes through its own connection; a deferred transaction that
  // read before the worker wrote could not write afterwards ("database is locked").
  it("takes the write lock when a transaction begins, so another connection waits its turn", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "db-tx-"));
    dirs.push(dir);
    const { db } = createDb({ dataDir: dir });
    await sql`create table t (x integer)`.execute(db);
    const other = new SQLite(path.join(dir, "app.db"));
    other.pragma("busy_timeout = 0");
    try {
      await db.transaction().execute(async (trx) => {
        await sql`select count(*) from t`.execute(trx);
        expect(() => other.prepare("insert into t values (1)").run()).toThrow(/locked|busy/i);
        await sql`insert into t values (2)`.execute(trx);
      });
      other.prepare("insert into t values (3)").run();
      const rows = await sql<{ x: number }>`select x from t order by x`.execute(db);
      expect(rows.rows.map((r) => r.x)).toEqual([2, 3]);
    } finally {
      other.close();
      await db.destroy();
    }
  });
});
