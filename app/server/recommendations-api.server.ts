import { z } from "zod";
import { getDb } from "./db/db.server";
import { InvalidError } from "./domain-errors.server";
import { readJsonBody } from "./http/errors.server";
import {
  applyRecommendation,
  dismissRecommendation,
  DismissInput,
  isRecommendationType,
  listRecommendations,
  RECOMMENDATION_STATUSES,
  restoreRecommendation,
  snoozeRecommendation,
  SnoozeInput,
} from "./optimizer/service.server";
import { requireAccountOf } from "./account-access.server";
import { getAnalysisState } from "./optimizer/in-flight.server";

// The JSON API's recommendations (bearer): list with the score, apply (a
// validated change set, never applied), dismiss, snooze, restore.

const StatusParam = z.enum(RECOMMENDATION_STATUSES, { error: "status must be open, dismissed, snoozed or applied" });

export async function recommendationsForApi(userId: string, customerId: string, url: URL) {
  const account = await requireAccountOf(userId, customerId);
  if (account.manager) throw new InvalidError("A manager account has no campaigns of its own; ask for one of its client accounts.");
  const rawStatus = url.searchParams.get("status") ?? "open";
  const status = StatusParam.safeParse(rawStatus);
  if (!status.success) throw new InvalidError(status.error.issues[0].message, { status: status.error.issues[0].message });
  const rawType = url.searchParams.get("type");
  if (rawType !== null && !isRecommendationType(rawType)) throw new InvalidError("Unknown recommendation type", { type: "Unknown recommendation type" });
  const db = getDb();
  const [list, analysis] = await Promise.all([
    listRecommendations(db, account.customerId, { status: status.data, type: rawType ?? undefined }),
    getAnalysisState(db, account.customerId),
  ]);
  return { recommendations: list.recommendations, score: list.score, ranAt: list.ranAt, syncedAt: list.syncedAt, analysis };
}

/** A body is optional for dismiss: none, or JSON. */
async function optionalJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const length = request.headers.get("Content-Length");
  if (length === "0" || (!request.headers.get("Content-Type") && !request.body)) return schema.parse({});
  return readJsonBody(request, schema);
}

export async function applyForApi(userId: string, id: string) {
  const { changeSet, validationProblem } = await applyRecommendation(userId, id);
  return { changeSet, validationProblem };
}

export async function dismissForApi(userId: string, id: string, request: Request) {
  const body = await optionalJson(request, DismissInput);
  return { recommendation: await dismissRecommendation(userId, id, body.reason) };
}

export async function snoozeForApi(userId: string, id: string, request: Request) {
  const body = await readJsonBody(request, SnoozeInput);
  return { recommendation: await snoozeRecommendation(userId, id, body.days) };
}

export async function restoreForApi(userId: string, id: string) {
  return { recommendation: await restoreRecommendation(userId, id) };
}
