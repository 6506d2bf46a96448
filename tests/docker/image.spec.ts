import fs from "node:fs";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { extraCertificateMarkers, proxyCaFile } from "../../scripts/docker/build-ca";
import { newUser } from "../e2e/fixtures";
import { answers, attachLogs, becomesHealthy, freePort, getDocker, IMAGE, inspect, seesDemoCampaigns, signInThroughDemo } from "./support";

/**
 * The image as a self-hoster runs it (issue 35): a host port that is not the container's 3000, a
 * named volume for /data, APP_URL the address the browser uses. One container for the file,
 * used in order.
 */
test.describe.configure({ mode: "serial" });

const name = `ads-docker-test-${process.pid}`;
const volume = `${name}-data`;
let baseUrl: string;

test.beforeAll(async () => {
  const docker = await getDocker();
  const port = await freePort();
  expect(port).not.toBe(3000);
  baseUrl = `http://localhost:${port}`;
  await docker.run(["volume", "create", volume]);
  await docker.run([
    "run",
    "--detach",
    "--name",
    name,
    "--publish",
    `127.0.0.1:${port}:3000`,
    "--volume",
    `${volume}:/data`,
    "--env",
    `APP_URL=${baseUrl}`,
    IMAGE,
  ]);
});

// Playwright reads the fixtures from the first parameter's pattern: none are needed here.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachLogs(testInfo, [name]));

test.afterAll(async () => {
  const docker = await getDocker();
  await docker.run(["rm", "--force", name], { allowFail: true });
  await docker.run(["volume", "rm", volume], { allowFail: true });
});

test("answers /healthz and /readyz on the mapped port, and its HEALTHCHECK turns healthy", async () => {
  await answers(baseUrl);
  expect(await (await fetch(`${baseUrl}/healthz`)).json()).toMatchObject({ status: "ok", database: "sqlite", demoMode: true });
  expect(await (await fetch(`${baseUrl}/readyz`)).json()).toMatchObject({ status: "ready" });
  await becomesHealthy(name);
});

test("runs as a user that cannot write the application; only /data is writable", async () => {
  const docker = await getDocker();
  const exec = (script: string) => docker.run(["exec", name, "sh", "-c", script], { allowFail: true });
  // The server itself (PID 1), not only a shell started beside it.
  const status = await exec("cat /proc/1/status");
  const uid = /^Uid:\s+(\d+)/m.exec(status.stdout)?.[1];
  expect(uid).toBeDefined();
  expect(uid).not.toBe("0");
  expect((await exec("cat /proc/1/cmdline | tr '\\0' ' '")).stdout).toContain("node build/server.js");
  expect((await exec("id -u")).stdout.trim()).toBe(uid);

  // Issue 35's second fault: `touch /app/build/x` used to succeed.
  for (const target of ["/app/build/x", "/app/node_modules/x", "/app/x", "/app/scripts/x"]) {
    const touch = await exec(`touch ${target}`);
    expect(touch.code, `touch ${target}`).not.toBe(0);
  }
  const writable = await exec("find /app -writable -print -quit");
  expect(writable.stdout.trim(), "a path under /app the runtime user can write").toBe("");
  expect((await exec("touch /data/probe && rm /data/probe")).code).toBe(0);
});

test("holds no .env, data/, .git, test files, dev dependencies or the build's CA", async () => {
  const docker = await getDocker();
  const top = await docker.run(["run", "--rm", "--entrypoint", "ls", IMAGE, "-A", "/app"]);
  expect(top.stdout.trim().split("\n").sort()).toEqual(["build", "node_modules", "package-lock.json", "package.json", "scripts"]);

  const lock = JSON.parse(fs.readFileSync(path.resolve("package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  const devOnly = Object.entries(lock.packages)
    .filter(([, pkg]) => pkg.dev)
    .map(([where]) => where);
  expect(devOnly.length).toBeGreaterThan(100);
  const ca = proxyCaFile();
  const markers = ca ? extraCertificateMarkers(ca) : [];

  // One pass over the image's files, as root, by the image's own Node.
  const scan = `
    const fs = require("fs"), path = require("path");
    const { devOnly, markers } = JSON.parse(fs.readFileSync(0, "utf8"));
    const out = { forbidden: [], dev: devOnly.filter((p) => fs.existsSync(path.join("/app", p))), ca: [] };
    const FORBIDDEN = /^(\\.env(\\..*)?|\\.git|data|tests?|.*\\.(test|spec)\\.[cm]?[jt]sx?|playwright\\.config\\..*|vitest\\.config\\..*|compose\\.ya?ml|docker|test\\.mjs)$/;
    function walk(dir, own) {
      let entries = [];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        const mine = own && !p.startsWith("/app/node_modules");
        if (mine && FORBIDDEN.test(e.name)) out.forbidden.push(p);
        if (e.isDirectory()) walk(p, own);
        else if (e.isFile() && markers.length) {
          let size = 0;
          try { size = fs.statSync(p).size; } catch {}
          if (size > 0 && size < 20e6) {
            const text = fs.readFileSync(p, "latin1");
            if (markers.some((m) => text.includes(m))) out.ca.push(p);
          }
        }
      }
    }
    walk("/app", true);
    for (const dir of fs.readdirSync("/")) if (!["app", "proc", "sys", "dev"].includes(dir)) walk("/" + dir, false);
    for (const f of [".env", ".git"]) if (fs.existsSync("/" + f)) out.forbidden.push("/" + f);
    console.log(JSON.stringify(out));`;
  const res = await docker.run(["run", "--rm", "-i", "--user", "root", "--entrypoint", "node", IMAGE, "-e", scan], {
    input: JSON.stringify({ devOnly, markers }),
  });
  const found = JSON.parse(res.stdout) as { forbidden: string[]; dev: string[]; ca: string[] };
  expect(found.forbidden).toEqual([]);
  expect(found.dev).toEqual([]);
  expect(found.ca).toEqual([]);
  const env = await docker.run(["image", "inspect", "--format", "{{json .Config.Env}}", IMAGE]);
  expect(env.stdout).not.toMatch(/NODE_EXTRA_CA_CERTS|build_ca/);
});

test("a real browser signs in through the demo and sees the demo account's campaigns", async ({ page }) => {
  await signInThroughDemo(page, baseUrl);
  await seesDemoCampaigns(page, baseUrl);
});

test("an account registered before `docker restart` signs in after it (data kept in the volume)", async ({ page }) => {
  const user = newUser();
  await page.goto(`${baseUrl}/login?mode=register`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your email" }).first()).toBeVisible();

  const startedBefore = await inspect(name, "{{.State.StartedAt}}");
  await (await getDocker()).run(["restart", name]);
  expect(await inspect(name, "{{.State.StartedAt}}")).not.toBe(startedBefore);
  await answers(baseUrl);

  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseUrl}/dashboard`);
  // The demo Google account's grant and data came through the restart too.
  await page.context().clearCookies();
  await signInThroughDemo(page, baseUrl);
  await seesDemoCampaigns(page, baseUrl);
});

test("`docker stop` drains and exits 0 within Docker's timeout", async () => {
  const started = Date.now();
  await (await getDocker()).run(["stop", "--time", "10", name]);
  const took = Date.now() - started;
  expect(took).toBeLessThan(10_000);
  expect(await inspect(name, "{{.State.ExitCode}}")).toBe("0");
  const logs = await (await getDocker()).run(["logs", name]);
  expect(logs.stdout).toContain("received SIGTERM, draining");
  expect(logs.stdout).toMatch(/drained in \d+ ms/);
});
