import { data } from "react-router";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError } from "~/server/http/errors.server";
import type { Route } from "./+types/auth-me";

export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data({ email: user.email });
  } catch (error) {
    return apiError(error);
  }
}
