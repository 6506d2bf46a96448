// Development and tests: runs the demo emulator's worker through tsx (the build bundles mount-worker.ts
// as plain JavaScript instead, build/emulator-worker.js).
import { tsImport } from "tsx/esm/api";

await tsImport("./mount-worker.ts", import.meta.url);
