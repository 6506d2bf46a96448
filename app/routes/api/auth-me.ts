import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/auth-me";

export const loader = apiRoute({}, async (_args: Route.LoaderArgs, { user }) => ({ email: user.email }));
