import { proposeForApi } from "~/server/change-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/account-change-sets";

export const loader = postOnly;

/** POST { actions, title?, atomic? } → 201 { changeSet, validationProblem }: proposed and checked by Google, nothing applied. */
export const action = apiRoute({ method: "POST", status: 201, tokenScope: "propose" }, ({ request, params }: Route.ActionArgs, { user }) =>
  proposeForApi(user.id, params.customerId, request),
);
