// @vitest-environment node
import { describe, expect, it } from "vitest";
import { EVAL_ACCOUNTS, EVAL_CUSTOMERS, type EvalAccount } from "../../../eval/optimizer-accounts";
import { scoreEval, type Finding } from "../../../eval/optimizer-score";

// The scoring behind `npm run eval:optimizer` (eval/optimizer.ts), and the
// shape of its labelled library (issue 28: at least eight archetypes).

const account: EvalAccount = {
  id: "1",
  archetype: "Shop",
  expect: [
    { type: "wasted_keyword", entity: "tent footprint", reason: "no sale" },
    { type: "negative_ngram", entity: "free", reason: "freebies" },
  ],
  refuse: [{ type: "negative_ngram", entity: "tent", reason: "the product" }],
};
const clean: EvalAccount = { id: "2", archetype: "Clean", clean: true, expect: [], refuse: [] };
const f = (type: string, ...names: string[]): Finding => ({ type, title: `${type} ${names[0]}`, names });

describe("scoreEval", () => {
  it("counts true positives by type and entity, false positives with the refusal's reason, misses with what was said instead", () => {
    const found = new Map<string, Finding[]>([
      ["1", [f("wasted_keyword", "tent footprint (broad)", "1~2"), f("negative_ngram", "tent", "Search | Tents"), f("bid_adjustment", "free", "1~3")]],
      ["2", [f("weak_ad", "Dentist")]],
    ]);
    const r = scoreEval([account, clean], found);
    expect(r.overall).toEqual({ labelled: 2, found: 4, tp: 1, fp: 3, fn: 1, precision: 0.25, recall: 0.5 });
    expect(r.perRule.find((x) => x.type === "wasted_keyword")).toMatchObject({ tp: 1, fp: 0, precision: 1, recall: 1 });
    expect(r.perRule.find((x) => x.type === "negative_ngram")).toMatchObject({ labelled: 1, tp: 0, fp: 1, fn: 1, precision: 0, recall: 0 });
    expect(r.falsePositives.map((x) => x.reason)).toEqual([
      "refused: the product",
      "not labelled: no expert wrote it down for this account",
      "not labelled: no expert wrote it down for this account",
    ]);
    expect(r.misses).toEqual([expect.objectContaining({ type: "negative_ngram", entity: "free", instead: expect.stringContaining("bid_adjustment") })]);
    expect(r.clean).toEqual([{ archetype: "Clean", findings: 1 }]);
  });

  it("a finding is matched once: a second finding of the same label is a false positive", () => {
    const r = scoreEval([account], new Map([["1", [f("wasted_keyword", "tent footprint"), f("wasted_keyword", "tent footprint")]]]));
    expect(r.overall).toMatchObject({ tp: 1, fp: 1, fn: 1 });
  });
});

describe("the labelled library", () => {
  it("has at least eight archetypes, each account served, clean ones without expectations", () => {
    expect(new Set(EVAL_ACCOUNTS.map((a) => a.archetype.split(":")[0])).size).toBeGreaterThanOrEqual(8);
    const served = new Set(EVAL_CUSTOMERS.map((c) => String(c.id)));
    for (const a of EVAL_ACCOUNTS) {
      expect(served.has(a.id), a.archetype).toBe(true);
      if (a.clean) expect(a.expect, a.archetype).toEqual([]);
      for (const l of [...a.expect, ...a.refuse]) expect(l.reason.length, `${a.archetype}: ${l.entity}`).toBeGreaterThan(5);
    }
    expect(EVAL_ACCOUNTS.filter((a) => a.clean).length).toBeGreaterThanOrEqual(1);
  });
});
