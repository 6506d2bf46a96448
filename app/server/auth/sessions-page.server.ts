import { redirect } from "react-router";
import { toastHeader } from "../toast.server";
import { clearSessionCookie, destroyAllSessions, listSessions, type SessionContext } from "./session.server";

/**
 * /settings' "Signed-in devices": the account's live sessions (each one also
 * an API token) and "Sign out everywhere", which ends them all, this one
 * included (issue 25 point 9).
 */
export const SIGN_OUT_EVERYWHERE = "sign-out-everywhere";

export async function sessionsSection(session: SessionContext) {
  return (await listSessions(session.user.id, session.sessionId)).map((s) => ({
    id: s.id,
    createdAt: s.createdAt,
    // The browser's own words, cut: enough to tell a phone from a laptop.
    device: s.userAgent ? s.userAgent.slice(0, 120) : "Unknown browser or API client",
    current: s.current,
  }));
}

export function isSessionsIntent(form: FormData) {
  return form.get("intent") === SIGN_OUT_EVERYWHERE;
}

export async function sessionsAction(session: SessionContext) {
  await destroyAllSessions(session.user.id);
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSessionCookie());
  headers.append(
    "Set-Cookie",
    await toastHeader({ type: "success", message: "Signed out everywhere: every session and API token of your account has ended." }),
  );
  return redirect("/login", { headers });
}
