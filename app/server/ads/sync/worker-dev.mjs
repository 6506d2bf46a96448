// Development and tests: runs the sync worker's TypeScript through tsx (the
// build bundles worker.server.ts as plain JavaScript instead).
import { tsImport } from "tsx/esm/api";

await tsImport("./worker.server.ts", import.meta.url);
