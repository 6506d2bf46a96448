import { data, redirect } from "react-router";
import { z } from "zod";
import { recommendationList } from "~/lib/recommendations";
import { optimizerHref } from "~/lib/optimizer-url";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { TargetsForm } from "~/lib/targets-form";
import { getDb } from "../db/db.server";
import type { User } from "../db/schema";
import { toHttpError } from "../http/errors.server";
import { activeAccountOf } from "../account-access.server";
import { redirectWithToast } from "../toast.server";
import { renderClock } from "../render-clock.server";
import { freshness } from "../sync-status.server";
import { getAnalysisState } from "./in-flight.server";
import { runOptimizerOffThread } from "./run.server";
import { getAccountTargets, hasAnyTarget, setAccountTargets } from "./targets.server";
import {
  applyRecommendation,
  countRecommendations,
  dismissRecommendation,
  DismissInput,
  getScore,
  listRecommendations,
  restoreRecommendation,
  snoozeRecommendation,
  SnoozeInput,
} from "./service.server";
import { log } from "../log.server";
import { calibration, measuredMoneyThisMonth } from "../impact/service.server";

// What the screens need from the engine: the AI Optimizer's panel (and its
// form posts), the Dashboard's two cards and the score's breakdown page.

export async function recommendationsPanel(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return null;
  const list = recommendationList(url.searchParams.get("recs")) ?? "open";
  const db = getDb();
  // Recommendations are only as fresh as the data: this page keeps it fresh as the report pages do.
  const [{ sync }, result, counts, analysis, targetSet] = await Promise.all([
    freshness(user.id, account),
    listRecommendations(db, account.customerId, { status: list }),
    countRecommendations(db, account.customerId),
    getAnalysisState(db, account.customerId),
    hasAnyTarget(db, account.customerId),
  ]);
  return {
    list,
    sync,
    analysis,
    counts,
    recommendations: result.recommendations,
    ranAt: result.ranAt,
    syncedAt: result.syncedAt,
    score: result.score.value,
    targetSet,
    currencyCode: account.currencyCode,
    timeZone: account.timeZone,
    now: renderClock(),
  };
}

const Intent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rec-apply"), id: z.string() }),
  z.object({ intent: z.literal("rec-dismiss"), id: z.string(), reason: z.string().optional() }),
  z.object({ intent: z.literal("rec-snooze"), id: z.string(), days: z.string() }),
  z.object({ intent: z.literal("rec-restore"), id: z.string() }),
  z.object({ intent: z.literal("rec-run") }),
]);

export function isRecommendationIntent(form: FormData): boolean {
  return String(form.get("intent") ?? "").startsWith("rec-");
}

/** The panel's forms (they work without JavaScript): Apply opens the change set's review page. */
export async function recommendationsAction(user: User, form: FormData, url: URL) {
  // Back to the list the form was on, with the chat beside it still open.
  const back = optimizerHref(url.search, { recs: recommendationList(form.get("list")) ?? "open" });
  const parsed = Intent.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ recError: { id: null as string | null, field: "intent", message: "Unknown action" } }, { status: 400 });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "rec-apply": {
        const { changeSet, validationProblem } = await applyRecommendation(user.id, input.id);
        return redirectWithToast(
          `/changes/${changeSet.id}`,
          validationProblem ? { type: "error", message: validationProblem } : { type: "success", message: "Change set ready: review it and apply" },
        );
      }
      case "rec-dismiss": {
        const body = DismissInput.safeParse({ reason: input.reason });
        if (!body.success) return data({ recError: { id: input.id, field: "reason", message: body.error.issues[0].message } }, { status: 400 });
        await dismissRecommendation(user.id, input.id, body.data.reason);
        return redirectWithToast(back, { type: "success", message: "Dismissed: it stays dismissed until you restore it" });
      }
      case "rec-snooze": {
        const body = SnoozeInput.safeParse({ days: input.days });
        if (!body.success) return data({ recError: { id: input.id, field: "days", message: body.error.issues[0].message } }, { status: 400 });
        await snoozeRecommendation(user.id, input.id, body.data.days);
        return redirectWithToast(back, { type: "success", message: `Snoozed for ${body.data.days} days` });
      }
      case "rec-restore": {
        await restoreRecommendation(user.id, input.id);
        return redirectWithToast(back, { type: "success", message: "Restored to the open list" });
      }
      case "rec-run": {
        const account = await activeAccountOf(user);
        if (!account) return redirect("/ai-optimizer");
        const summary = await runOptimizerOffThread(account.customerId);
        return redirectWithToast(
          back,
          summary.ran
            ? { type: "success", message: `Analysis done: ${summary.recommendations} recommendations` }
            : { type: "error", message: "Nothing to analyse until the first sync is done" },
        );
      }
    }
  } catch (error) {
    // Unknown or another user's (404), already applied (409), nothing to apply (400), Google down (502): said next to the item.
    const known = toHttpError(error);
    if (known) {
      const id = "id" in input ? input.id : null;
      return data({ recError: { id, field: "form", message: known.detail } }, { status: known.status });
    }
    throw error;
  }
}

/** The Dashboard's two cards: the score, and the money measured this month from applied recommendations and proposals. */
export async function optimizerCards(customerId: string, timeZone: string) {
  const [score, money] = await Promise.all([getScore(getDb(), customerId), measuredMoneyThisMonth(customerId, timeZone)]);
  return { score: score.value, aiOptimizations: money };
}

/** Polled by the pages while an analysis runs (GET /analysis). */
export function analysisStatus(customerId: string) {
  return getAnalysisState(getDb(), customerId);
}

export async function scorePage(user: User) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const db = getDb();
  const [score, analysis, calibrationRows] = await Promise.all([
    getScore(db, account.customerId),
    getAnalysisState(db, account.customerId),
    calibration(account.customerId),
  ]);
  return { connected: true as const, accountName: account.name, currencyCode: account.currencyCode, analysis, calibration: calibrationRows, ...score };
}

// ---- /settings: the account's optimization targets

export async function targetsSection(user: User) {
  const account = await activeAccountOf(user);
  if (!account) return null;
  return {
    customerId: account.customerId,
    accountName: account.name,
    currencyCode: account.currencyCode,
    ...(await getAccountTargets(getDb(), account.customerId)),
  };
}

export function isTargetsIntent(form: FormData) {
  return form.get("intent") === "set-targets";
}

/** Saves the targets and re-runs the engine with them; bad values come back next to their field, nothing saved. */
export async function targetsAction(user: User, form: FormData) {
  const submission = parseSubmission(form, TargetsForm);
  const account = await activeAccountOf(user);
  if (!account) return data({ targetResult: refusal(submission, { formError: "Connect a Google Ads account first" }) }, { status: 400 });
  if (submission.status !== "success") return data({ targetResult: submission.reply() }, { status: 400 });
  await setAccountTargets(getDb(), account.customerId, user.id, { targetCpa: submission.value.targetCpa, targetRoasPercent: submission.value.targetRoas });
  await runOptimizerOffThread(account.customerId).catch((error: unknown) => log.warn(`Optimizer after new targets failed: ${String(error)}`));
  return redirectWithToast("/settings", { type: "success", message: "Targets saved; recommendations updated" });
}
