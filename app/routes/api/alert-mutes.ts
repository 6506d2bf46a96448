import { mutesForApi, setMuteForApi } from "~/server/agency/api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/alert-mutes";

/** GET → { mutes }: the caller's muted rules and accounts. */
export const loader = apiRoute({}, (_args: Route.LoaderArgs, { user }) => mutesForApi(user.id));

/** POST { customerId, rule, muted } → { mutes }. */
export const action = apiRoute({ method: "POST", allow: "GET, POST" }, ({ request }: Route.ActionArgs, { user }) => setMuteForApi(user.id, request));
