import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "./db/db.server";
import { parseConfig } from "./env.server";

// Issue 9 point 9: DATA_DIR was created 0755 and the database 0644.
const mode = (p: string) => fs.statSync(p).mode & 0o777;
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});
function freshRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ads-perm-"));
  roots.push(root);
  return root;
}

describe("DATA_DIR permissions", () => {
  it("a fresh DATA_DIR is 0700 and the generated secrets 0600", () => {
    const dataDir = path.join(freshRoot(), "data");
    parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, "secrets.json"))).toBe(0o600);
  });

  it("the SQLite database and its WAL files are 0600, even one an older version made 0644", async () => {
    const dataDir = path.join(freshRoot(), "data");
    const { db } = createDb({ dataDir });
    await sql`create table t (x integer)`.execute(db);
    await sql`insert into t values (1)`.execute(db);
    expect(mode(dataDir)).toBe(0o700);
    for (const f of ["app.db", "app.db-wal", "app.db-shm"]) expect(mode(path.join(dataDir, f)), f).toBe(0o600);
    await db.destroy();

    fs.chmodSync(path.join(dataDir, "app.db"), 0o644);
    const again = createDb({ dataDir });
    expect(mode(path.join(dataDir, "app.db"))).toBe(0o600);
    await again.db.destroy();
  });
});
