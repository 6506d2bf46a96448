import { data, redirect } from "react-router";
import { z } from "zod";
import { activeAccountOf } from "../account-access.server";
import type { User } from "../db/schema";
import { DomainError } from "../domain-errors.server";
import { redirectWithToast } from "../toast.server";
import { budgetPlan, proposePacingBudgets, saveBudgetPlan } from "./pacing.server";

// The dashboard's budget pacing section: its data, and its two forms (set the
// monthly budget; propose the daily budgets that land on it).

export async function pacingSection(user: User) {
  const account = await activeAccountOf(user);
  if (!account) return null;
  return budgetPlan(user.id, account.customerId);
}

export const PACING_INTENTS = ["budget-plan", "propose-pacing"] as const;

export function isPacingIntent(intent: unknown): boolean {
  return typeof intent === "string" && (PACING_INTENTS as readonly string[]).includes(intent);
}

const PlanForm = z.object({
  intent: z.literal("budget-plan"),
  // Empty removes the plan.
  monthlyBudget: z
    .string()
    .trim()
    .transform((s) => (s === "" ? null : Number(s.replace(/,/g, ""))))
    .pipe(
      z
        .number({ error: "The monthly budget must be a number" })
        .positive("The monthly budget must be greater than 0")
        .max(1_000_000_000, "The monthly budget is too large")
        .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "The monthly budget can have at most 2 decimals")
        .nullable(),
    ),
});

export async function pacingAction(user: User, form: FormData) {
  const account = await activeAccountOf(user);
  if (!account) return data({ pacingError: "Connect a Google Ads account first" }, { status: 400 });
  try {
    if (form.get("intent") === "propose-pacing") {
      const id = await proposePacingBudgets(user.id, account.customerId);
      throw redirect(`/changes/${id}`);
    }
    const parsed = PlanForm.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ pacingError: parsed.error.issues[0].message }, { status: 400 });
    await saveBudgetPlan(user.id, account.customerId, { monthlyBudget: parsed.data.monthlyBudget });
    return redirectWithToast("/dashboard", {
      type: "success",
      message: parsed.data.monthlyBudget === null ? "Monthly budget removed" : "Monthly budget saved",
    });
  } catch (error) {
    if (error instanceof DomainError) return data({ pacingError: error.message }, { status: 400 });
    throw error;
  }
}
