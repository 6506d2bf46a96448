// `react-router build`, minus one known-harmless warning.
//
// @react-router/dev 7.18 (pinned: 7.18.5+ of the set needs a newer
// @react-router/serve, v8 needs Node 22) creates its internal Vite servers
// with `envFile: false`, which Vite 8 reports as deprecated once per server:
// eight "The `envFile` option is deprecated, please use `envDir: false`
// instead." lines on every build, including a fresh clone's first `npm start`.
// They are about the framework's own code, not this app's configuration, and
// say nothing the person can act on, so they are dropped here; every other
// line, and the exit code, pass through unchanged.
import { spawn } from "node:child_process";

const HARMLESS = /^The `envFile` option is deprecated, please use `envDir: false` instead\.\s*$/;
const child = spawn(process.execPath, ["node_modules/@react-router/dev/bin.js", "build"], { stdio: ["inherit", "pipe", "pipe"] });

function filter(from, to) {
  let pending = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (!HARMLESS.test(line)) to.write(`${line}\n`);
  });
  from.on("end", () => {
    if (pending && !HARMLESS.test(pending)) to.write(pending);
  });
}
filter(child.stdout, process.stdout);
filter(child.stderr, process.stderr);
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
