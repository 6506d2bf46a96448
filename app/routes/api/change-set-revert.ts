import { revertForApi } from "~/server/change-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set-revert";

export const loader = postOnly;

/** POST → 201 { changeSet, validationProblem }: a NEW change set undoing this one, validated but not applied. */
export const action = apiRoute({ method: "POST", status: 201 }, ({ params }: Route.ActionArgs, { user }) => revertForApi(user.id, params.changeSetId));
