// WHERE-clause value checking and predicate compilation. Values are checked
// against the catalogue type of the field (enum constants, numbers, dates)
// with Google's queryError codes; predicates work on raw store values.

import type { ResolvedField } from "../../catalogue/catalogue";
import { isDuringLiteral, parseDay, formatDay } from "../util/dates";
import { queryError } from "./errors";
import type { Condition, Value } from "./parser";

export type Predicate = (v: unknown) => boolean;

const DATE_FIELDS = new Set(["segments.date", "segments.week", "segments.month", "segments.quarter"]);
const NUMERIC = new Set(["int64", "int32", "double", "float"]);

export function isDateField(name: string): boolean {
  return DATE_FIELDS.has(name);
}

function describe(v: Value): string {
  return v.kind === "number" ? v.raw : v.value;
}

/** Normalises and type-checks one value for a field; returns the comparable JS value. */
function coerce(field: ResolvedField, v: Value, op: string): string | number | boolean {
  const name = field.name;
  if (DATE_FIELDS.has(name)) {
    const text = describe(v);
    const day = v.kind === "string" ? parseDay(v.value) : undefined;
    if (day === undefined) {
      if (op === "BETWEEN") {
        throw queryError("INVALID_VALUE_WITH_BETWEEN_OPERATOR", `Error in WHERE clause: '${text}' is not a date for BETWEEN on ${name}.`, text);
      }
      throw queryError("INVALID_DATE_FORMAT", `Error in WHERE clause: invalid date '${text}' for ${name}. Expected 'YYYY-MM-DD'.`, text);
    }
    return formatDay(day);
  }
  if (name === "change_event.change_date_time") {
    if (v.kind !== "string") throw queryError("INVALID_STRING_VALUE", `Error in WHERE clause: ${name} needs a quoted date or date-time.`, describe(v));
    const datePart = v.value.slice(0, 10);
    if (parseDay(datePart) === undefined) throw queryError("INVALID_DATE_FORMAT", `Error in WHERE clause: invalid date '${v.value}' for ${name}.`, v.value);
    return v.value;
  }
  switch (field.type) {
    case "enum": {
      const s = v.kind === "number" ? v.raw : v.value;
      if (!field.enumValues?.includes(s) || s === "UNSPECIFIED") {
        throw queryError("BAD_ENUM_CONSTANT", `Error in WHERE clause: invalid enum constant '${s}' for ${name}.`, s);
      }
      return s;
    }
    case "boolean": {
      const s = (v.kind === "number" ? v.raw : v.value).toLowerCase();
      if (s !== "true" && s !== "false") throw queryError("BAD_VALUE", `Error in WHERE clause: '${describe(v)}' is not a boolean for ${name}.`, describe(v));
      return s === "true";
    }
    case "int64":
    case "int32":
    case "double":
    case "float": {
      if (v.kind === "number") return v.value;
      if (v.kind === "string" && /^-?\d+(\.\d+)?$/.test(v.value.trim())) return Number(v.value);
      throw queryError("BAD_VALUE", `Error in WHERE clause: '${describe(v)}' is not a number for ${name}.`, describe(v));
    }
    default:
      if (v.kind !== "string") {
        throw queryError("INVALID_STRING_VALUE", `Error in WHERE clause: ${name} must be compared with a quoted string, got '${describe(v)}'.`, describe(v));
      }
      return v.value;
  }
}

function likeToRegExp(pattern: string): RegExp {
  // GAQL LIKE: % = any run, _ = one character, [x] = literal x (how %, _ and [ are escaped).
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "[") {
      const close = pattern.indexOf("]", i + 1);
      if (close > i + 1) {
        re += pattern.slice(i + 1, close).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        i = close;
        continue;
      }
    }
    if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function regexpFor(pattern: string, field: string): RegExp {
  // RE2-style (?i) prefix is the usual way to ask for case-insensitive matching.
  let flags = "";
  let p = pattern;
  if (p.startsWith("(?i)")) {
    flags = "i";
    p = p.slice(4);
  }
  try {
    return new RegExp(`^(?:${p})$`, flags);
  } catch {
    throw queryError("BAD_VALUE", `Error in WHERE clause: invalid regular expression '${pattern}' for ${field}.`, pattern);
  }
}

const compare = (a: unknown, b: string | number | boolean): number => {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
};

/**
 * Compiles a condition on a resource field, metric or entity-level segment.
 * Unset values (undefined) only satisfy IS NULL and the negated operators,
 * the way a missing proto3 field behaves as NULL.
 */
export function compileCondition(field: ResolvedField, cond: Condition): Predicate {
  const op = cond.op;
  const name = field.name;
  const repeated = !!field.repeated;
  if (field.type === "message") {
    throw queryError("PROHIBITED_FIELD_IN_WHERE_CLAUSE", `Error in WHERE clause: field '${name}' cannot be filtered on.`, name);
  }
  if (op === "IS NULL") return (v) => v === undefined || (Array.isArray(v) && v.length === 0);
  if (op === "IS NOT NULL") return (v) => !(v === undefined || (Array.isArray(v) && v.length === 0));

  const isContains = op === "CONTAINS ANY" || op === "CONTAINS ALL" || op === "CONTAINS NONE";
  if (isContains !== repeated) {
    throw queryError(
      "OPERATOR_FIELD_MISMATCH",
      `Error in WHERE clause: operator ${op} cannot be used with ${repeated ? "repeated" : "non-repeated"} field '${name}'.`,
      name,
    );
  }
  if (op === "DURING") {
    if (name !== "segments.date" && name !== "change_event.change_date_time") {
      throw queryError("OPERATOR_FIELD_MISMATCH", `Error in WHERE clause: DURING cannot be used with field '${name}'.`, name);
    }
    const v = cond.values[0];
    const lit = v.kind === "number" ? v.raw : v.value;
    if (!isDuringLiteral(lit.toUpperCase())) {
      throw queryError("INVALID_VALUE_WITH_DURING_OPERATOR", `Invalid date literal supplied for DURING operator: ${lit}.`, lit);
    }
    // Resolved against the customer's "today" by the caller (see dateRangeOf).
    return () => true;
  }
  if (op === "LIKE" || op === "NOT LIKE" || op === "REGEXP_MATCH" || op === "NOT REGEXP_MATCH") {
    if (field.type !== "string" || isDateField(name)) {
      throw queryError("OPERATOR_FIELD_MISMATCH", `Error in WHERE clause: operator ${op} cannot be used with field '${name}'.`, name);
    }
    const v = cond.values[0];
    if (v.kind !== "string") {
      if (op.includes("LIKE"))
        throw queryError("INVALID_VALUE_WITH_LIKE_OPERATOR", `Error in WHERE clause: LIKE needs a quoted pattern for '${name}'.`, describe(v));
      throw queryError("INVALID_STRING_VALUE", `Error in WHERE clause: REGEXP_MATCH needs a quoted pattern for '${name}'.`, describe(v));
    }
    const re = op.includes("LIKE") ? likeToRegExp(v.value) : regexpFor(v.value, name);
    const negate = op.startsWith("NOT");
    return (x) => (x === undefined ? negate : re.test(String(x)) !== negate);
  }
  if ((field.type === "enum" || field.type === "boolean") && [">", ">=", "<", "<="].includes(op)) {
    throw queryError("OPERATOR_FIELD_MISMATCH", `Error in WHERE clause: operator ${op} cannot be used with field '${name}'.`, name);
  }
  if (repeated && !isContains && op !== "=" && op !== "!=") {
    throw queryError("OPERATOR_FIELD_MISMATCH", `Error in WHERE clause: operator ${op} cannot be used with repeated field '${name}'.`, name);
  }

  const values = cond.values.map((v) => coerce(field, v, op));
  switch (op) {
    case "=":
      return (x) => x !== undefined && compare(x, values[0]) === 0;
    case "!=":
      return (x) => x === undefined || compare(x, values[0]) !== 0;
    case ">":
      return (x) => x !== undefined && compare(x, values[0]) > 0;
    case ">=":
      return (x) => x !== undefined && compare(x, values[0]) >= 0;
    case "<":
      return (x) => x !== undefined && compare(x, values[0]) < 0;
    case "<=":
      return (x) => x !== undefined && compare(x, values[0]) <= 0;
    case "BETWEEN":
      return (x) => x !== undefined && compare(x, values[0]) >= 0 && compare(x, values[1]) <= 0;
    case "IN": {
      const set = new Set(values.map((v) => (typeof v === "number" ? v : String(v))));
      return (x) => x !== undefined && set.has(typeof x === "number" ? x : String(x));
    }
    case "NOT IN": {
      const set = new Set(values.map((v) => (typeof v === "number" ? v : String(v))));
      return (x) => x === undefined || !set.has(typeof x === "number" ? x : String(x));
    }
    case "CONTAINS ANY":
      return (x) => Array.isArray(x) && x.some((e) => values.some((v) => compare(e, v) === 0));
    case "CONTAINS ALL":
      return (x) => Array.isArray(x) && values.every((v) => x.some((e) => compare(e, v) === 0));
    case "CONTAINS NONE":
      return (x) => !Array.isArray(x) || !x.some((e) => values.some((v) => compare(e, v) === 0));
    default:
      throw queryError("BAD_OPERATOR", `Error in WHERE clause: invalid operator '${op}'.`, op);
  }
}

/**
 * change_date_time holds "YYYY-MM-DD HH:MM:SS.ffffff". DURING and date-only
 * literals work at day granularity (so `<= '2026-11-21'` keeps all of that
 * day); date-time literals compare the full timestamp.
 */
export function changeDateTimePredicate(
  cond: Condition,
  pred: Predicate,
  todayDay: number,
  during: (lit: string, today: number) => [number, number],
): Predicate {
  if (cond.op === "DURING") {
    const v = cond.values[0];
    const [a, z] = during((v.kind === "number" ? v.raw : v.value).toUpperCase(), todayDay);
    const lo = formatDay(a);
    const hi = formatDay(z);
    return (x) => typeof x === "string" && x.slice(0, 10) >= lo && x.slice(0, 10) <= hi;
  }
  const dateOnly = cond.values.length > 0 && cond.values.every((v) => v.kind === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v.value.trim()));
  return dateOnly ? (x) => x !== undefined && pred(String(x).slice(0, 10)) : pred;
}

/** Inclusive day-number bounds a date condition implies (for finiteness checks and pruning). */
export function boundsOf(cond: Condition, todayDay: number, during: (lit: string, today: number) => [number, number]): { lo?: number; hi?: number } {
  const day = (v: Value) => (v.kind === "string" ? parseDay(v.value) : undefined);
  switch (cond.op) {
    case "DURING": {
      const v = cond.values[0];
      const [lo, hi] = during((v.kind === "number" ? v.raw : v.value).toUpperCase(), todayDay);
      return { lo, hi };
    }
    case "BETWEEN":
      return { lo: day(cond.values[0]), hi: day(cond.values[1]) };
    case "=":
      return { lo: day(cond.values[0]), hi: day(cond.values[0]) };
    case "IN": {
      const days = cond.values.map(day).filter((d): d is number => d !== undefined);
      return days.length ? { lo: Math.min(...days), hi: Math.max(...days) } : {};
    }
    case ">":
    case ">=":
      return { lo: day(cond.values[0]) };
    case "<":
    case "<=":
      return { hi: day(cond.values[0]) };
    default:
      return {};
  }
}

export { NUMERIC };
