/**
 * Fast readers for the sync's large streams (issue 14: zod per row was a
 * fifth of a sync's CPU). Each reads one value exactly as the stream's zod
 * schema would accept it and converts it the same way; anything else throws
 * NOT_FAST, and the row is then read by its zod schema, which either accepts
 * it after all (same values) or says precisely which field is wrong. So the
 * fast path only ever decides for rows the schema accepts, and the messages
 * stay the schema's.
 */

/** Thrown (one shared object: no stack to capture) when a value is not plainly what the schema accepts. */
export const NOT_FAST: unknown = Object.freeze({ notFast: true });

const INT64_RE = /^-?\d{1,19}$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

type Obj = Record<string, unknown>;

/** A nested message (z.object): a non-null, non-array object. */
export function obj(v: unknown): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw NOT_FAST;
  return v as Obj;
}

/** An optional nested message: undefined stays undefined. */
export function optObj(v: unknown): Obj | undefined {
  return v === undefined ? undefined : obj(v);
}

/** Int64String: an id kept as its decimal string. */
export function id(v: unknown): string {
  if (typeof v !== "string" || !INT64_RE.test(v)) throw NOT_FAST;
  return v;
}

/** Int64 with .default(0): a count as a safe integer. */
export function count(v: unknown): number {
  if (v === undefined) return 0;
  let n: number;
  if (typeof v === "string") {
    if (!INT64_RE.test(v)) throw NOT_FAST;
    n = Number(v);
  } else if (typeof v === "number") n = v;
  else throw NOT_FAST;
  if (!Number.isSafeInteger(n)) throw NOT_FAST;
  return n;
}

/** Micros (optional): an amount in micros; undefined stays undefined. */
export function optMicros(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  let n: number;
  if (typeof v === "string") {
    if (!DECIMAL_RE.test(v)) throw NOT_FAST;
    n = Number(v);
  } else if (typeof v === "number") n = v;
  else throw NOT_FAST;
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) throw NOT_FAST;
  return n;
}

/** Micros with .default(0). */
export function micros(v: unknown): number {
  return optMicros(v) ?? 0;
}

/**
 * Double (optional), then the stream's finiteOr: a finite number, or `fallback`
 * for unset and non-finite values ("NaN", "Infinity" as proto3 JSON spells them).
 */
export function double<T>(v: unknown, fallback: T): number | T {
  if (v === undefined) return fallback;
  let n: number;
  if (typeof v === "number") {
    // z.number() refuses non-finite numbers: the schema reports those.
    if (!Number.isFinite(v)) throw NOT_FAST;
    n = v;
  } else if (typeof v === "string" && (DECIMAL_RE.test(v) || v === "NaN" || v === "Infinity" || v === "-Infinity")) n = Number(v);
  else throw NOT_FAST;
  return Number.isFinite(n) ? n : fallback;
}

/** Enum (required): a non-empty string. */
export function enumOf(v: unknown): string {
  if (typeof v !== "string" || v.length === 0) throw NOT_FAST;
  return v;
}

/** Optional Enum, as a column: null when unset. */
export function optEnum(v: unknown): string | null {
  return v === undefined ? null : enumOf(v);
}

/** z.string() (required). */
export function text(v: unknown): string {
  if (typeof v !== "string") throw NOT_FAST;
  return v;
}

/** Optional z.string(), as a column: null when unset. */
export function optText(v: unknown): string | null {
  return v === undefined ? null : text(v);
}

/** DateString: YYYY-MM-DD. */
export function date(v: unknown): string {
  if (typeof v !== "string" || !DATE_RE.test(v)) throw NOT_FAST;
  return v;
}

/** z.boolean() with .default(false). */
export function flag(v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw NOT_FAST;
  return v;
}

/** z.number().int() (optional), as a column: null when unset. */
export function optInt(v: unknown): number | null {
  if (v === undefined) return null;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw NOT_FAST;
  return v;
}
