/**
 * A link to `pathname` with the current query changed: null/undefined/""
 * remove a key, anything else sets it. Pages keep all their state (range,
 * sort, filters, page) in the query, so every control is a plain link.
 */
export function hrefWith(pathname: string, current: URLSearchParams | string, changes: Record<string, string | number | null | undefined>): string {
  const params = withoutToken(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** The query's entries minus some keys, for the hidden inputs of a GET form that changes only those keys. */
export function keptParams(current: URLSearchParams | string, drop: string[]): Array<[string, string]> {
  return [...withoutToken(current).entries()].filter(([key]) => !drop.includes(key));
}

/**
 * The query without ?token= (the sign-in redirect's access token: pages build
 * their links from the address, and it must never spread into them) and
 * without empty values (an empty search box submits "q=").
 */
export function withoutToken(current: URLSearchParams | string): URLSearchParams {
  const params = new URLSearchParams(current);
  params.delete("token");
  for (const [key, value] of [...params.entries()]) if (value === "") params.delete(key, "");
  return params;
}

/** Path and query of the current page, token removed: where a form comes back to. */
export function currentPath(pathname: string, search: string): string {
  const query = withoutToken(search).toString();
  return query ? `${pathname}?${query}` : pathname;
}
