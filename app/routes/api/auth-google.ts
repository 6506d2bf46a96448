import { redirect } from "react-router";
import { authenticateWithGoogle, rememberIntent } from "~/server/auth/google-oauth.server";
import { getConfig } from "~/server/env.server";
import { canonicalRedirect, wrongHostMessage } from "~/server/http/canonical-host.server";
import { safeReturnPath } from "~/server/http/return-path.server";
import { currentSession } from "~/server/request-context.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/auth-google";

/**
 * Starts Google's authorization-code flow: sets the state/PKCE cookie and
 * redirects to Google's consent screen. Used both to sign in and, by a
 * signed-in user, to connect (or reconnect) Google Ads; which one is kept
 * with the flow, so the callback never signs in anyone but who started it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const session = await currentSession(request, context);
  const returnTo = safeReturnPath(url.searchParams.get("returnTo"), session ? "/dashboard" : "/login");
  const { APP_URL } = getConfig();
  const elsewhere = canonicalRedirect({ method: request.method, host: url.host, originalUrl: `${url.pathname}${url.search}` }, APP_URL);
  if (elsewhere) {
    // Google comes back to APP_URL, where this browser is not signed in: finishing there would
    // sign in whoever the Google account belongs to instead of connecting it to this account.
    if (session) return redirectWithToast(returnTo, { type: "error", message: wrongHostMessage(url.host, APP_URL) });
    return redirect(elsewhere);
  }
  // Never starts a callback from here: a ?state= on this URL must not be mistaken for one.
  const start = new Request(`${url.origin}${url.pathname}`, { headers: request.headers });
  try {
    await authenticateWithGoogle(start);
  } catch (thrown) {
    if (thrown instanceof Response) {
      thrown.headers.append("Set-Cookie", await rememberIntent({ returnTo, connectFor: session?.user.id ?? null }));
      return thrown;
    }
    throw thrown;
  }
  throw new Error("The OAuth strategy did not redirect");
}
