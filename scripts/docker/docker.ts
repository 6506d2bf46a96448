import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { run, waitFor, works, type Result, type RunOptions } from "./shell";

/**
 * Docker as this machine has it, made ready the way a self-hoster on Debian would: the client, a
 * running daemon, a builder that speaks BuildKit (the Dockerfile's build secret needs it) and
 * Compose. Whatever is missing comes from Debian's packages (`docker.io`, `docker-compose`).
 */
export interface Docker {
  /** `docker …` */
  run(args: string[], opts?: RunOptions): Promise<Result>;
  /** `docker build …` through BuildKit, the image loaded into the daemon. */
  build(args: string[], opts?: RunOptions): Promise<Result>;
  /** `docker compose …` (or Debian's `docker-compose`). */
  compose(args: string[], opts?: RunOptions): Promise<Result>;
  /** Stops the daemon if this process started it. */
  close(): Promise<void>;
}

/** Debian's docker.io client (20.10 on bookworm): BuildKit built in, no buildx plugin needed. */
const DEBIAN_CLIENT = "/usr/bin/docker";

let aptUpdated = false;
async function aptInstall(packages: string[]) {
  if (process.getuid?.() !== 0) {
    throw new Error(`Docker is incomplete here and installing it needs root: apt-get install ${packages.join(" ")}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  console.log(`Installing ${packages.join(", ")} from Debian…`);
  if (!aptUpdated) await run("apt-get", ["update", "-qq"], { env });
  aptUpdated = true;
  await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { env });
}

async function clientMajor(cli: string): Promise<number> {
  const { stdout } = await run(cli, ["version", "--format", "{{.Client.Version}}"], { allowFail: true });
  return Number.parseInt(stdout.trim(), 10) || 0;
}

/** A daemon this process started: stopped again at the end, by its own id. */
function startDaemon(): { pid: number; log: string } {
  const log = path.join(os.tmpdir(), "ads-test-dockerd.log");
  const out = fs.openSync(log, "a");
  const child = spawn("dockerd", [], { detached: true, stdio: ["ignore", out, out] });
  child.unref();
  fs.closeSync(out);
  if (!child.pid) throw new Error("dockerd did not start");
  console.log(`Started dockerd (pid ${child.pid}, log ${log})`);
  return { pid: child.pid, log };
}

export async function ensureDocker(): Promise<Docker> {
  if (!(await works("dockerd", ["--version"])) || !(await works("docker", ["--version"]))) await aptInstall(["docker.io"]);

  let started: { pid: number; log: string } | undefined;
  if (!(await works("docker", ["info"]))) {
    started = startDaemon();
    await waitFor("the Docker daemon", async () => ((await works("docker", ["info"])) ? true : undefined), 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${fs.readFileSync(started!.log, "utf8").split("\n").slice(-20).join("\n")}`);
    });
  }

  // A client with BuildKit: the buildx plugin, or a client from before Docker 23 (BuildKit built in).
  let build: (args: string[], opts?: RunOptions) => Promise<Result>;
  if (await works("docker", ["buildx", "version"])) {
    build = (args, opts) => run("docker", ["buildx", "build", "--load", "--progress=plain", ...args], opts);
  } else {
    if ((await clientMajor("docker")) >= 23 && !fs.existsSync(DEBIAN_CLIENT)) await aptInstall(["docker.io"]);
    const cli = (await clientMajor("docker")) < 23 ? "docker" : DEBIAN_CLIENT;
    if ((await clientMajor(cli)) >= 23) throw new Error("No Docker client with BuildKit here: install the buildx plugin (Debian: docker-buildx)");
    build = (args, opts) => run(cli, ["build", "--progress=plain", ...args], { ...opts, env: { ...(opts?.env ?? process.env), DOCKER_BUILDKIT: "1" } });
  }

  let composeCmd: string[];
  if (await works("docker", ["compose", "version"])) composeCmd = ["docker", "compose"];
  else {
    if (!(await works("docker-compose", ["version"]))) await aptInstall(["docker-compose"]);
    composeCmd = ["docker-compose"];
  }

  return {
    run: (args, opts) => run("docker", args, opts),
    build,
    compose: (args, opts) => run(composeCmd[0], [...composeCmd.slice(1), ...args], opts),
    close: async () => {
      if (!started) return;
      const { pid } = started;
      process.kill(pid, "SIGTERM");
      await waitFor("dockerd to stop", async () => (fs.existsSync(`/proc/${pid}`) ? undefined : true), 30_000);
    },
  };
}
