import { dateIn, isIsoDate } from "~/lib/dates";
/**
 * Literals for building GAQL from values that may come from users or from
 * Google itself (campaign names). GAQL has no documented escape rules, so
 * instead of escaping, values that can't be quoted unambiguously are refused.
 */

/** A quoted string literal: 'text', or "text" when the text holds a single quote. */
export function gaqlString(value: string): string {
  if ([...value].some((c) => c === "\\" || c.charCodeAt(0) < 0x20)) {
    throw new RangeError("GAQL string literal cannot contain backslashes or control characters");
  }
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw new RangeError("GAQL string literal cannot contain both ' and \"");
}

/** '2025-11-15' from a Date (its UTC calendar day) or an ISO date string. */
export function gaqlDate(value: Date | string): string {
  const text = value instanceof Date ? dateIn("UTC", value) : value;
  if (!isIsoDate(text)) {
    throw new RangeError(`not a calendar date (YYYY-MM-DD): ${String(text).slice(0, 30)}`);
  }
  return `'${text}'`;
}

/** An integer literal such as an id: digits only. */
export function gaqlInt(value: string | number): string {
  const text = String(value);
  if (!/^-?\d{1,19}$/.test(text)) throw new RangeError(`not an integer: ${text.slice(0, 30)}`);
  return text;
}

/** An enum constant such as ENABLED. */
export function gaqlEnum(value: string): string {
  if (!/^[A-Z][A-Z0-9_]*$/.test(value)) throw new RangeError(`not an enum constant: ${value.slice(0, 40)}`);
  return value;
}

/** ('a', 'b') for IN / NOT IN. */
export function gaqlList(values: readonly string[], literal: (v: string) => string = gaqlString): string {
  if (values.length === 0) throw new RangeError("GAQL IN list cannot be empty");
  return `(${values.map(literal).join(", ")})`;
}
