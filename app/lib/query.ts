/**
 * A link to `pathname` with the current query changed: null/undefined/""
 * remove a key, anything else sets it. Pages keep all their state (range,
 * sort, filters, page) in the query, so every control is a plain link.
 */
export function hrefWith(
  pathname: string,
  current: URLSearchParams | string,
  changes: Record<string, string | number | null | undefined>,
): string {
  const params = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** The query's entries minus some keys, for the hidden inputs of a GET form that changes only those keys. */
export function keptParams(current: URLSearchParams | string, drop: string[]): Array<[string, string]> {
  return [...new URLSearchParams(current).entries()].filter(([key]) => !drop.includes(key));
}
