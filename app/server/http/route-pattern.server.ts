import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * The route pattern a request was served by ("/campaigns/:campaignId",
 * "/api/v1/change-sets/:id/apply"), for metrics labels: a bounded set, never
 * the address itself (ids, tokens). Paths outside React Router have their own
 * names; anything else is "unmatched".
 */
const OWN_PATHS: Array<[RegExp, string]> = [
  [/^\/(healthz|readyz|metrics)$/, "/$1"],
  [/^\/assets\//, "/assets/*"],
  [/^\/emulator(\/|$)/, "/emulator/*"],
];

export function routePatternMatcher(routes: ServerBuild["routes"]): (pathname: string) => string {
  const tree = toTree(routes);
  const cache = new Map<string, string>();
  return (pathname) => {
    for (const [re, name] of OWN_PATHS) if (re.test(pathname)) return pathname.replace(re, name).replace(/^(\/[a-z]+\/\*).*$/, "$1");
    const cached = cache.get(pathname);
    if (cached) return cached;
    const matches = matchRoutes(tree, pathname);
    const pattern = matches
      ? "/" +
        matches
          .map((m) => m.route.path ?? "")
          .filter(Boolean)
          .join("/")
          .replace(/\/+/g, "/")
          .replace(/^\//, "")
      : "unmatched";
    // Bounded: the cache holds addresses, so it is only a small convenience.
    if (cache.size < 5_000) cache.set(pathname, pattern);
    return pattern;
  };
}

function toTree(routes: ServerBuild["routes"]): RouteObject[] {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = (
      route.index ? { id: route.id, index: true, path: route.path } : { id: route.id, path: route.path, caseSensitive: route.caseSensitive }
    ) as RouteObject;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(node);
    children.set(route.parentId, siblings);
  }
  const attach = (nodes: RouteObject[]): RouteObject[] =>
    nodes.map((n) => {
      const kids = children.get(n.id);
      return kids && !n.index ? ({ ...n, children: attach(kids) } as RouteObject) : n;
    });
  return attach(children.get(undefined) ?? []);
}
