// Bundles server.ts (and the emulator it mounts in demo mode) into build/server.js.
// Packages stay external: production runs with node_modules present.
import { build } from "esbuild";
import { serverBundleOptions } from "./server-bundle.mjs";

await build({ ...serverBundleOptions, entryPoints: ["server.ts"], outfile: "build/server.js" });
await build({ ...serverBundleOptions, entryPoints: ["emulator/main.ts"], outfile: "build/emulator.js" });

// The demo emulator's worker thread (emulator/mount-host.ts loads it beside build/server.js).
await build({ ...serverBundleOptions, entryPoints: ["emulator/mount-worker.ts"], outfile: "build/emulator-worker.js" });

// The sync's worker thread (app/server/ads/sync/runner.server.ts loads it beside the server bundle).
await build({ ...serverBundleOptions, entryPoints: ["app/server/ads/sync/worker.server.ts"], outfile: "build/server/sync-worker.js" });

// The operator's commands (npm run backup / restore / rotate-key), runnable where the server runs.
await build({ ...serverBundleOptions, entryPoints: ["app/server/ops/cli.ts"], outfile: "build/ops.js" });

// Lets `npm start` (scripts/ensure-build.mjs) know this build is current.
import fs from "node:fs";
fs.writeFileSync("build/.stamp", new Date().toISOString());
