import { InvalidError } from "../domain-errors.server";
import { z } from "zod";
import { readJsonBody } from "../http/errors.server";
import { AlertListQuery, listAlerts, listMutes, markAlertsRead, MuteInput, resolveAlert, setMute, unreadAlertCount } from "./alert-inbox.server";
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

/** GET /api/v1/alerts: a page of the caller's alerts; a query value that does not parse is a 400. */
export async function alertsForApi(userId: string, url: URL) {
  const parsed = AlertListQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new InvalidError(parsed.error.issues[0].message);
  const list = await listAlerts(userId, parsed.data);
  return { ...list, unread: await unreadAlertCount(userId) };
}

const ReadBody = z.object({ ids: z.array(z.string()).max(500).optional().describe("The alerts to mark read; omitted: every open one") }).strict();

/** POST /api/v1/alerts/read. */
export async function readAlertsForApi(userId: string, request: Request) {
  const body = await readJsonBody(request, ReadBody);
  return { marked: await markAlertsRead(userId, body.ids ?? "all"), unread: await unreadAlertCount(userId) };
}

/** POST /api/v1/alerts/{alertId}/resolve. */
export async function resolveAlertForApi(userId: string, alertId: string) {
  await resolveAlert(userId, alertId);
  return { id: alertId, status: "resolved" as const };
}

/** GET /api/v1/alerts/mutes. */
export async function mutesForApi(userId: string) {
  return { mutes: await listMutes(userId) };
}

/** POST /api/v1/alerts/mutes { customerId, rule, muted }. */
export async function setMuteForApi(userId: string, request: Request) {
  await setMute(userId, await readJsonBody(request, MuteInput));
  return { mutes: await listMutes(userId) };
}

export { ReadBody };
