// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the
// most self time, and the same grouped by package or app file.
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [lastSeconds]
// lastSeconds: only the profile's final seconds (e.g. the load phase, after a sync).
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const lastSeconds = Number(process.argv[4] ?? 0);
// Sample i happened at the sum of timeDeltas[0..i]; keep those in the final lastSeconds.
const at: number[] = [];
let clock = 0;
for (const d of profile.timeDeltas) at.push((clock += d));
const from = lastSeconds > 0 ? clock - lastSeconds * 1e6 : -Infinity;
const selfMs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  if (at[i] < from) continue;
  selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith("node:")) return url;
  if (!url) return "(native/VM)";
  return url.replace(/^file:\/\/.*?\/(build|app|emulator|bench)\//, "$1/");
};
const fn = new Map<string, number>();
const pkg = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const n = byId.get(id)!;
  const name = n.callFrame.functionName || "(anonymous)";
  const key = `${name}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + ms);
  const p = ["(idle)", "(program)", "(garbage collector)"].includes(name) ? name : where(n.callFrame.url);
  pkg.set(p, (pkg.get(p) ?? 0) + ms);
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${v.toFixed(0).padStart(8)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(1)} s sampled`);
show("By package / file (self time)", pkg);
show("By function (self time)", fn);

// Inclusive time of the app's own functions (the server build): where a request's time goes.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    if (!/build\/server\/index\.js|\/app\//.test(n.callFrame.url)) continue;
    const key = `${n.callFrame.functionName || "(anonymous)"}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  }
}
show("App functions (inclusive time)", inclusive);
