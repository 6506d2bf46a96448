import { recheckAccessInBackground } from "../ads/accounts.server";
import { authenticateAccessToken, isAccessToken, type AccessTokenCaller, type TokenScope } from "../auth/access-tokens.server";
import { bearerToken, getBearerSession, type SessionContext } from "../auth/session.server";
import type { User } from "../db/schema";
import { getConfig } from "../env.server";
import { consumeLimit, RateLimitError } from "../limits/limiter.server";
import { HttpError } from "./errors.server";

/**
 * Who is calling the JSON API or the MCP server, from the request's bearer
 * token: a session's API token (a person signed in to the app), or a
 * personal access token (their agent or script; auth/access-tokens.server.ts).
 */
export type ApiCaller = { user: User } & ({ kind: "session"; session: SessionContext } | ({ kind: "token" } & AccessTokenCaller));

const unauthenticated = (realm: string, detail: string) => new HttpError(401, detail, undefined, { "WWW-Authenticate": `Bearer realm="${realm}"` });

/** A personal access token's requests per minute (ACCESS_TOKEN_RATE_LIMIT), one count across instances. */
async function admitTokenRequest(caller: AccessTokenCaller) {
  try {
    await consumeLimit({ name: "access-token", points: getConfig().ACCESS_TOKEN_RATE_LIMIT, durationSeconds: 60 }, caller.token.id);
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    throw new HttpError(
      429,
      `Too many requests with the access token “${caller.token.name}”: at most ${getConfig().ACCESS_TOKEN_RATE_LIMIT} a minute. Try again in ${error.retryAfterSeconds} s.`,
      undefined,
      { "Retry-After": String(error.retryAfterSeconds) },
    );
  }
}

/** The personal access token of the request, checked and counted; 401 when there is none or it is unknown, revoked or expired. */
export async function requireAccessToken(request: Request, realm: string): Promise<AccessTokenCaller> {
  const token = bearerToken(request);
  if (!token || !isAccessToken(token)) {
    throw unauthenticated(realm, "Send a personal access token: Authorization: Bearer aam_pat_… (create one in Settings → Access tokens)");
  }
  const caller = await authenticateAccessToken(token);
  if (!caller) throw unauthenticated(realm, "This access token is unknown, revoked or expired: create a new one in Settings → Access tokens");
  // Who may read which account follows Google (issue 25 point 4), for an agent too.
  recheckAccessInBackground(caller);
  await admitTokenRequest(caller);
  return caller;
}

/** Refuses a token that lacks `scope`, saying which one it needs. */
export function requireScope(caller: AccessTokenCaller, scope: TokenScope) {
  if (!caller.token.scopes.includes(scope)) {
    throw new HttpError(403, `The access token “${caller.token.name}” does not have the ${scope} scope; create a token with it in Settings → Access tokens`);
  }
}

/** The session behind the request's bearer token (a person signed in to the app); 401 otherwise. */
export async function requireApiSession(request: Request): Promise<SessionContext> {
  const session = await getBearerSession(request);
  // Who may read which account follows Google (issue 25 point 4): a due re-check starts here.
  if (session) recheckAccessInBackground(session);
  if (!session) {
    const token = bearerToken(request);
    if (token && isAccessToken(token)) {
      throw new HttpError(
        403,
        "A personal access token cannot do this: applying, discarding or reverting a change set, the assistant's chat, the ad generator and signing out need a person signed in to the app (a session's access_token).",
      );
    }
    throw unauthenticated("api", "Not authenticated: send Authorization: Bearer <access_token>");
  }
  return session;
}

/**
 * The caller of a JSON API endpoint: a session token always; a personal
 * access token only where the endpoint names the `scope` it needs (null: a
 * person's session only).
 */
export async function requireApiCaller(request: Request, scope: TokenScope | null): Promise<ApiCaller> {
  const token = bearerToken(request);
  if (scope === null || !token || !isAccessToken(token)) {
    const session = await requireApiSession(request);
    return { kind: "session", user: session.user, session };
  }
  const caller = await requireAccessToken(request, "api");
  requireScope(caller, scope);
  return { kind: "token", ...caller };
}
