import { z } from "zod";
import { ApplyOptionsBody, ProposeChangeSetBody } from "~/lib/change-actions";
import { getChangeSet, proposeRevert, type ChangeSetDetail } from "./changes/pipeline.server";
import { proposeBulk } from "./changes/propose.server";
import type { ApprovalCapability } from "./changes/approval.server";
import { applyAndRefresh, changeSetView, discardChangeSet, validateQuietly, type ChangeSetView } from "./changes/review.server";
import { OPEN_CHANGE_SET_STATUSES } from "./db/schema";
import { InvalidError, NotFoundError, ConflictError } from "./domain-errors.server";
import { readJsonBody } from "./http/errors.server";
import { requireAccountOf } from "./account-access.server";
import { DiscardDraftsBody, discardDrafts, listDrafts } from "./changes/drafts.server";

// The JSON API's change sets: the same services as the review page, answered
// as { changeSet, validationProblem? }. Nothing here reaches Google except
// through the pipeline (validate, apply), and apply is always the caller's own request.

const notFound = () => new NotFoundError("Change set not found");

/** A change set of the caller's in the API's shape; another user's, a malformed id or an account no longer connected is a 404. */
async function viewOf(userId: string, detail: ChangeSetDetail): Promise<ChangeSetView> {
  const account = await requireAccountOf(userId, detail.set.customer_id).catch((error: unknown) => {
    throw error instanceof NotFoundError ? notFound() : error;
  });
  return changeSetView(detail, account.currencyCode);
}

async function load(userId: string, id: string): Promise<ChangeSetView> {
  if (!z.uuid().safeParse(id).success) throw notFound();
  return viewOf(userId, await getChangeSet(userId, id));
}

/** Stores the actions as one change set and has Google validate it; an outage leaves it "proposed" with a validationProblem. */
export async function proposeForApi(userId: string, customerId: string, request: Request) {
  const account = await requireAccountOf(userId, customerId);
  if (account.manager) throw new InvalidError("A manager account has no campaigns of its own; propose changes in one of its client accounts.");
  const body = await readJsonBody(request, ProposeChangeSetBody);
  const id = await proposeBulk(userId, { customerId: account.customerId, actions: body.actions }, { title: body.title, atomic: body.atomic, origin: "api" });
  const validationProblem = await validateQuietly(userId, id);
  return { changeSet: await changeSetView(await getChangeSet(userId, id), account.currencyCode), validationProblem };
}

export async function changeSetForApi(userId: string, id: string) {
  return { changeSet: await load(userId, id) };
}

const OPEN: readonly string[] = OPEN_CHANGE_SET_STATUSES;

/** Google's check again (the "before" values are re-read). Refusals show in the set's status and each change's error. */
export async function validateForApi(userId: string, id: string) {
  const current = await load(userId, id);
  if (!OPEN.includes(current.status)) throw new ConflictError(`This change set is already ${current.status.replace("_", " ")}`);
  const validationProblem = await validateQuietly(userId, id);
  return { changeSet: await load(userId, id), validationProblem };
}

/** The body is optional: an empty one is {}. */
async function readApplyBody(request: Request): Promise<z.infer<typeof ApplyOptionsBody>> {
  if ((await request.clone().text()).trim() === "") return {};
  return readJsonBody(request, ApplyOptionsBody);
}

/** The caller's approval. The outcome (applied, partially_applied, failed) is in changeSet.status, per change in its status and error. */
export async function applyForApi(userId: string, id: string, request: Request, approval: ApprovalCapability) {
  await load(userId, id);
  const body = await readApplyBody(request);
  const detail = await applyAndRefresh(userId, id, {
    approval,
    confirmLargeMoves: body.confirmLargeMoves === true,
    confirmRemovals: body.confirmRemovals === true,
  });
  return { changeSet: await viewOf(userId, detail) };
}

export async function discardForApi(userId: string, id: string) {
  await load(userId, id);
  await discardChangeSet(userId, id);
  return { changeSet: await load(userId, id) };
}

/** A new change set with the recorded before values, validated like any proposal; it still needs its own apply. */
export async function revertForApi(userId: string, id: string) {
  await load(userId, id);
  const revertId = await proposeRevert(userId, id);
  const validationProblem = await validateQuietly(userId, revertId);
  return { changeSet: await load(userId, revertId), validationProblem };
}

/** GET /drafts: the query's filters as listDrafts reads them (an empty value is no filter). */
export function draftsForApi(userId: string, url: URL) {
  return listDrafts(userId, Object.fromEntries([...url.searchParams].filter(([, v]) => v !== "")));
}

/** POST /drafts/discard { ids }: each of the caller's drafts among them discarded; the others said why not. */
export async function discardDraftsForApi(userId: string, request: Request) {
  const body = await readJsonBody(request, DiscardDraftsBody);
  return discardDrafts(userId, body.ids);
}
