import { redirect } from "react-router";
import { z } from "zod";
import { VERIFY_PATH } from "./email-verification.server";
import { tokenBelongsTo, type SessionContext } from "./session.server";
import { appCookie } from "../http/app-cookie.server";

/**
 * How the API access token reaches the browser's mirror (localStorage
 * `auth-token` / `auth-storage`, seed §3) without ever staying in the address
 * bar or the history, JavaScript on or off.
 *
 * - Google sign-in returns to `/dashboard?token=…` (the seed's contract). The
 *   root loader takes the token out of the address itself: it keeps the token
 *   for one page load in a short-lived HttpOnly cookie, but only when the
 *   token belongs to the session the cookie already holds (a link carrying
 *   someone else's token signs nobody in), and redirects to the same URL
 *   without it. A redirect chain leaves only its last URL in the history.
 * - The password form needs no query parameter at all: its redirect sets the
 *   same cookie directly.
 * - The next page load hands the token to the page once (`mirrorToken`) and
 *   clears the cookie; the page's script writes the mirror.
 */
const Handoff = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/);

const handoffCookie = appCookie("__token_handoff", { maxAge: 120 });

/** Set-Cookie that keeps `token` for the next page load. */
export function handoffHeader(token: string) {
  return handoffCookie().serialize(token);
}

/**
 * A request whose address carries `?token=`: the redirect to the same address
 * without it (keeping the token for the next load when it is this session's).
 * Null when the address has no token.
 */
export async function takeTokenFromAddress(address: URL, session: SessionContext | null): Promise<Response | null> {
  const url = new URL(address);
  // The address-confirmation link's ?token= is that page's own (a signed claim that the page
  // still asks the account's password for), not an API token to hand over.
  if (!url.searchParams.has("token") || url.pathname === VERIFY_PATH) return null;
  const token = url.searchParams.get("token") ?? "";
  url.searchParams.delete("token");
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (session && Handoff.safeParse(token).success && tokenBelongsTo(session, token)) {
    headers.append("Set-Cookie", await handoffHeader(token));
  }
  return redirect(`${url.pathname}${url.search}`, { headers });
}

/** The token kept for this load (once; the cookie is cleared), if it still belongs to the session. */
export async function takeHandoff(request: Request, session: SessionContext | null): Promise<{ token: string | null; headers: Headers }> {
  const headers = new Headers();
  const raw = await handoffCookie().parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { token: null, headers };
  headers.append("Set-Cookie", await handoffCookie().serialize("", { maxAge: 0 }));
  const parsed = Handoff.safeParse(raw);
  const token = parsed.success && session && tokenBelongsTo(session, parsed.data) ? parsed.data : null;
  return { token, headers };
}
