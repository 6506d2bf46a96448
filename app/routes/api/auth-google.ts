import { authenticateWithGoogle, rememberReturnTo } from "~/server/auth/google-oauth.server";
import { safeReturnPath } from "~/server/http/return-path.server";
import { currentSession } from "~/server/request-context.server";
import type { Route } from "./+types/auth-google";

/**
 * Starts Google's authorization-code flow: sets the state/PKCE cookie and
 * redirects to Google's consent screen. Used both to sign in and, by a
 * signed-in user, to connect (or reconnect) Google Ads.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const session = await currentSession(request, context);
  const fallback = session ? "/dashboard" : "/login";
  // Never starts a callback from here: a ?state= on this URL must not be mistaken for one.
  const start = new Request(`${url.origin}${url.pathname}`, { headers: request.headers });
  try {
    await authenticateWithGoogle(start);
  } catch (thrown) {
    if (thrown instanceof Response) {
      thrown.headers.append("Set-Cookie", await rememberReturnTo(safeReturnPath(url.searchParams.get("returnTo"), fallback)));
      return thrown;
    }
    throw thrown;
  }
  throw new Error("The OAuth strategy did not redirect");
}
