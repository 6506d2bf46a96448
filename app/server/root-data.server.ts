import { takeHandoff } from "./auth/token-handoff.server";
import { getConfig } from "./env.server";
import { currentSession, type RequestContext } from "./request-context.server";
import { readToast } from "./toast.server";

/** What every page needs: who is signed in, a pending toast, and a token to mirror (once). A `?token=` never gets here (root middleware). */
export async function loadRootData({ request, context }: { request: Request; context: RequestContext; url: URL }) {
  const session = await currentSession(request, context);
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
