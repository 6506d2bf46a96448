// Bundles server.ts (and the emulator it mounts in demo mode) into build/server.js.
// Packages stay external: production runs with node_modules present.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
await build({
  entryPoints: ["emulator/main.ts"],
  outfile: "build/emulator.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});

// The sync's worker thread (app/server/ads/sync/runner.server.ts loads it beside the server bundle).
await build({
  entryPoints: ["app/server/ads/sync/worker.server.ts"],
  outfile: "build/server/sync-worker.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "~": "./app" },
  sourcemap: true,
  logLevel: "warning",
});

// Lets `npm start` (scripts/ensure-build.mjs) know this build is current.
import fs from "node:fs";
fs.writeFileSync("build/.stamp", new Date().toISOString());
