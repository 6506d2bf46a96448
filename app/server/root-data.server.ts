import { takeAfterSignIn } from "./auth/after-sign-in.server";
import { takeHandoff, takeTokenFromAddress } from "./auth/token-handoff.server";
import { getConfig } from "./env.server";
import { currentSession, type RequestContext } from "./request-context.server";
import { readToast } from "./toast.server";

/** What every page needs: who is signed in, a pending toast, and a token to mirror (once). */
export async function loadRootData({ request, context, url }: { request: Request; context: RequestContext; url: URL }) {
  const session = await currentSession(request, context);
  // A ?token= never renders: the address is cleaned by a redirect first.
  const clean = await takeTokenFromAddress(url, session);
  if (clean) {
    // Google's sign-in comes back to /dashboard?token= (the seed's contract): a page asked for
    // while signed out (after-sign-in.server.ts) is where it goes on to, as after a password sign-in.
    if (session && url.pathname === "/dashboard") {
      const next = await takeAfterSignIn(request);
      if (next.path !== "/dashboard") clean.headers.set("Location", next.path);
      clean.headers.append("Set-Cookie", next.clear);
    }
    throw clean;
  }
  const [{ toast, headers }, handoff] = await Promise.all([readToast(request), takeHandoff(request, session)]);
  for (const cookie of handoff.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return {
    data: {
      user: session ? { email: session.user.email } : null,
      mirrorToken: handoff.token,
      toast: toast ? { ...toast, id: crypto.randomUUID() } : null,
      demoMode: getConfig().demoMode,
    },
    headers,
  };
}
