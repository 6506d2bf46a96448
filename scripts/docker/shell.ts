import { spawn } from "node:child_process";

/**
 * Test support for the Docker proof (`npm run test:docker`): commands run as a self-hoster would
 * type them, their output kept for the failure message.
 */
export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the command's standard input. */
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Show the output as it comes (long builds), besides keeping it. */
  echo?: boolean;
  /** A failing exit code is returned instead of thrown. */
  allowFail?: boolean;
}

export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const stdin = opts.input === undefined ? "ignore" : "pipe";
    const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: [stdin, "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (opts.echo) process.stdout.write(d);
    });
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const result = { code: code ?? (signal ? 128 : 1), stdout, stderr };
      if (result.code !== 0 && !opts.allowFail) {
        const tail = `${stdout}\n${stderr}`.trim().split("\n").slice(-30).join("\n");
        reject(new Error(`\`${cmd} ${args.join(" ")}\` exited ${result.code}:\n${tail}`));
      } else resolve(result);
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}

/** Whether a command exists and answers (exit 0). */
export async function works(cmd: string, args: string[]): Promise<boolean> {
  try {
    return (await run(cmd, args, { allowFail: true })).code === 0;
  } catch {
    return false;
  }
}

/** Polls `check` until it returns a value (not undefined), failing with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
