import { AdsResponseError, InvalidCustomerIdError } from "./errors.server";

/**
 * "123-456-7890" or "1234567890" → "1234567890". Google rejects hyphens in URLs
 * and headers (CLIENT_CUSTOMER_ID_INVALID), and anything else is a bug upstream,
 * so it fails here before a request is made.
 */
export function normalizeCustomerId(input: string): string {
  if (typeof input === "string") {
    const value = input.trim();
    if (/^\d{10}$/.test(value)) return value;
    if (/^\d{3}-\d{3}-\d{4}$/.test(value)) return value.replaceAll("-", "");
  }
  throw new InvalidCustomerIdError(input);
}

/** True for the two accepted spellings. */
export function isCustomerId(input: unknown): input is string {
  return typeof input === "string" && /^(\d{10}|\d{3}-\d{3}-\d{4})$/.test(input.trim());
}

/** "1234567890" → "123-456-7890", the way the Google Ads UI shows it. */
export function formatCustomerId(id: string): string {
  const digits = normalizeCustomerId(id);
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** "customers/1234567890" → "1234567890". */
export function customerIdFromResourceName(resourceName: string): string {
  const m = /^customers\/(\d{10})$/.exec(resourceName);
  if (!m) throw new AdsResponseError(`"${resourceName.slice(0, 60)}" is not a customer resource name`);
  return m[1];
}
