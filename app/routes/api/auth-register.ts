import { data } from "react-router";
import { register } from "~/server/auth/credentials.server";
import { apiError, HttpError, readJsonBody } from "~/server/http/errors.server";
import { z } from "zod";
import type { Route } from "./+types/auth-register";
import { requestInfoContext } from "~/server/request-context.server";

export function loader() {
  return data({ detail: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new HttpError(405, "Method not allowed");
    const user = await register(() => readJsonBody(request, z.unknown()), context.get(requestInfoContext).clientIp);
    return data({ email: user.email }, { status: 201 });
  } catch (error) {
    return apiError(error);
  }
}
