import { data, redirect } from "react-router";
import { z } from "zod";
import { recommendationList } from "~/lib/recommendations";
import { optimizerHref } from "~/lib/optimizer-url";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { TargetsForm } from "~/lib/targets-form";
import { getDb, type DB } from "../db/db.server";
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
  applyRecommendations,
  BulkApplyInput,
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
import { alreadyInEffect } from "./in-effect.server";
import { RECOMMENDATION_TYPES, type Recommendation } from "./types.server";
import { calibration, measuredMoneyThisMonth } from "../impact/service.server";

// What the screens need from the engine: the AI Optimizer's panel (and its
// form posts), the Dashboard's two cards and the score's breakdown page.

export async function recommendationsPanel(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return null;
  const list = recommendationList(url.searchParams.get("recs")) ?? "open";
  const db = getDb();
  // Recommendations are only as fresh as the data: this page keeps it fresh as the report pages do.
  const filter = PanelFilter.parse({ campaign: url.searchParams.get("campaign") ?? undefined, type: url.searchParams.get("type") ?? undefined });
  const [{ sync }, result, counts, analysis, targetSet, campaignOf] = await Promise.all([
    freshness(user.id, account),
    listRecommendations(db, account.customerId, { status: list }),
    countRecommendations(db, account.customerId),
    getAnalysisState(db, account.customerId),
    hasAnyTarget(db, account.customerId),
    campaignsOfRecommendations(db, account.customerId),
  ]);
  // Advice that a change applied since the engine's run carried out (from the chat, ticked rows, a
  // revert) leaves the open list at once, as it does in the chat; the next run drops it for good.
  const carriedOut = list === "open" ? await carriedOutSinceRun(db, account.customerId, result.ranAt, result.recommendations) : new Set<string>();
  const all = result.recommendations.filter((r) => !carriedOut.has(r.id));
  const shown = all.filter((r) => (!filter.type || r.type === filter.type) && (!filter.campaign || campaignOf(r).has(filter.campaign)));
  // The campaigns and types the list has, for the filters' choices.
  const campaignIds = new Set(all.flatMap((r) => [...campaignOf(r)]));
  return {
    list,
    sync,
    analysis,
    counts: { ...counts, open: Math.max(0, counts.open - carriedOut.size) },
    carriedOut: carriedOut.size,
    window: commonWindow(shown),
    filter,
    campaigns: campaignOf.names.filter((c) => campaignIds.has(c.id)),
    types: [...new Set(all.map((r) => r.type))],
    totals: totalsOf(shown),
    recommendations: shown,
    ranAt: result.ranAt,
    syncedAt: result.syncedAt,
    score: result.score.value,
    targetSet,
    currencyCode: account.currencyCode,
    timeZone: account.timeZone,
    now: renderClock(),
  };
}

/** The recommendations whose every action is already what the account has, when a change set was applied since the run. */
async function carriedOutSinceRun(db: DB, customerId: string, ranAt: string | null, recs: Recommendation[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (!ranAt) return out;
  const appliedSince = await db
    .selectFrom("change_sets")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("applied_at", ">", ranAt)
    .limit(1)
    .executeTakeFirst();
  if (!appliedSince) return out;
  for (const r of recs) if (await alreadyInEffect(customerId, r.actions)) out.add(r.id);
  return out;
}

/** The window most of the listed recommendations' figures cover (the engine's last complete days), to name it once. */
function commonWindow(recs: Recommendation[]): { from: string; to: string } | null {
  const counts = new Map<string, number>();
  for (const r of recs) {
    const key = `${r.evidence.dateRange.from}|${r.evidence.dateRange.to}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!top) return null;
  const [from, to] = top[0].split("|");
  return { from, to };
}

const PanelFilter = z.object({
  // Values that cannot be ours (typed, tampered with) are ignored, as the address's other parts are.
  campaign: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional()
    .catch(undefined),
  type: z.enum(RECOMMENDATION_TYPES).optional().catch(undefined),
});

/**
 * Which campaigns each recommendation is about: its campaign resources, and the campaigns of
 * its ad groups and keywords (an ad group negative names only its ad group).
 */
export async function campaignsOfRecommendations(db: DB, customerId: string) {
  const [groups, campaigns] = await Promise.all([
    db.selectFrom("ads_ad_groups").select(["id", "campaign_id"]).where("customer_id", "=", customerId).execute(),
    db.selectFrom("ads_campaigns").select(["id", "name"]).where("customer_id", "=", customerId).orderBy("name").execute(),
  ]);
  const campaignOfGroup = new Map(groups.map((g) => [g.id, g.campaign_id]));
  const of = (r: Pick<Recommendation, "resources">): Set<string> => {
    const out = new Set<string>();
    for (const x of r.resources) {
      if (x.kind === "campaign") out.add(x.id);
      else if (x.kind === "ad_group" || x.kind === "keyword" || x.kind === "ad" || x.kind === "negative_keyword") {
        const c = campaignOfGroup.get(x.id.split("~")[0]);
        if (c) out.add(c);
      }
    }
    return out;
  };
  return Object.assign(of, { names: campaigns.map((c) => ({ id: c.id, name: c.name })) });
}

/**
 * A campaign page's own recommendations (issue 29 point 5): the open items about the campaign
 * (its ad groups and keywords included), largest impact first, with their totals counted once.
 */
export async function campaignRecommendations(customerId: string, campaignId: string, limit = 5) {
  const db = getDb();
  const [{ recommendations }, campaignOf] = await Promise.all([
    listRecommendations(db, customerId, { status: "open" }),
    campaignsOfRecommendations(db, customerId),
  ]);
  const own = recommendations.filter((r) => campaignOf(r).has(campaignId));
  return {
    totals: totalsOf(own),
    items: own.slice(0, limit).map((r) => ({ id: r.id, type: r.type, title: r.title, impact: r.impact, confidenceLabel: r.confidenceLabel })),
  };
}

/** What the listed items are worth a month, each item once (its alternatives are not added: issue 29 point 5). */
export function totalsOf(list: Array<Pick<Recommendation, "impact">>) {
  const sum = (kind: string) => Math.round(list.reduce((s, r) => s + (r.impact.kind === kind ? r.impact.monthly : 0), 0) * 100) / 100;
  return { count: list.length, costSaved: sum("cost_saved"), conversions: sum("conversions_gained"), value: sum("value_gained") };
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
  if (form.get("intent") === "rec-bulk-apply") {
    // "Apply selected": the ticked items (checkboxes named ids) become one change set and one review.
    const body = BulkApplyInput.safeParse({ ids: form.getAll("ids").map(String) });
    if (!body.success) return data({ recError: { id: null as string | null, field: "ids", message: body.error.issues[0].message } }, { status: 400 });
    try {
      const { changeSet, validationProblem } = await applyRecommendations(user.id, body.data.ids);
      return redirectWithToast(
        `/changes/${changeSet.id}`,
        validationProblem ? { type: "error", message: validationProblem } : { type: "success", message: "Change set ready: review it and apply" },
      );
    } catch (error) {
      const known = toHttpError(error);
      if (known) return data({ recError: { id: null as string | null, field: "ids", message: known.detail } }, { status: known.status });
      throw error;
    }
  }
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
