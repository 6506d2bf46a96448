import { createLoadContext, requireUserMiddleware, type RequestInfo } from "~/server/request-context.server";

/**
 * The arguments React Router gives a loader or action, built the way the
 * server builds them: a RouterContextProvider from `createLoadContext` (as
 * server.ts does) and the normalized `url`.
 */
export function routeArgs(request: Request, params: Record<string, string> = {}, info: RequestInfo = { clientIp: "127.0.0.1" }) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { request, params, url: new URL(request.url), context: createLoadContext(info), pattern: "" } as any;
}

/**
 * The same for a route below the app layout (or with its own guard): the real
 * `requireUserMiddleware` runs first, so an anonymous request rejects with its
 * redirect to /login, and a signed-in one reaches the loader with `userContext` set.
 */
export async function signedInArgs(request: Request, params: Record<string, string> = {}) {
  const args = routeArgs(request, params);
  await requireUserMiddleware({ ...args }, async () => new Response(null));
  return args;
}
