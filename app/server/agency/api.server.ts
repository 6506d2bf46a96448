import { InvalidError } from "../domain-errors.server";
import { readJsonBody } from "../http/errors.server";
import { accountsOverview, parseOverviewQuery } from "./overview.server";
import { budgetPlan, BudgetPlanBody, proposePacingBudgets, saveBudgetPlan } from "./pacing.server";

/** GET /api/v1/accounts/overview: the page's data; a query value that does not parse is a 400, not a silent default. */
export async function overviewForApi(userId: string, url: URL) {
  const { query, ignored } = parseOverviewQuery(url.searchParams);
  if (ignored.length) throw new InvalidError(`Invalid ${ignored.join(", ")}`);
  const overview = await accountsOverview(userId, query);
  return { ...overview, sort: query.sort, dir: query.dir };
}

/** GET /api/v1/accounts/{customerId}/budget-plan. */
export function budgetPlanForApi(userId: string, customerId: string) {
  return budgetPlan(userId, customerId);
}

/** PUT /api/v1/accounts/{customerId}/budget-plan: sets what the body names, then answers the plan as GET does. */
export async function putBudgetPlanForApi(userId: string, customerId: string, request: Request) {
  const body = await readJsonBody(request, BudgetPlanBody);
  await saveBudgetPlan(userId, customerId, body);
  return budgetPlan(userId, customerId);
}

/** POST /api/v1/accounts/{customerId}/budget-plan/proposal: the daily budgets that land on plan, as a change set to review. */
export async function proposePacingForApi(userId: string, customerId: string) {
  return { changeSetId: await proposePacingBudgets(userId, customerId) };
}
