import * as read from "./row-readers.server";

/**
 * Where each column of a large stream's row comes from, said once: the path in
 * Google's row and how its value is read (row-readers.server.ts, exactly as
 * the stream's zod schema accepts and converts it). The batch decoder reads a
 * searchStream batch's bytes by it (batch-decoder.server.ts) and gives up on
 * anything out of the ordinary; that batch then goes through the schema. (A
 * second reader, of rows JSON.parse made, was removed: on the backfill it no
 * longer paid, ADR 021.)
 */

/** How a value is read, and what an unset one gives. */
export type LeafKind =
  | "id"
  | "date"
  | "count"
  | "micros"
  | "optMicros"
  | "double0"
  | "doubleNull"
  | "text"
  | "optText"
  | "enum"
  | "optEnum"
  | "enumOrUnknown"
  | "flag01"
  | "optInt"
  | "criterionIdOf";

export interface Leaf {
  leaf: true;
  column: string;
  kind: LeafKind;
}

export interface Group {
  leaf: false;
  /** A required message: unset, the row is the schema's to judge. */
  required: boolean;
  keys: Record<string, Leaf | Group>;
}

export type RowPlan = Record<string, Group>;

export const leaf = (column: string, kind: LeafKind): Leaf => ({ leaf: true, column, kind });
/** A nested message the row must have (z.object). */
export const group = (keys: Record<string, Leaf | Group>): Group => ({ leaf: false, required: true, keys });
/** A nested message that may be unset (z.object().optional()): its values then read as unset. */
export const optGroup = (keys: Record<string, Leaf | Group>): Group => ({ leaf: false, required: false, keys });

/**
 * Strings this short (ids, dates, enum values) are kept once per batch: JSON
 * gives every row its own copy, and daily rows repeat the same ids many times.
 * Both ways of reading a batch share them so.
 */
export const INTERN_MAX_LENGTH = 40;

/** Unset and the schema refuses the row. */
export const REQUIRED: unknown = Object.freeze({ required: true });

/** "customers/1/adGroupCriteria/22~33" → "33". */
export function criterionIdOf(resourceName: string | undefined): string | null {
  const m = resourceName ? /~(\d+)$/.exec(resourceName) : null;
  return m ? m[1] : null;
}

interface KindReader {
  /** The column's value for a set value (a string, number or boolean as JSON gives it); throws read.NOT_FAST. */
  read: (v: unknown) => unknown;
  /** The column's value when unset, or REQUIRED. */
  unset: unknown;
}

export const KINDS: Record<LeafKind, KindReader> = {
  id: { read: read.id, unset: REQUIRED },
  date: { read: read.date, unset: REQUIRED },
  count: { read: read.count, unset: 0 },
  micros: { read: read.micros, unset: 0 },
  optMicros: { read: (v) => read.optMicros(v) ?? null, unset: null },
  double0: { read: (v) => read.double(v, 0), unset: 0 },
  doubleNull: { read: (v) => read.double(v, null), unset: null },
  text: { read: read.text, unset: REQUIRED },
  optText: { read: read.text, unset: null },
  enum: { read: read.enumOf, unset: REQUIRED },
  optEnum: { read: read.enumOf, unset: null },
  enumOrUnknown: { read: read.enumOf, unset: "UNKNOWN" },
  flag01: { read: (v) => (read.flag(v) ? 1 : 0), unset: 0 },
  optInt: { read: read.optInt, unset: null },
  criterionIdOf: { read: (v) => criterionIdOf(read.text(v)), unset: null },
};

/** A plan with its leaves numbered by column, ready for both readers. */
export interface CompiledNode {
  /** Keys of this message, as bytes for the batch decoder. */
  names: string[];
  bytes: Uint8Array[];
  children: Array<CompiledLeaf | CompiledNode>;
  required: boolean;
  /** This message's number in the row, for spotting a key given twice. */
  index: number;
  leaf: false;
}

export interface CompiledLeaf {
  leaf: true;
  kind: LeafKind;
  at: number;
  read: (v: unknown) => unknown;
  unset: unknown;
}

export interface CompiledPlan {
  root: CompiledNode;
  /** Every leaf, for filling unset values. */
  leaves: CompiledLeaf[];
  /** Messages that must be present, by index. */
  requiredGroups: number[];
  groupCount: number;
  /** Columns in output order; customer_id first. */
  columns: readonly string[];
}

/**
 * Numbers a plan's leaves by `columns` (customer_id first, filled by the
 * caller). Every column but customer_id must come from exactly one leaf.
 */
export function compilePlan(plan: RowPlan, columns: readonly string[]): CompiledPlan {
  if (columns[0] !== "customer_id") throw new Error("a plan's columns start with customer_id");
  const leaves: CompiledLeaf[] = [];
  const requiredGroups: number[] = [];
  let groupCount = 0;
  const compile = (keys: Record<string, Leaf | Group>, required: boolean): CompiledNode => {
    const index = groupCount++;
    if (required) requiredGroups.push(index);
    const names = Object.keys(keys);
    const children = names.map((name): CompiledLeaf | CompiledNode => {
      const node = keys[name];
      if (!node.leaf) return compile(node.keys, node.required);
      const at = columns.indexOf(node.column);
      if (at < 1) throw new Error(`the plan's column ${node.column} is not among the step's columns`);
      const compiled: CompiledLeaf = { leaf: true, kind: node.kind, at, ...KINDS[node.kind] };
      leaves.push(compiled);
      return compiled;
    });
    return { leaf: false, names, bytes: names.map((n) => Buffer.from(n, "latin1")), children, required, index };
  };
  const root = compile(plan, true);
  const covered = new Set(leaves.map((l) => l.at));
  if (covered.size !== leaves.length || covered.size !== columns.length - 1) throw new Error("a plan must give every column but customer_id exactly once");
  if (groupCount > 31) throw new Error("a plan has at most 31 messages");
  return { root, leaves, requiredGroups, groupCount, columns };
}

/** Marks a column not read yet. */
export const UNREAD: unknown = Object.freeze({ unread: true });

/**
 * Fills the columns no key set (their unset value) and gives up (read.NOT_FAST)
 * when a required one is missing.
 */
export function fillUnset(plan: CompiledPlan, out: unknown[]): void {
  const leaves = plan.leaves;
  for (let i = 0; i < leaves.length; i++) {
    const l = leaves[i];
    if (out[l.at] === UNREAD) {
      if (l.unset === REQUIRED) throw read.NOT_FAST;
      out[l.at] = l.unset;
    }
  }
}
