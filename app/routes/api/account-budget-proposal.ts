import { proposePacingForApi } from "~/server/agency/api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/account-budget-proposal";

export const loader = postOnly;

/** POST → 201 { changeSetId }: the daily budgets that land on the monthly plan, proposed for review (nothing applied). */
export const action = apiRoute({ method: "POST", status: 201, tokenScope: "propose" }, ({ params }: Route.ActionArgs, { user }) =>
  proposePacingForApi(user.id, params.customerId),
);
