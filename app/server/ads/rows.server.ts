import { z } from "zod";
import { AdsResponseError } from "./errors.server";

/**
 * Result rows are proto3 JSON: camelCase, nested by resource
 * ({campaign: {id}, metrics: {costMicros}}), int64 as strings, doubles as
 * numbers, unset fields omitted. These helpers read them without trusting them.
 */
export type GoogleAdsRow = Record<string, unknown>;

const INT64_RE = /^-?\d{1,19}$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function preview(value: unknown): string {
  const text = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  return text === undefined ? String(value) : text.slice(0, 40);
}

/**
 * An int64 field ("12450") as a number. Throws rather than lose precision past
 * 2^53, and on anything that isn't an integer. Missing values throw unless a
 * fallback is given (unset fields are omitted, so a fallback is often right).
 */
export function int64(value: unknown, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw new AdsResponseError("expected an int64 value, got nothing");
  }
  const n = typeof value === "number" ? value : typeof value === "string" && INT64_RE.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new AdsResponseError(`expected an int64 value, got ${preview(value)}`);
  return n;
}

/**
 * An amount in micros as a number of micros. Accepts int64 strings
 * (costMicros) and JSON numbers, because some micros fields are doubles
 * (metrics.averageCpc).
 */
export function micros(value: unknown, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw new AdsResponseError("expected a micros amount, got nothing");
  }
  const n = typeof value === "number" ? value : typeof value === "string" && DECIMAL_RE.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) {
    throw new AdsResponseError(`expected a micros amount, got ${preview(value)}`);
  }
  return n;
}

/** 85200000 micros → 85.2 currency units. */
export function microsToUnits(amountMicros: number): number {
  return amountMicros / 1_000_000;
}

/** 85.2 → "85200000", the int64 string Google expects in a mutate body. */
export function unitsToMicros(units: number): string {
  if (!Number.isFinite(units)) throw new RangeError(`not a finite amount: ${units}`);
  return String(Math.round(units * 1_000_000));
}

// ---------------------------------------------------------------------------
// zod pieces for describing expected rows

/** An int64 kept as its decimal string: for ids, which are identifiers, not quantities. */
export const Int64String = z.string().regex(INT64_RE, "expected an int64 as a decimal string");

/** An int64 string (or number) as a safe integer: impressions, clicks. */
export const Int64 = z.union([Int64String, z.number().int()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: "custom", message: "int64 is too large to read as a number" });
    return z.NEVER;
  }
  return n;
});

/** A micros amount (int64 string, or a double such as averageCpc) as a number of micros. */
export const Micros = z.union([z.string().regex(DECIMAL_RE, "expected a micros amount"), z.number()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) {
    ctx.addIssue({ code: "custom", message: "micros amount out of range" });
    return z.NEVER;
  }
  return n;
});

/** A double (conversions, ctr). proto3 JSON may spell non-finite values as strings. */
export const Double = z.union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"]), z.string().regex(DECIMAL_RE)]).transform((v) => Number(v));

/** A resource name such as "customers/1234567890/campaigns/22335577". */
export const ResourceName = z.string().regex(/^customers\/\d{10}(\/[A-Za-z]+\/[^/]+)?$/, "expected a resource name");

/**
 * Validates rows against a caller's schema. Fails on the first bad row with
 * its index and the field path, since one malformed row usually means the
 * query and the schema disagree.
 */
export function parseRows<S extends z.ZodType>(schema: S, rows: readonly unknown[], label = "query"): Array<z.output<S>> {
  const out: Array<z.output<S>> = [];
  for (let i = 0; i < rows.length; i++) {
    const result = schema.safeParse(rows[i]);
    if (!result.success) {
      const issue = result.error.issues[0];
      const path = issue?.path.map(String).join(".") || "(row)";
      throw new AdsResponseError(`row ${i} of ${label} does not match the expected shape: ${path}: ${issue?.message}`);
    }
    out.push(result.data);
  }
  return out;
}
