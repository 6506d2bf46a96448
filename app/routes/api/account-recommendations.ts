import { recommendationsForApi } from "~/server/recommendations-api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/account-recommendations";

/** GET ?status=open|dismissed|snoozed|applied (&type=) → { recommendations, score: { value, breakdown } }. */
export const loader = apiRoute({}, ({ params, url }: Route.LoaderArgs, { user }) => recommendationsForApi(user.id, params.customerId, url));
