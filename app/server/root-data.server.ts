import { getSession, tokenBelongsTo } from "./auth/session.server";
import { getConfig } from "./env.server";
import { readToast } from "./toast.server";

/** What every page needs: who is signed in, a pending toast, and a token to mirror. */
export async function loadRootData(request: Request) {
  const [session, { toast, headers }] = await Promise.all([getSession(request), readToast(request)]);
  const token = new URL(request.url).searchParams.get("token");
  return {
    data: {
      user: session ? { email: session.user.email } : null,
      // Echoed only when it is this session's own token (never one from someone else's link).
      mirrorToken: session && token && tokenBelongsTo(session, token) ? token : null,
      toast: toast ? { ...toast, id: crypto.randomUUID() } : null,
      demoMode: getConfig().demoMode,
    },
    headers,
  };
}
