import { readAlertsForApi } from "~/server/agency/api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/alerts-read";

export const loader = postOnly;

/** POST { ids? } → { marked, unread }: marks the named alerts (or every open one) read, for the caller only. */
export const action = apiRoute({ method: "POST" }, ({ request }: Route.ActionArgs, { user }) => readAlertsForApi(user.id, request));
