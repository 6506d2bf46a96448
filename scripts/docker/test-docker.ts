/**
 * `npm run test:docker`: proves the Docker image and compose.yaml as a self-hoster would use them
 * (issue 35). Docker is installed and started where it is missing (Debian's packages), the base
 * images are pulled or, where Docker Hub is out of reach, stand-ins are built (and kept for the
 * next run), the project's Dockerfile is built as it is, then tests/docker/*.spec.ts run the image
 * and the compose file with a real browser on this machine. Ends with "Docker: N passed, N failed".
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BASE_IMAGES, ensureBaseImages } from "./base-images";
import { proxyCaFile } from "./build-ca";
import { ensureDocker } from "./docker";

const IMAGE = process.env.ADS_DOCKER_IMAGE ?? "ads-ai-manager:test";
const out = ".test-output";
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

/** BuildKit's plain progress reduced to its steps and their times ("[build 5/7] RUN … npm ci  123.5 s"). */
function buildSteps(progress: string): string {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const line of progress.split("\n")) {
    const step = /^#(\d+) (\[[^\]]+\] .*)$/.exec(line);
    if (step && !names.has(step[1])) names.set(step[1], step[2].replace(/\s+/g, " ").slice(0, 100));
    const done = /^#(\d+) (DONE [\d.]+s|CACHED)$/.exec(line);
    if (done && names.has(done[1]) && !names.get(done[1])!.startsWith("[internal]")) lines.push(`  ${names.get(done[1])}  ${done[2]}`);
  }
  return lines.join("\n");
}

async function main(): Promise<number> {
  const started = Date.now();
  fs.mkdirSync(out, { recursive: true });
  const docker = await ensureDocker();
  try {
    let t = Date.now();
    const origins = await ensureBaseImages(docker, Object.keys(BASE_IMAGES));
    for (const [tag, origin] of Object.entries(origins)) console.log(`${tag}: ${origin}`);
    console.log(`Base images ready in ${seconds(t)}`);

    t = Date.now();
    const ca = proxyCaFile();
    const buildLog = path.join(out, "docker-build.log");
    console.log(`Building ${IMAGE} from the Dockerfile${ca ? ` (with ${ca} for npm ci, build stage only)` : ""}; log in ${buildLog}`);
    const imageId = async () => (await docker.run(["image", "inspect", "--format", "{{.Id}}", IMAGE], { allowFail: true })).stdout.trim();
    const previous = await imageId();
    const build = await docker.build([...(ca ? ["--secret", `id=build_ca,src=${ca}`] : []), "--tag", IMAGE, "."], { allowFail: true });
    fs.writeFileSync(buildLog, `${build.stdout}\n${build.stderr}`);
    if (build.code !== 0) {
      console.log(`${build.stdout}\n${build.stderr}`.trim().split("\n").slice(-40).join("\n"));
      console.log("Docker: 0 passed, 1 failed");
      return 1;
    }
    console.log(`Image built in ${seconds(t)}:\n${buildSteps(build.stdout + build.stderr)}`);
    // The image this tag named before is left untagged by the new build: not kept run after run.
    if (previous && previous !== (await imageId())) await docker.run(["image", "rm", previous], { allowFail: true });

    // Absolute: Playwright resolves a relative name against the config's folder.
    const report = path.resolve(out, "playwright-docker.json");
    fs.rmSync(report, { force: true });
    const res = spawnSync(path.join("node_modules", ".bin", "playwright"), ["test", "--config", "tests/docker/playwright.config.ts"], {
      stdio: "inherit",
      env: { ...process.env, ADS_DOCKER_IMAGE: IMAGE, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    const stats = fs.existsSync(report) ? (JSON.parse(fs.readFileSync(report, "utf8")) as { stats: Record<string, number> }).stats : {};
    const passed = stats.expected ?? 0;
    // A spec that could not even load counts as a failure.
    const failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0) + (res.status !== 0 && !stats.unexpected ? 1 : 0);
    console.log(`\nDocker proof took ${seconds(started)}`);
    console.log(`Docker: ${passed} passed, ${failed} failed`);
    return failed === 0 && passed > 0 ? 0 : 1;
  } finally {
    await docker.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.log("Docker: 0 passed, 1 failed");
    process.exit(1);
  },
);
