// `npm start` on a fresh clone must just work: build when there is no build
// or when sources changed since the last one, otherwise start at once.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const stamp = "build/.stamp";
const sources = ["app", "emulator", "server.ts", "package-lock.json", "vite.config.ts", "react-router.config.ts", "public"];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

// A production image carries the build but neither sources nor build tools.
const canBuild = fs.existsSync("node_modules/.bin/react-router");
const built = fs.existsSync(stamp) && fs.existsSync("build/server.js") ? fs.statSync(stamp).mtimeMs : 0;
const changed = sources.some((s) => newest(s) > built);
if (!canBuild) {
  if (!fs.existsSync("build/server.js")) {
    console.error("No build found and no build tools installed: run `npm ci && npm run build` first.");
    process.exit(1);
  }
} else if (!built || changed) {
  console.log(built ? "Sources changed since the last build; rebuilding…" : "No build yet; building…");
  execSync("npm run build", { stdio: "inherit" });
}
