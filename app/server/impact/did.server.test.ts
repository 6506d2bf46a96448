// @vitest-environment node
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../tests/support/seeded-random";
import { measure, seedOf, type Day } from "./did.server";

// The method's own properties, over many simulated accounts (each with its own
// noise): a 90 % interval should hold the true effect about 90 % of the time,
// and call an effect that is not there about 10 % of the time. The simulated
// account rises 20 % on the change day; each day has a shock every campaign
// shares and noise of its own.

function normal(random: () => number) {
  return Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
}

function simulate(seed: number, effect: number, { pre = 28, post = 14 } = {}): { pre: Day[]; post: Day[] } {
  const random = seededRandom(seed);
  const days: Day[] = [];
  for (let i = 0; i < pre + post; i++) {
    const after = i >= pre;
    const common = (after ? 1.2 : 1) * (1 + 0.04 * normal(random)) * (i % 7 >= 5 ? 1.1 : 1);
    const treatedCost = 100 * common * (after ? 1 + effect : 1) * (1 + 0.08 * normal(random));
    const controlCost = 600 * common * (1 + 0.03 * normal(random));
    const conv = (base: number) => Math.max(0, base * common * (1 + 0.15 * normal(random)));
    days.push({
      date: `d${i}`,
      treated: [treatedCost, treatedCost / 1.2, conv(4), conv(4) * 60],
      control: [controlCost, controlCost / 1.2, conv(24), conv(24) * 60],
    });
  }
  return { pre: days.slice(0, pre), post: days.slice(pre) };
}

const OPTIONS = { resamples: 1000, confidence: 0.9, valueTracked: true };

describe("difference-in-differences with a bootstrap over days", () => {
  it("holds a planted −30 % cost effect in its interval in about 90 % of accounts; before/after never does", () => {
    let covered = 0;
    let naiveCovered = 0;
    const runs = 120;
    for (let s = 1; s <= runs; s++) {
      const { pre, post } = simulate(s, -0.3);
      const cost = measure(pre, post, { ...OPTIONS, seed: s }).find((m) => m.metric === "cost")!;
      if (cost.interval![0] <= -0.3 && -0.3 <= cost.interval![1]) covered++;
      if (cost.interval![0] <= cost.naive! && cost.naive! <= cost.interval![1]) naiveCovered++;
    }
    expect(covered / runs).toBeGreaterThan(0.8);
    expect(covered / runs).toBeLessThan(0.98);
    expect(naiveCovered).toBe(0);
  });

  it("calls an effect that is not there about 10 % of the time per metric", () => {
    let falseCost = 0;
    let falseConversions = 0;
    const runs = 120;
    for (let s = 1; s <= runs; s++) {
      const { pre, post } = simulate(1000 + s, 0);
      const metrics = measure(pre, post, { ...OPTIONS, seed: s });
      if (metrics.find((m) => m.metric === "cost")!.significant) falseCost++;
      if (metrics.find((m) => m.metric === "conversions")!.significant) falseConversions++;
    }
    expect(falseCost / runs).toBeLessThan(0.2);
    expect(falseConversions / runs).toBeLessThan(0.2);
  });

  it("is reproducible: the same days and seed give the same interval; another seed, nearly the same", () => {
    const { pre, post } = simulate(7, -0.3);
    const a = measure(pre, post, { ...OPTIONS, seed: seedOf("cs:a") });
    expect(measure(pre, post, { ...OPTIONS, seed: seedOf("cs:a") })).toEqual(a);
    const b = measure(pre, post, { ...OPTIONS, seed: seedOf("cs:b") });
    const cost = (ms: typeof a) => ms.find((m) => m.metric === "cost")!;
    expect(cost(b).relative).toBe(cost(a).relative);
    expect(Math.abs(cost(b).interval![0] - cost(a).interval![0])).toBeLessThan(0.02);
  });

  it("credits a paused-then-enabled entity with all it did after, in money, without a percentage", () => {
    const { pre, post } = simulate(9, 0);
    for (const d of pre) d.treated = [0, 0, 0, 0];
    const cost = measure(pre, post, { ...OPTIONS, seed: 1 }).find((m) => m.metric === "cost")!;
    expect(cost.relative).toBeNull();
    expect(cost.expected).toBe(0);
    expect(cost.monthly).toBeCloseTo((post.reduce((s, d) => s + d.treated[0], 0) / post.length) * 30, 6);
    expect(cost.significant).toBe(true);
  });
});
