import { createContext, redirect, RouterContextProvider, type MiddlewareFunction } from "react-router";
import { recheckAccessInBackground } from "./ads/accounts.server";
import { rememberAfterSignIn } from "./auth/after-sign-in.server";
import { clearSessionCookie, getSession, getSessionId, type SessionContext } from "./auth/session.server";

/**
 * What a request carries from the HTTP server to the loaders and actions
 * (React Router middleware with typed contexts; ADR 015).
 *
 * - `requestInfoContext`: what server.ts knows about the connection (the
 *   client's address, the CSP nonce), set by `createLoadContext`.
 * - The cookie session, looked up at most once per request: whoever asks first
 *   (the root loader, the signed-in layout's middleware, a resource route)
 *   starts the lookup, everyone else in the same request awaits that same
 *   promise. Never shared across requests: a signed-out or revoked session
 *   stops working on the very next request.
 * - `userContext`: the signed-in user, set by `requireUserMiddleware` (the
 *   app layout's and the cookie resource routes'); loaders and actions below it
 *   read it with `context.get(userContext)`.
 *
 * The `/api/v1` routes authenticate by bearer token (`requireApiSession`), not
 * through these.
 */

export interface RequestInfo {
  /** The client's address, as resolved by the HTTP server (honours TRUST_PROXY). */
  clientIp: string;
  /** Per-response nonce for inline scripts, also set in the Content-Security-Policy. */
  cspNonce?: string;
}

export const requestInfoContext = createContext<RequestInfo>({ clientIp: "unknown" });

const sessionLookupContext = createContext<Promise<SessionContext | null> | null>(null);

/** The signed-in user and session; only readable below `requireUserMiddleware`. */
export const userContext = createContext<SessionContext>();

/** The `context` of a loader, action or middleware. */
export type RequestContext = Readonly<RouterContextProvider>;

/**
 * The context server.ts hands to React Router for each request. Built here, in
 * the app's own module graph (server.ts is bundled separately), and reached
 * through the server build's entry module.
 */
export function createLoadContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}

/** The request's cookie session (or null): one lookup per request, whoever asks. */
export function currentSession(request: Request, context: RequestContext): Promise<SessionContext | null> {
  let lookup = context.get(sessionLookupContext);
  if (!lookup) {
    lookup = getSession(request).then((session) => {
      // Who may read which account follows Google (issue 25 point 4): a due re-check starts here.
      if (session) recheckAccessInBackground(session);
      return session;
    });
    context.set(sessionLookupContext, lookup);
  }
  return lookup;
}

/**
 * Guards the signed-in screens: anonymous visitors go to /login (a stale
 * cookie is cleared on the way). Actions that change the user row (the active
 * account) answer with a redirect, so no loader of the same request reads a
 * user from before the change.
 */
export const requireUserMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(userContext, await requireSession(request, context));
};

/** The request's cookie session, or a redirect to /login (for a route that guards only some of its methods). */
export async function requireSession(request: Request, context: RequestContext): Promise<SessionContext> {
  const session = await currentSession(request, context);
  if (!session) {
    const headers = new Headers();
    if (await getSessionId(request)) headers.append("Set-Cookie", await clearSessionCookie());
    const remember = await rememberAfterSignIn(request);
    if (remember) headers.append("Set-Cookie", remember);
    throw redirect("/login", { headers });
  }
  return session;
}

/** The /login page is for visitors: a signed-in one goes to the dashboard. */
export async function requireAnonymous(request: Request, context: RequestContext) {
  if (await currentSession(request, context)) throw redirect("/dashboard");
}
