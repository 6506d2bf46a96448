import { redirect, type MiddlewareFunction } from "react-router";
import { z } from "zod";
import { takeAfterSignIn } from "./after-sign-in.server";
import { VERIFY_PATH } from "./email-verification.server";
import { issueCode, takeCode } from "./one-time-codes.server";
import { RESET_PATH } from "~/lib/auth-paths";
import { commitSessionCookie, createSession, tokenBelongsTo, type CreatedSession, type SessionContext } from "./session.server";
import { appCookie } from "../http/app-cookie.server";

/**
 * How a sign-in reaches the browser, and the API access token its mirror
 * (localStorage `auth-token` / `auth-storage`, seed §3), without a credential
 * ever staying in the address bar or the history, JavaScript on or off.
 *
 * - Google's callback returns to `/dashboard?token=…` (the seed's contract),
 *   but that token is a one-time sign-in code, not a credential: it is good
 *   for 2 minutes and once, and only in the browser that finished the Google
 *   flow (a short-lived HttpOnly cookie holds the same code, so a link with
 *   someone else's code signs nobody in). On arrival the root middleware
 *   exchanges it for the session (the session cookie is set only then) and
 *   redirects to the same address without it. Any other `?token=` (unknown,
 *   used, expired, another browser's, an API token) is dropped the same way.
 * - The API token travels in a one-load HttpOnly cookie (`handoffHeader`),
 *   set by that exchange and by the password form's redirect; the next page
 *   load hands it to the page once (`takeHandoff`) and clears the cookie; the
 *   page's script writes the mirror.
 */
const Handoff = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/);

const handoffCookie = appCookie("__token_handoff", { maxAge: 120 });
const signInCodeCookie = appCookie("__sign_in_code", { maxAge: 120 });

/** Pages whose `?token=` is their own (a link's signed claim or code that the page asks more for), never a sign-in. */
const OWN_TOKEN_PATHS = new Set([VERIFY_PATH, RESET_PATH]);

/** Set-Cookie that keeps `token` for the next page load. */
export function handoffHeader(token: string) {
  return handoffCookie().serialize(token);
}

/**
 * The answer that signs this browser in with a new session: its cookie, the
 * API token for the mirror (one load), then the page a signed-out visit
 * asked for (after-sign-in.server.ts) or the dashboard. Every form that signs
 * someone in ends here (password, address confirmation, password reset).
 */
export async function redirectSignedIn(request: Request, session: CreatedSession, extraCookies: string[] = []): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await commitSessionCookie(session));
  headers.append("Set-Cookie", await handoffHeader(session.accessToken));
  const next = await takeAfterSignIn(request);
  headers.append("Set-Cookie", next.clear);
  for (const cookie of extraCookies) headers.append("Set-Cookie", cookie);
  return redirect(next.path, { headers });
}

/** The end of a Google sign-in: where the browser goes (`/dashboard?token=<code>`) and the cookie binding the code to it. */
export async function signInByCode(userId: string): Promise<{ location: string; cookie: string }> {
  const code = await issueCode("sign-in", userId);
  return { location: `/dashboard?token=${code}`, cookie: await signInCodeCookie().serialize(code) };
}

/**
 * Root middleware: a page address carrying `?token=` is answered with a
 * redirect to the same address without it, before any loader runs; a live
 * sign-in code bound to this browser starts its session on the way.
 */
export const takeTokenFromAddress: MiddlewareFunction<Response> = async ({ request, url }) => {
  if (!url.searchParams.has("token") || OWN_TOKEN_PATHS.has(url.pathname) || url.pathname.startsWith("/api/")) return;
  const code = url.searchParams.get("token");
  const bound: unknown = await signInCodeCookie().parse(request.headers.get("Cookie"));
  const forget = bound === null || bound === undefined ? [] : [await signInCodeCookie().serialize("", { maxAge: 0 })];
  const userId = typeof bound === "string" && bound === code ? await takeCode("sign-in", code) : null;
  if (userId) throw await redirectSignedIn(request, await createSession(userId, request), forget);
  const clean = new URL(url);
  clean.searchParams.delete("token");
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of forget) headers.append("Set-Cookie", cookie);
  throw redirect(`${clean.pathname}${clean.search}`, { headers });
};

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
