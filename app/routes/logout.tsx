import { redirect } from "react-router";
import { clearSessionCookie, destroySession, getSessionId } from "~/server/auth/session.server";
import type { Route } from "./+types/logout";

// No state change on GET: a link or prefetch must never sign anyone out.
export function loader() {
  return redirect("/dashboard");
}

export async function action({ request }: Route.ActionArgs) {
  const sessionId = await getSessionId(request);
  if (sessionId) await destroySession(sessionId);
  return redirect("/login", { headers: { "Set-Cookie": await clearSessionCookie() } });
}
