import { discardForApi } from "~/server/change-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set-discard";

export const loader = postOnly;

/** POST → { changeSet }: the proposal is kept as "discarded" and never applied; 409 once applied. */
export const action = apiRoute({ method: "POST" }, ({ params }: Route.ActionArgs, { user }) => discardForApi(user.id, params.changeSetId));
