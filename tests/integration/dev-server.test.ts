// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 25 point 9: `npm run dev` served DATA_DIR over HTTP
 * (`/data/secrets.json` and `/data/app.db` answered 200, enough to forge a
 * session cookie), listened on every interface, and died on the first
 * registration (pino-pretty could not be loaded for the mail's log line, then
 * an unhandled rejection). The real command, on a DATA_DIR inside the project
 * as the default `./data` is.
 */
const STARTUP_MS = 150_000;
const root = process.cwd();
const dataRelative = path.join(".test-output", `dev-${randomBytes(4).toString("hex")}`, "data");
const dataDir = path.join(root, dataRelative);
let child: ChildProcess;
let port: number;
let output = "";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: free } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return free;
}

const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataRelative, LOG_LEVEL: "info" };
  for (const name of ["NODE_ENV", "HOST", "APP_URL", "DATABASE_URL", "TEST_DB_DIALECT", "VITEST", "VITEST_WORKER_ID", "VITEST_POOL_ID"]) delete env[name];
  // Its own process group, so the whole tree (tsx, node) is stopped by this id.
  child = spawn(path.join(root, "node_modules/.bin/tsx"), ["server.ts", "--dev"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + STARTUP_MS - 10_000;
  for (;;) {
    const ok = await fetch(`${base()}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm run dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, STARTUP_MS);

afterAll(() => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("never serves DATA_DIR: the secrets and the database are not files of the site", async () => {
    expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(true);
    const urlPath = `/${dataRelative.split(path.sep).join("/")}`;
    for (const file of [`${urlPath}/secrets.json`, `${urlPath}/app.db`, `${urlPath}/secrets.json?raw`, `/@fs${dataDir}/secrets.json`]) {
      const res = await fetch(`${base()}${file}`);
      expect(res.status, file).toBe(404);
      expect(await res.text(), file).not.toContain("sessionSecret");
    }
    // The app's own sources are still served to the browser.
    expect((await fetch(`${base()}/@vite/client`)).status).toBe(200);
  });

  it("listens on this machine only, unless HOST says otherwise", async () => {
    expect(output).toMatch(/"host":"127\.0\.0\.1"/);
    const outward = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal);
    if (outward) {
      const reached = await fetch(`http://${outward.address}:${port}/healthz`).then(
        () => true,
        () => false,
      );
      expect(reached).toBe(false);
    }
  });

  it("survives the first registration, whose confirmation mail is written to its readable log", { timeout: 30_000 }, async () => {
    const res = await fetch(`${base()}/api/v1/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base() },
      body: JSON.stringify({ email: "first@example.com", password: "first-password" }),
    });
    expect(res.status).toBe(201);
    await expect.poll(() => output, { timeout: 20_000 }).toMatch(/Email to first@example\.com/);
    expect(output).not.toMatch(/unable to determine transport target|Unhandled promise rejection/);
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${base()}/healthz`)).status).toBe(200);
  });
});
