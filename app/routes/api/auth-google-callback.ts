import { redirect } from "react-router";
import { refreshAccounts } from "~/server/ads/accounts.server";
import { prepareForSync } from "~/server/ads/sync.server";
import {
  authenticateWithGoogle,
  clearIntent,
  clearOAuthStateCookies,
  describeGoogleError,
  GoogleSignInError,
  readIntent,
  revokeGoogleToken,
} from "~/server/auth/google-oauth.server";
import { completeGoogleSignIn } from "~/server/auth/google-connection.server";
import { signInByCode } from "~/server/auth/token-handoff.server";
import { currentSession } from "~/server/request-context.server";
import { startFirstSync } from "~/server/sync-status.server";
import { toastHeader } from "~/server/toast.server";
import type { Route } from "./+types/auth-google-callback";
import { log } from "~/server/log.server";

export const CONNECT_SESSION_CHANGED =
  "Google Ads was not connected: this browser is no longer signed in as the account that started connecting it. Sign in and connect again.";

/**
 * Google sends the browser back here. Success: the user is found, created or
 * linked, the refresh token stored encrypted; a signed-in user stays who they
 * are (Google is attached to them), anyone else is signed in through a
 * one-time code on `/dashboard?token=` (token-handoff.server.ts). Any
 * failure: back where the user came from with a clear message, nothing stored.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const current = await currentSession(request, context);
  const intent = await readIntent(request);
  const returnTo = intent?.returnTo ?? (current ? "/dashboard" : "/login");
  const headers = new Headers();
  for (const cookie of clearOAuthStateCookies(request)) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await clearIntent());

  // The sync's worker thread loads while Google answers; the sync starts below, once the accounts are known.
  prepareForSync();
  let userId: string;
  let tookOver = false;
  try {
    const signIn = await authenticateWithGoogle(request);
    try {
      // Connecting was started by a signed-in user: finish it for that user only (issue 25 point 7).
      if (intent?.connectFor && intent.connectFor !== current?.user.id) throw new GoogleSignInError(CONNECT_SESSION_CHANGED);
      ({ userId, tookOver } = await completeGoogleSignIn(signIn, current?.user.id ?? null));
    } catch (error) {
      await revokeGoogleToken(signIn.tokens.refreshToken ?? signIn.tokens.accessToken);
      throw error;
    }
  } catch (error) {
    if (error instanceof GoogleSignInError && error.issuedToken) await revokeGoogleToken(error.issuedToken);
    if (!(error instanceof GoogleSignInError)) {
      // The reason for the log, never the URL: it carries the code.
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : error instanceof Response ? `HTTP ${error.status}` : String(error);
      log.warn(`Google sign-in failed: ${reason}`);
    }
    headers.append("Set-Cookie", await toastHeader({ type: "error", message: describeGoogleError(error) }));
    return redirect(current ? returnTo : "/login", { headers });
  }

  // The account list is fetched now so the user lands on real data; if the Ads
  // API can't be reached the user is still signed in and told why.
  const accounts = await refreshAccounts(userId);
  if (accounts.ok) await startFirstSync(userId);
  if (!accounts.ok) {
    headers.append(
      "Set-Cookie",
      await toastHeader({ type: "error", message: `Signed in, but your Google Ads accounts could not be loaded: ${accounts.error}` }),
    );
  } else if (tookOver) {
    log.warn(`Google sign-in took over an unconfirmed password account (user ${userId}): its password, sessions and API tokens were revoked`);
    headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        message: "Signed in with Google. A password set on this address without confirming it was removed, with its sessions.",
      }),
    );
  } else if (current) {
    headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Google Ads connected" }));
  }

  // Signed in: still the same person, Google attached to them.
  if (current) return redirect(returnTo === "/login" ? "/dashboard" : returnTo, { headers });
  const signedIn = await signInByCode(userId);
  headers.append("Set-Cookie", signedIn.cookie);
  return redirect(signedIn.location, { headers });
}
