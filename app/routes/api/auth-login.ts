import { data } from "react-router";
import { signIn } from "~/server/auth/credentials.server";
import { apiError, HttpError, readJsonBody } from "~/server/http/errors.server";
import { z } from "zod";
import type { Route } from "./+types/auth-login";
import { requestInfoContext } from "~/server/request-context.server";

export function loader() {
  return data({ detail: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new HttpError(405, "Method not allowed");
    const { session } = await signIn(() => readJsonBody(request, z.unknown()), request, context.get(requestInfoContext).clientIp);
    return data({ access_token: session.accessToken, token_type: "bearer", expires_at: session.expiresAt }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return apiError(error);
  }
}
