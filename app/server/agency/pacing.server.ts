import type { Pacing } from "~/lib/pacing";
import { sql } from "kysely";
import { z } from "zod";
import { addDays, todayIn, yesterdayIn } from "~/lib/dates";
import { requireOwnAccount } from "../ads/context.server";
import { proposeBulk } from "../changes/propose.server";
import { getDb, type DB } from "../db/db.server";
import { InvalidError } from "../domain-errors.server";

// Issue 31 point 2: budget pacing. A monthly budget is set in the app for an
// account and optionally for some of its campaigns; the month's spend so far,
// the recent daily run-rate and the days left give the projected month-end,
// how far off plan that is, and the daily budget that would land on plan,
// which the person can take as a change set (reviewed like any other).

/** The recent run-rate is the average of this many complete days. */
export const RUN_RATE_DAYS = 7;
/** A projection within this share of the budget is on plan; beyond it the account is over or under pace. */
export const ON_PLAN_TOLERANCE = 0.1;

export interface PacingDays {
  /** YYYY-MM of the month being paced (in the account's time zone). */
  month: string;
  /** The first day of the month and yesterday: the complete days counted as spent. */
  monthStart: string;
  yesterday: string;
  daysInMonth: number;
  /** Complete days of the month so far (today is not one). */
  daysElapsed: number;
  /** Days left including today. */
  daysLeft: number;
  /** The first day of the run-rate window (it ends yesterday, and may reach into last month). */
  runRateFrom: string;
}

/** The month's calendar for an account's time zone at `now`. */
export function pacingDays(timeZone: string, now: Date = new Date()): PacingDays {
  const today = todayIn(timeZone, now);
  const [y, m, d] = today.split("-").map(Number);
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return {
    month: today.slice(0, 7),
    monthStart: `${today.slice(0, 7)}-01`,
    yesterday: yesterdayIn(timeZone, now),
    daysInMonth,
    daysElapsed: d - 1,
    daysLeft: daysInMonth - d + 1,
    runRateFrom: addDays(today, -RUN_RATE_DAYS),
  };
}

export type { Pacing } from "~/lib/pacing";

/** The arithmetic, shared by the overview's SQL (same formula) and every screen. */
export function pacingOf(budgetMicros: number, spentMicros: number, runRateWindowMicros: number, days: PacingDays): Pacing {
  const runRateMicros = Math.round(runRateWindowMicros / RUN_RATE_DAYS);
  const projectedMicros = spentMicros + runRateMicros * days.daysLeft;
  const offPlanMicros = projectedMicros - budgetMicros;
  const offPlanRatio = budgetMicros > 0 ? offPlanMicros / budgetMicros : 0;
  return {
    month: days.month,
    budgetMicros,
    spentMicros,
    planToDateMicros: Math.round((budgetMicros * days.daysElapsed) / days.daysInMonth),
    runRateMicros,
    daysLeft: days.daysLeft,
    projectedMicros,
    offPlanMicros,
    offPlanRatio: Math.round(offPlanRatio * 10000) / 10000,
    status: Math.abs(offPlanRatio) <= ON_PLAN_TOLERANCE ? "on_plan" : offPlanRatio > 0 ? "over" : "under",
    suggestedDailyMicros: Math.max(0, Math.round((budgetMicros - spentMicros) / days.daysLeft)),
  };
}

export interface CampaignPacing {
  campaignId: string;
  name: string;
  status: string;
  dailyBudgetMicros: number | null;
  pacing: Pacing;
}

export interface BudgetPlanView {
  customerId: string;
  currencyCode: string;
  account: Pacing | null;
  campaigns: CampaignPacing[];
}

/** The account's plan and pacing, and that of each campaign with a plan of its own. */
export async function budgetPlan(userId: string, customerId: string, now: Date = new Date(), db: DB = getDb()): Promise<BudgetPlanView> {
  const account = await requireOwnAccount(userId, customerId, { db });
  const days = pacingDays(account.time_zone, now);
  const plans = await db.selectFrom("budget_plans").selectAll().where("customer_id", "=", customerId).execute();
  const from = days.runRateFrom < days.monthStart ? days.runRateFrom : days.monthStart;
  const spend = await db
    .selectFrom("ads_campaign_daily")
    .select([
      "campaign_id",
      sql<number>`SUM(CASE WHEN date >= ${days.monthStart} THEN cost_micros ELSE 0 END)`.as("mtd"),
      sql<number>`SUM(CASE WHEN date >= ${days.runRateFrom} THEN cost_micros ELSE 0 END)`.as("recent"),
    ])
    .where("customer_id", "=", customerId)
    .where("date", ">=", from)
    .where("date", "<=", days.yesterday)
    .groupBy("campaign_id")
    .execute();
  const byCampaign = new Map(spend.map((s) => [s.campaign_id, { mtd: Number(s.mtd), recent: Number(s.recent) }]));
  const accountPlan = plans.find((p) => p.campaign_id === "");
  let mtd = 0;
  let recent = 0;
  for (const s of byCampaign.values()) {
    mtd += s.mtd;
    recent += s.recent;
  }
  const campaignPlans = plans.filter((p) => p.campaign_id !== "");
  const campaigns = campaignPlans.length
    ? await db
        .selectFrom("ads_campaigns")
        .select(["id", "name", "status", "budget_amount_micros"])
        .where("customer_id", "=", customerId)
        .where(
          "id",
          "in",
          campaignPlans.map((p) => p.campaign_id),
        )
        .execute()
    : [];
  const nameOf = new Map(campaigns.map((c) => [c.id, c]));
  return {
    customerId,
    currencyCode: account.currency_code,
    account: accountPlan ? pacingOf(Number(accountPlan.monthly_budget_micros), mtd, recent, days) : null,
    campaigns: campaignPlans
      .filter((p) => nameOf.has(p.campaign_id))
      .map((p) => {
        const c = nameOf.get(p.campaign_id)!;
        const s = byCampaign.get(p.campaign_id) ?? { mtd: 0, recent: 0 };
        return {
          campaignId: p.campaign_id,
          name: c.name,
          status: c.status,
          dailyBudgetMicros: c.budget_amount_micros === null ? null : Number(c.budget_amount_micros),
          pacing: pacingOf(Number(p.monthly_budget_micros), s.mtd, s.recent, days),
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const MonthlyBudget = z
  .number({ error: "The monthly budget must be a number" })
  .positive("The monthly budget must be greater than 0")
  .max(1_000_000_000, "The monthly budget is too large")
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "The monthly budget can have at most 2 decimals")
  .nullable()
  .describe("In units of the account currency (not micros); null removes the plan");

/** The PUT body: the account's monthly budget and, optionally, campaigns' own. */
export const BudgetPlanBody = z
  .object({
    monthlyBudget: MonthlyBudget.optional(),
    campaigns: z
      .array(z.object({ campaignId: z.string().regex(/^\d{1,20}$/, "Campaign ids are digits"), monthlyBudget: MonthlyBudget }).strict())
      .max(1000)
      .optional(),
  })
  .strict();

/** Sets (or with null removes) the account's and the named campaigns' monthly budgets; everything is checked before anything is written. */
export async function saveBudgetPlan(userId: string, customerId: string, input: z.output<typeof BudgetPlanBody>, db: DB = getDb()): Promise<void> {
  await requireOwnAccount(userId, customerId, { db });
  const campaignIds = (input.campaigns ?? []).map((c) => c.campaignId);
  if (new Set(campaignIds).size !== campaignIds.length) throw new InvalidError("A campaign is named twice", { campaigns: "A campaign is named twice" });
  if (campaignIds.length) {
    const known = await db.selectFrom("ads_campaigns").select("id").where("customer_id", "=", customerId).where("id", "in", campaignIds).execute();
    const missing = campaignIds.filter((id) => !known.some((k) => k.id === id));
    if (missing.length) throw new InvalidError(`Campaign ${missing[0]} is not in this account`, { campaigns: `Campaign ${missing[0]} is not in this account` });
  }
  const now = new Date().toISOString();
  const entries: Array<[string, number | null]> = [
    ...(input.monthlyBudget === undefined ? [] : ([["", input.monthlyBudget]] as Array<[string, number | null]>)),
    ...(input.campaigns ?? []).map((c) => [c.campaignId, c.monthlyBudget] as [string, number | null]),
  ];
  await db.transaction().execute(async (trx) => {
    for (const [campaignId, amount] of entries) {
      if (amount === null) {
        await trx.deleteFrom("budget_plans").where("customer_id", "=", customerId).where("campaign_id", "=", campaignId).execute();
        continue;
      }
      const micros = Math.round(amount * 100) * 10_000;
      await trx
        .insertInto("budget_plans")
        .values({ customer_id: customerId, campaign_id: campaignId, monthly_budget_micros: micros, updated_at: now, updated_by: userId })
        .onConflict((oc) => oc.columns(["customer_id", "campaign_id"]).doUpdateSet({ monthly_budget_micros: micros, updated_at: now, updated_by: userId }))
        .execute();
    }
  });
}

/**
 * The daily budgets that land on plan, as a change set to review: each
 * campaign with a plan of its own gets its suggested daily budget; the
 * account's suggestion is shared among its other enabled campaigns with a
 * daily budget of their own (not shared), in proportion to their current
 * budgets, so the mix the person chose stays. Returns the change set's id.
 */
export async function proposePacingBudgets(userId: string, customerId: string, now: Date = new Date(), db: DB = getDb()): Promise<string> {
  const view = await budgetPlan(userId, customerId, now, db);
  const actions: Array<{ type: "budget"; campaignId: string; amount: number }> = [];
  const units = (micros: number) => Math.max(0.01, Math.round(micros / 10_000) / 100);
  const planned = new Set(view.campaigns.map((c) => c.campaignId));
  for (const c of view.campaigns) {
    if (c.status !== "ENABLED" || c.dailyBudgetMicros === null) continue;
    const amount = units(c.pacing.suggestedDailyMicros);
    if (Math.round(amount * 1_000_000) !== c.dailyBudgetMicros) actions.push({ type: "budget", campaignId: c.campaignId, amount });
  }
  if (view.account) {
    const others = await db
      .selectFrom("ads_campaigns")
      .select(["id", "budget_amount_micros", "budget_explicitly_shared", "budget_period"])
      .where("customer_id", "=", customerId)
      .where("status", "=", "ENABLED")
      .where("budget_amount_micros", "is not", null)
      .orderBy("id")
      .execute();
    const own = others.filter((c) => !planned.has(c.id) && c.budget_explicitly_shared !== 1 && (c.budget_period ?? "DAILY") === "DAILY");
    const plannedDaily = view.campaigns.reduce((s, c) => s + c.pacing.suggestedDailyMicros, 0);
    const target = Math.max(0, view.account.suggestedDailyMicros - plannedDaily);
    const current = own.reduce((s, c) => s + Number(c.budget_amount_micros), 0);
    if (current > 0) {
      for (const c of own) {
        const amount = units((target * Number(c.budget_amount_micros)) / current);
        if (Math.round(amount * 1_000_000) !== Number(c.budget_amount_micros)) actions.push({ type: "budget", campaignId: c.id, amount });
      }
    }
  }
  if (!view.account && view.campaigns.length === 0) throw new InvalidError("Set a monthly budget first");
  if (actions.length === 0) throw new InvalidError("The daily budgets already land on plan: nothing to change");
  return proposeBulk(
    userId,
    { customerId, actions },
    { source: "user", sourceDetail: "Budget pacing", title: `Daily budgets to land on the ${view.account?.month ?? "month"}'s plan` },
  );
}
