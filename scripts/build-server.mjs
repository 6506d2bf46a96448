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

// Lets `npm start` (scripts/ensure-build.mjs) know this build is current.
import fs from "node:fs";
fs.writeFileSync("build/.stamp", new Date().toISOString());
