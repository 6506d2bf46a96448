import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Responses that carry a user's data must never be kept by a browser or a
 * shared cache: every JSON API answer under /api/ and every React Router data
 * request (`*.data`, what client-side navigation fetches instead of a page).
 * HTML documents get `private, no-store` from entry.server.tsx.
 */
export function isPrivateDataPath(pathname: string): boolean {
  return pathname.startsWith("/api/") || pathname.endsWith(".data");
}

/** Forces `Cache-Control: no-store` just before the headers go out, whatever a route set. */
export function noStoreForData(req: IncomingMessage & { path?: string }, res: ServerResponse, next: () => void) {
  const pathname = req.path ?? (req.url ?? "/").split("?")[0]!;
  if (isPrivateDataPath(pathname)) {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      this.setHeader("Cache-Control", "no-store");
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
  }
  next();
}
