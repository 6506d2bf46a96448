import { recheckAccessInBackground } from "../ads/accounts.server";
import { getBearerSession, type SessionContext } from "../auth/session.server";
import { HttpError } from "./errors.server";

/** The session behind the request's bearer token; 401 otherwise. */
export async function requireApiSession(request: Request): Promise<SessionContext> {
  const session = await getBearerSession(request);
  // Who may read which account follows Google (issue 25 point 4): a due re-check starts here.
  if (session) recheckAccessInBackground(session);
  if (!session) {
    throw new HttpError(401, "Not authenticated: send Authorization: Bearer <access_token>", undefined, {
      "WWW-Authenticate": 'Bearer realm="api"',
    });
  }
  return session;
}
