/**
 * HTTP security policy in one place: headers for every response, the stricter
 * document policy, and the cross-site request check for state-changing methods.
 */

export function baseSecurityHeaders(appUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    // Pages may carry ?token= for a moment; never leak it through Referer.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  if (appUrl.startsWith("https:")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Headers for HTML documents. Without a nonce (the Vite dev server) no CSP is sent: HMR needs inline scripts. */
export function documentSecurityHeaders(nonce: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "Cache-Control": "private, no-store" };
  if (nonce) {
    headers["Content-Security-Policy"] = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      // react-hot-toast injects its styles at run time.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; ");
  }
  return headers;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site.
 * Sec-Fetch-Site (set by the browser, not by page script) decides when present;
 * with `Referrer-Policy: no-referrer` browsers send `Origin: null` even for
 * same-origin form posts, so Origin is only consulted without it. Requests
 * with neither header are not from a browser (scripts using the bearer API,
 * server-to-server calls) and carry no ambient-cookie risk.
 */
export function isCrossSiteRequest(
  req: { method: string; origin?: string | null; secFetchSite?: string | null; host?: string | null; protocol: string },
  appUrl: string,
): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  if (req.secFetchSite) return req.secFetchSite !== "same-origin" && req.secFetchSite !== "none";
  const origin = req.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  const allowed = new Set([new URL(appUrl).origin]);
  if (req.host) allowed.add(`${req.protocol}://${req.host}`);
  return !allowed.has(origin);
}
