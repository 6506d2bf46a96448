// Scoring of `npm run eval:optimizer` (pure, tested in eval/optimizer-score.test.ts):
// a finding is a true positive when an `expect` label of its account has its
// type and names one of its resources; every other finding is a false
// positive (with the refusal's reason when a `refuse` label names it); every
// `expect` label no finding matched is a miss.
import type { EvalAccount, Label } from "./optimizer-accounts";

export interface Finding {
  type: string;
  title: string;
  /** The finding's resource names and ids. */
  names: string[];
}

export interface RuleScore {
  type: string;
  labelled: number;
  found: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

const norm = (s: string) => s.toLowerCase().trim();

/** A label names a finding when one of the finding's resources is the label's entity (a keyword's name carries its match type). */
export function names(label: Label, f: Finding): boolean {
  const entity = norm(label.entity);
  return label.type === f.type && f.names.some((n) => norm(n) === entity || norm(n).replace(/ \((exact|phrase|broad)\)$/, "") === entity);
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);

export function scoreEval(accounts: EvalAccount[], found: Map<string, Finding[]>) {
  const falsePositives: Array<{ archetype: string; type: string; title: string; reason: string }> = [];
  const misses: Array<{ archetype: string; type: string; entity: string; reason: string; instead: string }> = [];
  const rows = new Map<string, { labelled: number; found: number; tp: number; fp: number; fn: number }>();
  const row = (type: string) => {
    let r = rows.get(type);
    if (!r) rows.set(type, (r = { labelled: 0, found: 0, tp: 0, fp: 0, fn: 0 }));
    return r;
  };
  for (const a of accounts) {
    const list = found.get(a.id) ?? [];
    const matched = new Set<Label>();
    for (const f of list) {
      row(f.type).found += 1;
      const label = a.expect.find((l) => !matched.has(l) && names(l, f));
      if (label) {
        matched.add(label);
        row(f.type).tp += 1;
        continue;
      }
      row(f.type).fp += 1;
      const refusal = a.refuse.find((l) => names(l, f));
      falsePositives.push({
        archetype: a.archetype,
        type: f.type,
        title: f.title,
        reason: refusal ? `refused: ${refusal.reason}` : "not labelled: no expert wrote it down for this account",
      });
    }
    for (const l of a.expect) {
      row(l.type).labelled += 1;
      if (matched.has(l)) continue;
      row(l.type).fn += 1;
      const other = list.filter((f) => f.names.some((n) => norm(n).includes(norm(l.entity))));
      misses.push({
        archetype: a.archetype,
        type: l.type,
        entity: l.entity,
        reason: l.reason,
        instead: other.length ? `the engine said instead: ${other.map((f) => `${f.type} (${f.title})`).join("; ")}` : "the engine said nothing about it",
      });
    }
  }
  const perRule: RuleScore[] = [...rows.entries()]
    .sort((x, y) => x[0].localeCompare(y[0]))
    .map(([type, r]) => ({ type, ...r, precision: ratio(r.tp, r.tp + r.fp), recall: ratio(r.tp, r.labelled) }));
  const sum = (k: "labelled" | "found" | "tp" | "fp" | "fn") => perRule.reduce((s, r) => s + r[k], 0);
  const overall = {
    labelled: sum("labelled"),
    found: sum("found"),
    tp: sum("tp"),
    fp: sum("fp"),
    fn: sum("fn"),
    precision: ratio(sum("tp"), sum("tp") + sum("fp")),
    recall: ratio(sum("tp"), sum("labelled")),
  };
  const clean = accounts.filter((a) => a.clean).map((a) => ({ archetype: a.archetype, findings: (found.get(a.id) ?? []).length }));
  return { perRule, overall, clean, falsePositives, misses };
}
