// CPU busy time per second for several V8 .cpuprofile files side by side, on
// their shared clock: which thread or process was the bottleneck when (for
// instance the sync's thread against the emulator's process in a profile
// from `BENCH_CPU_PROF=<dir> BENCH_ONLY=sync npm run bench`).
//   npx tsx bench/profile-timeline.ts <a.cpuprofile> <b.cpuprofile> …
// Each column is one file (named by its pid.thread), each row one second: ms not idle.
import fs from "node:fs";

interface Profile {
  startTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

const files = process.argv.slice(2);
if (files.length === 0) throw new Error("usage: profile-timeline.ts <file.cpuprofile>…");
const profiles = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as Profile);
// V8 stamps profiles with a monotonic clock that processes share.
const t0 = Math.min(...profiles.map((p) => p.startTime));
const columns = profiles.map((p) => {
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const busy: number[] = [];
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    if (idle.has(p.samples[i])) continue;
    const second = Math.floor((t - t0) / 1e6);
    busy[second] = (busy[second] ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1e3;
  }
  return busy;
});
const names = files.map((f) => /\.(\d+\.\d+)\.\d+\.cpuprofile$/.exec(f)?.[1] ?? f);
const width = Math.max(8, ...names.map((n) => n.length + 2));
console.log(`s    ${names.map((n) => n.padStart(width)).join("")}`);
const seconds = Math.max(...columns.map((c) => c.length));
for (let s = 0; s < seconds; s++) console.log(`${String(s).padEnd(5)}${columns.map((c) => String(Math.round(c[s] ?? 0)).padStart(width)).join("")}`);
