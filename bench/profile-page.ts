// Profiles one page under load: starts the product as `npm run bench` does, with
// `node --cpu-prof`, signs a user in and connects the demo account, then loads the
// page at 50 connections and summarises the server thread's profile.
//   npx tsx bench/profile-page.ts [/dashboard] [seconds=10]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { ensureBuilds, load, startProduct } from "./http.bench";
import { signUpAndConnect } from "./http-client";

const pathname = process.argv[2] ?? "/dashboard";
const seconds = Number(process.argv[3] ?? 10);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-profile-"));

ensureBuilds();
const app = await startProduct(Number(process.env.BENCH_PORT ?? 3371), {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
try {
  const user = await signUpAndConnect(app.base);
  const cookie = user.browser.cookieHeader(app.base);
  await load("warm", `${app.base}${pathname}`, { seconds: 2, cookie });
  const r = await load(pathname, `${app.base}${pathname}`, { seconds, cookie, pid: app.child.pid });
  console.log(`${pathname}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms, CPU ${r.cpuMsPerRequest?.toFixed(2)} ms/request`);
} finally {
  await app.stop();
}
// The largest profile is the server's main thread (the sync worker's is much smaller once idle).
const [main] = fs
  .readdirSync(dir)
  .map((f) => path.join(dir, f))
  .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
console.log(`profile: ${main}`);
execFileSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "profile-summary.ts"), main, "40", String(seconds)], { stdio: "inherit" });
