import { data } from "react-router";
import { destroySession } from "~/server/auth/session.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError, HttpError } from "~/server/http/errors.server";
import type { Route } from "./+types/auth-logout";

export function loader() {
  return data({ detail: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}

/** Revokes the bearer token (and the session it belongs to). */
export async function action({ request }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new HttpError(405, "Method not allowed");
    const session = await requireApiSession(request);
    await destroySession(session.sessionId);
    return new Response(null, { status: 204 });
  } catch (error) {
    return apiError(error);
  }
}
