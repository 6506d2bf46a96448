import { data, redirect } from "react-router";
import { z } from "zod";
import { getChangeSet, OpenRevertError, proposeRevert } from "./changes/pipeline.server";
import { proposeFromForm } from "./changes/forms.server";
import type { ApprovalCapability } from "./changes/approval.server";
import { applyAndRefresh, changeSetView, discardChangeSet, listOpenChangeSets, validateQuietly } from "./changes/review.server";
import { HISTORY_PAGE_SIZE, HistoryQuery, listHistory } from "./changes/history.server";
import { outsideChangesImporting, refreshOutsideChanges } from "./changes/history-import.server";
import type { User } from "./db/schema";
import { NotFoundError } from "./domain-errors.server";
import { formFailure } from "./http/page-errors.server";
import { CHANGE_FORM_SCHEMAS } from "~/lib/change-form-schemas";
import { REMOVAL_CONFIRM_WORD } from "~/lib/change-actions";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { activeAccountOf, notFound as notFoundPage, requireAccountOf } from "./account-access.server";
import { getDb } from "./db/db.server";
import { redirectWithToast } from "./toast.server";
import { impactRecordsOrNone } from "./impact/store.server";
import { historySubjects } from "./impact/service.server";

// The loaders and actions of the change screens: proposing from the campaign
// screens, the review page, and /history.

const reviewHref = (id: string) => `/changes/${id}`;

/** Any campaign screen's change form → a validated proposal, shown on its review page; bad input stays on the form. */
export async function proposeAction(user: User, form: FormData) {
  const intent = String(form.get("intent") ?? "");
  // The form's own schema first (the one the browser ran, if it could); buttons-only forms have none.
  const submission = parseSubmission(form, CHANGE_FORM_SCHEMAS[intent] ?? AnyForm);
  const account = await activeAccountOf(user);
  if (!account) return data({ intent, result: refusal(submission, { formError: "Connect a Google Ads account first" }) }, { status: 409 });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const result = await proposeFromForm(user.id, account.customerId, form);
  // What was typed comes back in the reply, so a refused form is filled in again even without JavaScript.
  if (!result.ok) return data({ intent: result.intent, result: refusal(submission, result) }, { status: result.status });
  const problem = await validateQuietly(user.id, result.changeSetId);
  return problem ? redirectWithToast(reviewHref(result.changeSetId), { type: "error", message: problem }) : redirect(reviewHref(result.changeSetId));
}

const AnyForm = z.looseObject({});

/** The new-ad page: the campaign, its ad groups, and the account's name. */
export async function newAdPage(user: User, campaignId: string) {
  const account = await activeAccountOf(user);
  if (!account || !/^\d{1,19}$/.test(campaignId)) notFoundPage();
  const db = getDb();
  const campaign = await db
    .selectFrom("ads_campaigns")
    .select(["id", "name", "status"])
    .where("customer_id", "=", account.customerId)
    .where("id", "=", campaignId)
    .executeTakeFirst();
  if (!campaign) notFoundPage();
  const adGroups = await db
    .selectFrom("ads_ad_groups")
    .select(["id", "name"])
    .where("customer_id", "=", account.customerId)
    .where("campaign_id", "=", campaignId)
    .where("status", "!=", "REMOVED")
    .orderBy("name")
    .execute();
  const sample = await db
    .selectFrom("ads_ads")
    .select(["final_urls"])
    .where("customer_id", "=", account.customerId)
    .where("campaign_id", "=", campaignId)
    .limit(1)
    .executeTakeFirst();
  const finalUrl = (JSON.parse(sample?.final_urls ?? "[]") as string[])[0] ?? "";
  return { account: { name: account.name }, campaign, adGroups, suggestedFinalUrl: finalUrl };
}

async function loadView(user: User, id: string) {
  if (!z.uuid().safeParse(id).success) throw new NotFoundError("Change set not found");
  const detail = await getChangeSet(user.id, id);
  const account = await requireAccountOf(user.id, detail.set.customer_id);
  return { view: await changeSetView(detail, account.currencyCode), account };
}

function notFoundResponse(): never {
  throw data({ detail: "Change set not found" }, { status: 404 });
}

export async function changeSetPage(user: User, id: string) {
  try {
    const { view, account } = await loadView(user, id);
    const impact = view.appliedAt ? ((await impactRecordsOrNone(account.customerId, [`cs:${id}`])).get(`cs:${id}`) ?? null) : null;
    return {
      changeSet: view,
      impact,
      account: { customerId: account.customerId, name: account.name, currencyCode: account.currencyCode, timeZone: account.timeZone },
    };
  } catch (error) {
    if (error instanceof NotFoundError) notFoundResponse();
    throw error;
  }
}

const ReviewIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("apply"), confirmLargeMoves: z.literal("on").optional(), confirmRemovals: z.string().optional() }),
  z.object({ intent: z.literal("validate") }),
  z.object({ intent: z.literal("discard") }),
  z.object({ intent: z.literal("revert") }),
]);

/** The review page's buttons. Apply is the person's approval; large moves also need the confirmation box, removals the typed word. */
export async function changeSetAction(user: User, id: string, form: FormData, approve: () => Promise<ApprovalCapability>) {
  const parsed = ReviewIntent.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ formError: "Unknown action", errors: {} as Record<string, string> }, { status: 400 });
  try {
    // Only that it is theirs: each intent loads what it needs.
    if (!z.uuid().safeParse(id).success) notFoundResponse();
    await getChangeSet(user.id, id);
    switch (parsed.data.intent) {
      case "apply": {
        const detail = await applyAndRefresh(user.id, id, {
          approval: await approve(),
          confirmLargeMoves: parsed.data.confirmLargeMoves === "on",
          confirmRemovals: parsed.data.confirmRemovals?.trim().toUpperCase() === REMOVAL_CONFIRM_WORD,
        });
        const applied = detail.changes.filter((c) => c.status === "applied").length;
        const total = detail.changes.length;
        return redirectWithToast(
          reviewHref(id),
          detail.set.status === "applied"
            ? { type: "success", message: `Applied ${applied === 1 ? "1 change" : `${applied} changes`} at Google` }
            : {
                type: "error",
                message:
                  applied === 0
                    ? "Nothing was applied; see each change for Google's reason"
                    : `${applied} of ${total} changes applied; see the others for Google's reason`,
              },
        );
      }
      case "validate": {
        const problem = await validateQuietly(user.id, id);
        return problem ? redirectWithToast(reviewHref(id), { type: "error", message: problem }) : redirect(reviewHref(id));
      }
      case "discard":
        await discardChangeSet(user.id, id);
        return redirectWithToast(reviewHref(id), { type: "success", message: "Change set discarded; nothing was sent to Google" });
      case "revert":
        return await revertAndReview(user, id);
    }
  } catch (error) {
    if (error instanceof NotFoundError) notFoundResponse();
    // Google unreachable or the grant revoked included: said on the page; the set keeps its state.
    const failure = formFailure(error);
    if (!failure) throw error;
    return data({ formError: failure.formError, errors: failure.errors }, { status: failure.status });
  }
}

/** Revert = a new proposal with the recorded before values, through the same review. */
async function revertAndReview(user: User, id: string) {
  let revertId: string;
  try {
    revertId = await proposeRevert(user.id, id);
  } catch (error) {
    // A second click (or a second tab) lands on the revert that is already open.
    if (error instanceof OpenRevertError && error.changeSetId) {
      return redirectWithToast(reviewHref(error.changeSetId), { type: "error", message: "A revert of this change set is already open: here it is" });
    }
    throw error;
  }
  const problem = await validateQuietly(user.id, revertId);
  return problem ? redirectWithToast(reviewHref(revertId), { type: "error", message: problem }) : redirect(reviewHref(revertId));
}

const HistoryPageQuery = HistoryQuery.omit({ customerId: true });

export async function historyPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const raw = Object.fromEntries([...url.searchParams].filter(([k, v]) => v !== "" && k in HistoryPageQuery.shape));
  const parsed = HistoryPageQuery.safeParse(raw);
  // A bad filter in the address falls back to no filter, with a notice, like the report pages.
  const filters = parsed.success ? parsed.data : HistoryPageQuery.parse({});
  // Outside changes are imported by a job; the page shows what is in (and why the last import failed).
  const importProblem = await refreshOutsideChanges(user.id, account.customerId);
  const importing = await outsideChangesImporting(account.customerId);
  const [{ items, total }, open] = await Promise.all([
    listHistory(user.id, { ...filters, customerId: account.customerId }),
    listOpenChangeSets(user.id, account.customerId),
  ]);
  // Each applied change set's verdict (on its first row here) and each outside change's.
  const impact = Object.fromEntries(await impactRecordsOrNone(account.customerId, historySubjects(items)));
  return {
    connected: true as const,
    account: { customerId: account.customerId, name: account.name, currencyCode: account.currencyCode, timeZone: account.timeZone },
    impact,
    filters,
    filtered: Object.keys(raw).some((k) => k !== "page"),
    notice: parsed.success ? null : `Ignored an invalid filter in the address (${parsed.error.issues[0].message}); showing all changes.`,
    importProblem,
    importing,
    items,
    total,
    pageSize: HISTORY_PAGE_SIZE,
    open: open.map((o) => ({ id: o.id, title: o.title, status: o.status, createdAt: o.created_at })),
  };
}

/** History's Revert buttons. */
export async function historyAction(user: User, form: FormData) {
  const id = String(form.get("changeSetId") ?? "");
  if (form.get("intent") !== "revert" || !z.uuid().safeParse(id).success) return data({ formError: "Unknown action" }, { status: 400 });
  try {
    return await revertAndReview(user, id);
  } catch (error) {
    const failure = formFailure(error);
    if (!failure) throw error;
    return data({ formError: failure.formError }, { status: failure.status });
  }
}
