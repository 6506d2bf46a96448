import { budgetPlanForApi, putBudgetPlanForApi } from "~/server/agency/api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/account-budget-plan";

/** GET → the monthly plan of the account and its campaigns with their pacing. */
export const loader = apiRoute({}, ({ params }: Route.LoaderArgs, { user }) => budgetPlanForApi(user.id, params.customerId));

/** PUT { monthlyBudget?, campaigns? } → the plan as GET answers it. A person's session only. */
export const action = apiRoute({ method: "PUT", allow: "GET, PUT" }, ({ params, request }: Route.ActionArgs, { user }) =>
  putBudgetPlanForApi(user.id, params.customerId, request),
);
