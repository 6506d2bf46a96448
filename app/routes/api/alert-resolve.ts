import { resolveAlertForApi } from "~/server/agency/api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/alert-resolve";

export const loader = postOnly;

/** POST → { id, status: "resolved" }: resolved by a person for the rest of its episode (ADR 029). */
export const action = apiRoute({ method: "POST" }, ({ params }: Route.ActionArgs, { user }) => resolveAlertForApi(user.id, params.alertId));
