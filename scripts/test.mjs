// `npm test`: the whole suite, in the order a failure is cheapest to find.
//   1. typecheck, lint, format  2. unit + integration on SQLite  3. the same DB tests on PostgreSQL
//   (when TEST_DATABASE_URL is set)  4. build  5. end-to-end in Chromium against the built app.
// Ends with one plain summary line: "Tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const out = ".test-output";
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
let stepFailed = false;

// Each step's wall time, so a run creeping towards CI's time limit shows where.
const timings = [];
const started = Date.now();

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const t0 = Date.now();
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  timings.push(`${title} ${Math.round((Date.now() - t0) / 1000)} s`);
  if (res.status !== 0) {
    console.log(`--- ${title}: FAILED (exit ${res.status ?? res.signal})`);
    stepFailed = true;
  }
  return res.status === 0;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += report.stats?.expected ?? 0;
  failed += (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
}

const bin = (name) => path.join("node_modules", ".bin", name);

if (run("typecheck", bin("react-router"), ["typegen"])) run("typecheck", bin("tsc"), []);

// The linter with the design's layer boundaries (eslint.config.js); a failure counts like a failed test.
if (run("lint", bin("eslint"), ["."])) passed += 1;
else failed += 1;

// One code style (.prettierrc.json; prose and generated files are in .prettierignore): `npm run format` fixes it.
if (run("format", bin("prettier"), ["--check", "."])) passed += 1;
else failed += 1;

run("unit + integration (SQLite)", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}/vitest-sqlite.json`]);
countVitest(`${out}/vitest-sqlite.json`);

/**
 * The test files TEST_DB_DIALECT switches: those that open their database
 * through tests/setup/test-db, or read TEST_DB_DIALECT themselves. The rest (pure units, SQLite-only files) would
 * only run a second time for nothing.
 */
function databaseTestFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name) && /setup\/test-db|TEST_DB_DIALECT === /.test(fs.readFileSync(file, "utf8"))) files.push(file);
    }
  };
  for (const dir of ["app", "emulator", "tests/integration"]) walk(dir);
  return files.sort();
}

if (process.env.TEST_DATABASE_URL) {
  run(
    "database tests (PostgreSQL)",
    bin("vitest"),
    ["run", ...databaseTestFiles(), "--reporter=default", "--reporter=json", `--outputFile.json=${out}/vitest-postgres.json`],
    { TEST_DB_DIALECT: "postgres" },
  );
  countVitest(`${out}/vitest-postgres.json`);
} else {
  console.log("\n=== database tests (PostgreSQL): OFF — set TEST_DATABASE_URL=postgres://user@host:5432/db to run them ===");
}

if (run("build", "npm", ["run", "build"])) {
  run("end-to-end (Chromium)", bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json` });
  countPlaywright(`${out}/playwright.json`);
}

console.log(`\nTook ${Math.round((Date.now() - started) / 1000)} s: ${timings.join(", ")}`);
console.log(`\nTests: ${passed} passed, ${failed} failed`);
process.exit(stepFailed || failed > 0 ? 1 : 0);
