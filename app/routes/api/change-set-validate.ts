import { validateForApi } from "~/server/change-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set-validate";

export const loader = postOnly;

/** POST → { changeSet, validationProblem }: Google checks the changes again (validateOnly); nothing is applied. */
export const action = apiRoute({ method: "POST", tokenScope: "propose" }, ({ params }: Route.ActionArgs, { user }) =>
  validateForApi(user.id, params.changeSetId),
);
