import { redirect } from "react-router";
import { refreshAccounts } from "~/server/ads/accounts.server";
import { prepareForSync } from "~/server/ads/sync.server";
import {
  authenticateWithGoogle,
  clearOAuthStateCookies,
  clearReturnTo,
  describeGoogleError,
  GoogleSignInError,
  readReturnTo,
  revokeGoogleToken,
} from "~/server/auth/google-oauth.server";
import { completeGoogleSignIn } from "~/server/auth/google-connection.server";
import { commitSessionCookie, createSession } from "~/server/auth/session.server";
import { currentSession } from "~/server/request-context.server";
import { startFirstSync } from "~/server/sync-status.server";
import { toastHeader } from "~/server/toast.server";
import type { Route } from "./+types/auth-google-callback";
import { log } from "~/server/log.server";

/**
 * Google sends the browser back here. Success: the user is found, created or
 * linked, the refresh token stored encrypted, a session started. Any failure:
 * back where the user came from with a clear message, nothing stored.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const current = await currentSession(request, context);
  const returnTo = (await readReturnTo(request)) ?? (current ? "/dashboard" : "/login");
  const headers = new Headers();
  for (const cookie of clearOAuthStateCookies(request)) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await clearReturnTo());

  // The sync's worker thread loads while Google answers; the sync starts below, once the accounts are known.
  prepareForSync();
  let userId: string;
  let tookOver = false;
  try {
    const signIn = await authenticateWithGoogle(request);
    try {
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

  if (current && current.user.id === userId) {
    return redirect(returnTo === "/login" ? "/dashboard" : returnTo, { headers });
  }
  const session = await createSession(userId, request);
  headers.append("Set-Cookie", await commitSessionCookie(session.sessionId));
  return redirect(`/dashboard?token=${encodeURIComponent(session.accessToken)}`, { headers });
}
