// @vitest-environment node
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { claimSqliteInstance } from "./sqlite-instance-lock.server";

// Issue 27: SQLite serves one instance; a second process on the same database file refuses to start.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-lock-"));
const database = path.join(dir, "app.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("refuses a second process on the same SQLite database, and frees it when the first one dies (even by SIGKILL)", async () => {
  const script = `import { claimSqliteInstance } from "./app/server/db/sqlite-instance-lock.server.ts"; claimSqliteInstance(${JSON.stringify(database)}); process.stdout.write("held\\n"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
      child.on("exit", (code) => reject(new Error(`the first instance exited ${code}`)));
    });
    expect(() => claimSqliteInstance(database)).toThrow(
      `Another Ads AI Manager process is already running on the SQLite database ${database}. SQLite serves one instance: stop the other process first, or use PostgreSQL (DATABASE_URL) to run more than one.`,
    );
  } finally {
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
  const release = claimSqliteInstance(database);
  release();
}, 30_000);
