import { z } from "zod";
import { safeReturnPath } from "../http/return-path.server";
import { appCookie } from "../http/app-cookie.server";

/**
 * The page a signed-out visitor asked for (a shared `/changes/<id>` link, a
 * filtered campaign list), so signing in with a password lands there rather
 * than on the dashboard. Kept in a short-lived signed cookie, not in the
 * address: `/login` stays `/login` (the seed's route), and nothing in the
 * address can point the redirect anywhere (the value is the server's own
 * reading of the request, checked again by `safeReturnPath` when used).
 */
const Remembered = z.object({ path: z.string() });

const afterSignInCookie = appCookie("__after_sign_in", { maxAge: 600 });

/**
 * Set-Cookie remembering the page of a signed-out GET, or null when there is
 * nothing worth returning to (a form post, a data request of the client router,
 * the dashboard itself).
 */
export async function rememberAfterSignIn(request: Request): Promise<string | null> {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data") || url.pathname === "/dashboard" || url.pathname === "/") return null;
  const path = safeReturnPath(`${url.pathname}${url.search}`, "");
  return path ? afterSignInCookie().serialize({ path }) : null;
}

/** Where a password sign-in goes next, and the Set-Cookie that forgets it. */
export async function takeAfterSignIn(request: Request): Promise<{ path: string; clear: string }> {
  const parsed = Remembered.safeParse(await afterSignInCookie().parse(request.headers.get("Cookie")));
  const path = parsed.success ? safeReturnPath(parsed.data.path, "/dashboard") : "/dashboard";
  return { path: path === "/login" ? "/dashboard" : path, clear: await afterSignInCookie().serialize("", { maxAge: 0 }) };
}
