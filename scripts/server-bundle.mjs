// How the server's code is bundled (esbuild): by scripts/build-server.mjs for the build, and by
// the sync benchmark (bench/run.ts), which measures the sync compiled exactly as the build has it.
// Packages stay external: production runs with node_modules present.
export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "~": "./app" },
  sourcemap: true,
  logLevel: "warning",
};
