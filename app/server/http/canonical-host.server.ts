/**
 * The host-name rule: Google sends a person back to the redirect URI under
 * APP_URL, and the sign-in's state cookie lives on the host the flow started
 * on. Opened at http://127.0.0.1:3000 while APP_URL is http://localhost:3000,
 * the cookie and the callback would be on different hosts and the sign-in
 * could not be verified. So the start of a Google sign-in, on any other host,
 * is first sent to the same path under APP_URL (same path and query; never
 * anywhere but APP_URL). A signed-in person connecting Google Ads from another
 * host is stopped instead (`wrongHostMessage`): at APP_URL that browser is
 * not signed in, and the flow would end signed in as the Google account's
 * user rather than connected to theirs (issue 25 point 7).
 *
 * Only the flow's start is redirected, not every page: behind a proxy that
 * rewrites Host (without TRUST_PROXY), redirecting all pages would loop.
 */
export const OAUTH_START_PATH = "/api/v1/auth/google";

export function canonicalRedirect(req: { method: string; host: string | undefined; originalUrl: string }, appUrl: string): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const path = req.originalUrl.split("?")[0];
  if (path !== OAUTH_START_PATH) return null;
  const canonical = new URL(appUrl);
  if (!req.host || req.host.toLowerCase() === canonical.host.toLowerCase()) return null;
  return `${canonical.origin}${req.originalUrl}`;
}

export function wrongHostMessage(host: string, appUrl: string) {
  return `Google Ads can only be connected at ${appUrl}, where Google sends you back. You are signed in at ${host}: open ${appUrl}, sign in there and connect again.`;
}
