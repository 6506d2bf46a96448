import { z } from "zod";
import { LRUCache } from "lru-cache";
import { getDb, type DB } from "../db/db.server";
import type { RecommendationStatus, RecommendationsTable } from "../db/schema";
import { ConflictError, InvalidError, NotFoundError } from "../domain-errors.server";
import { getChangeSet } from "../changes/pipeline.server";
import { proposeBulk, type Action } from "../changes/propose.server";
import { changeSetView, validateQuietly, type ChangeSetView } from "../changes/review.server";
import type { PerformanceScore } from "./score.server";
import { markApplied } from "./store.server";
import {
  RECOMMENDATION_TYPES,
  type Alternative,
  type Evidence,
  type Impact,
  type Link,
  type Recommendation,
  type RecommendationType,
  type ResourceRef,
} from "./types.server";

// The recommendations as the screens, the JSON API and the assistant use them.
// Access: callers pass a user id; a recommendation of an account the user does
// not reach is a 404, like an unknown one.

export const RECOMMENDATION_STATUSES = ["open", "dismissed", "snoozed", "applied"] as const;
export const SNOOZE_DAYS = [7, 30] as const;
export const DISMISS_REASON_MAX = 500;

export interface RecommendationList {
  recommendations: Recommendation[];
  score: PerformanceScore;
  /** When the engine last ran on this account (null: never, e.g. not synced yet). */
  ranAt: string | null;
  syncedAt: string | null;
}

const EMPTY_SCORE: PerformanceScore = { value: null, breakdown: [] };

/** The status a reader sees: a snooze that ran out reads as open. */
function effectiveStatus(r: Pick<RecommendationsTable, "status" | "snoozed_until">, now: Date): RecommendationStatus {
  if (r.status === "snoozed" && r.snoozed_until !== null && r.snoozed_until <= now.toISOString()) return "open";
  return r.status;
}

function toRecommendation(r: RecommendationsTable, currencyCode: string, changeSetId: string | null, now: Date): Recommendation {
  const extra = JSON.parse(r.resources_json) as { resources: ResourceRef[]; links: Link[]; alternatives?: Alternative[] };
  return {
    id: r.id,
    type: r.type as RecommendationType,
    title: r.title,
    status: effectiveStatus(r, now),
    confidence: Math.round(r.confidence * 10000) / 10000,
    confidenceLabel: r.confidence >= 0.95 ? "Strong" : "Likely",
    impact: { ...(JSON.parse(r.impact_json) as Impact), currencyCode },
    evidence: JSON.parse(r.evidence_json) as Evidence,
    actions: JSON.parse(r.actions_json) as Action[],
    resources: extra.resources,
    links: extra.links,
    alternatives: (extra.alternatives ?? []).map((a) => ({ ...a, currencyCode })),
    dismissedReason: r.dismissed_reason,
    snoozedUntil: effectiveStatus(r, now) === "snoozed" ? r.snoozed_until : null,
    changeSetId,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
  };
}

async function currencyOf(db: DB, customerId: string): Promise<string> {
  const a = await db.selectFrom("ads_accounts").select("currency_code").where("customer_id", "=", customerId).executeTakeFirst();
  return a?.currency_code ?? "USD";
}

/**
 * The account's recommendations with one status (sorted by impact), and the
 * Performance Score. The caller checks the user may read the account. Same
 * shape as GET /api/v1/accounts/{customerId}/recommendations.
 */
export async function listRecommendations(
  db: DB,
  customerId: string,
  opts: { status?: RecommendationStatus; type?: RecommendationType; now?: Date } = {},
): Promise<RecommendationList> {
  const now = opts.now ?? new Date();
  const status = opts.status ?? "open";
  await markApplied(db, customerId, now);
  let q = db.selectFrom("recommendations").selectAll().where("customer_id", "=", customerId);
  // Applied ones are history: listed even when the problem is gone (that is the point).
  if (status !== "applied") q = q.where("present", "=", 1);
  if (opts.type) q = q.where("type", "=", opts.type);
  q = status === "open" || status === "snoozed" ? q.where("status", "in", ["open", "snoozed"]) : q.where("status", "=", status);
  const rows = (await q.orderBy("impact_amount", "desc").orderBy("key").execute()).filter((r) => effectiveStatus(r, now) === status);
  const [currency, run, sets] = await Promise.all([
    currencyOf(db, customerId),
    db.selectFrom("optimizer_runs").selectAll().where("customer_id", "=", customerId).executeTakeFirst(),
    rows.length
      ? db
          .selectFrom("change_sets")
          .select(["recommendation_id", "id", "created_at"])
          .where("customer_id", "=", customerId)
          .where("recommendation_id", "is not", null)
          .where("status", "!=", "discarded")
          .orderBy("created_at", "desc")
          .execute()
      : Promise.resolve([]),
  ]);
  // Sets made by "Apply selected" carry several recommendations (change_set_recommendations).
  const together = rows.length
    ? await db
        .selectFrom("change_set_recommendations as l")
        .innerJoin("change_sets", "change_sets.id", "l.change_set_id")
        .select(["l.recommendation_id", "change_sets.id", "change_sets.created_at"])
        .where("change_sets.customer_id", "=", customerId)
        .where("change_sets.status", "!=", "discarded")
        .execute()
    : [];
  const latestSet = new Map<string, string>();
  for (const s of [...sets, ...together].sort((a, b) => b.created_at.localeCompare(a.created_at)))
    if (s.recommendation_id && !latestSet.has(s.recommendation_id)) latestSet.set(s.recommendation_id, s.id);
  return {
    recommendations: rows.map((r) => toRecommendation(r, currency, latestSet.get(r.id) ?? null, now)),
    score: run ? (JSON.parse(run.score_json) as PerformanceScore) : EMPTY_SCORE,
    ranAt: run?.ran_at ?? null,
    syncedAt: run?.synced_at ?? null,
  };
}

// score_json holds the whole breakdown (~50 KB for a large account): reading and parsing it was a
// tenth of the Dashboard's CPU per request. Kept parsed per run; the run's own columns say which.
const MAX_PARSED_SCORES = 200;
const parsedScores = new WeakMap<DB, LRUCache<string, { run: string; score: PerformanceScore }>>();

/** The Performance Score alone (the Dashboard). */
export async function getScore(db: DB, customerId: string): Promise<PerformanceScore & { ranAt: string | null }> {
  const head = await db.selectFrom("optimizer_runs").select(["ran_at", "synced_at", "duration_ms"]).where("customer_id", "=", customerId).executeTakeFirst();
  if (!head) return { ...EMPTY_SCORE, ranAt: null };
  let scores = parsedScores.get(db);
  if (!scores) parsedScores.set(db, (scores = new LRUCache({ max: MAX_PARSED_SCORES })));
  const run = `${head.ran_at}|${head.synced_at}|${head.duration_ms}`;
  let kept = scores.get(customerId);
  if (kept?.run !== run) {
    // A run stored between the two reads only makes this score newer than `run` says: the next call reads it again.
    const row = await db.selectFrom("optimizer_runs").select("score_json").where("customer_id", "=", customerId).executeTakeFirst();
    if (!row) return { ...EMPTY_SCORE, ranAt: null };
    kept = { run, score: JSON.parse(row.score_json) as PerformanceScore };
    scores.set(customerId, kept);
  }
  return { ...kept.score, ranAt: head.ran_at };
}

/** Counts per status, for the tabs. */
export async function countRecommendations(db: DB, customerId: string, now: Date = new Date()): Promise<Record<RecommendationStatus, number>> {
  const rows = await db.selectFrom("recommendations").select(["status", "snoozed_until", "present"]).where("customer_id", "=", customerId).execute();
  const out: Record<RecommendationStatus, number> = { open: 0, dismissed: 0, snoozed: 0, applied: 0 };
  for (const r of rows) {
    const s = effectiveStatus(r, now);
    if (s === "applied" || r.present === 1) out[s] += 1;
  }
  return out;
}

const notFound = () => new NotFoundError("Recommendation not found");

/** The recommendation, if the user reaches its account (a manager account never holds one). */
async function load(db: DB, userId: string, id: string) {
  if (!/^[0-9a-f]{24}$/.test(id)) throw notFound();
  const row = await db.selectFrom("recommendations").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound();
  const account = await db
    .selectFrom("ads_accounts")
    .select(["currency_code", "manager"])
    .where("user_id", "=", userId)
    .where("customer_id", "=", row.customer_id)
    .executeTakeFirst();
  if (!account || account.manager === 1) throw notFound();
  return { row, currency: account.currency_code };
}

export async function getRecommendation(userId: string, id: string, now: Date = new Date()): Promise<Recommendation> {
  const db = getDb();
  const { row, currency } = await load(db, userId, id);
  await markApplied(db, row.customer_id, now);
  const fresh = (await db.selectFrom("recommendations").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as RecommendationsTable;
  const set = await db
    .selectFrom("change_sets")
    .select("id")
    .where("recommendation_id", "=", id)
    .where("status", "!=", "discarded")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return toRecommendation(fresh, currency, set?.id ?? null, now);
}

/**
 * Apply: the recommendation's actions become one change set (source "rule",
 * recommendation_id set), validated by Google, not applied — the person
 * applies it on its review page. An open change set made from it before is
 * reused rather than duplicated.
 */
export async function applyRecommendation(
  userId: string,
  id: string,
): Promise<{ changeSet: ChangeSetView; validationProblem: string | null; reused: boolean }> {
  const db = getDb();
  const { row, currency } = await load(db, userId, id);
  if (row.status === "applied") throw new ConflictError("This recommendation was already applied");
  const actions = JSON.parse(row.actions_json) as Action[];
  if (actions.length === 0) throw new InvalidError("This recommendation has nothing to change automatically; follow its evidence and links instead");
  const open = await db
    .selectFrom("change_sets")
    .select("id")
    .where("recommendation_id", "=", id)
    .where("user_id", "=", userId)
    .where("status", "in", ["proposed", "validated", "invalid"])
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  let changeSetId = open?.id;
  let validationProblem: string | null = null;
  if (!changeSetId) {
    changeSetId = await proposeBulk(
      userId,
      { customerId: row.customer_id, actions },
      { source: "rule", sourceDetail: `Recommendation: ${row.title}`.slice(0, 300), recommendationId: id, title: row.title.slice(0, 200) },
    );
    validationProblem = await validateQuietly(userId, changeSetId);
  }
  return { changeSet: await changeSetView(await getChangeSet(userId, changeSetId), currency), validationProblem, reused: !!open };
}

/** At most this many recommendations in one "Apply selected" (one change set, one review). */
export const BULK_APPLY_MAX = 50;

export const BulkApplyInput = z.object({
  ids: z
    .array(z.string().regex(/^[0-9a-f]{24}$/, "Unknown recommendation"))
    .min(1, "Tick at least one recommendation to apply")
    .max(BULK_APPLY_MAX, `Apply at most ${BULK_APPLY_MAX} at once`),
});

/**
 * "Apply selected": the actions of several open recommendations of one account become one
 * change set (validated by Google, not applied) and one review; each is marked applied when
 * that set is. Refused whole, storing nothing, when one is unknown, applied, of another
 * account or has nothing automatic.
 */
export async function applyRecommendations(userId: string, ids: string[]): Promise<{ changeSet: ChangeSetView; validationProblem: string | null }> {
  const db = getDb();
  const unique = [...new Set(ids)];
  const loaded = [];
  for (const id of unique) loaded.push(await load(db, userId, id));
  const customerId = loaded[0].row.customer_id;
  if (loaded.some((l) => l.row.customer_id !== customerId)) throw new InvalidError("Apply recommendations of one account at a time");
  for (const { row } of loaded) {
    if (row.status === "applied") throw new ConflictError(`Already applied: ${row.title}`);
    if ((JSON.parse(row.actions_json) as Action[]).length === 0) throw new InvalidError(`Nothing to change automatically: ${row.title}`);
  }
  const actions = loaded.flatMap(({ row }) => JSON.parse(row.actions_json) as Action[]);
  const title = loaded.length === 1 ? loaded[0].row.title : `${loaded.length} recommendations: ${loaded.map(({ row }) => row.title).join("; ")}`;
  const changeSetId = await proposeBulk(
    userId,
    { customerId, actions },
    {
      source: "rule",
      sourceDetail: `Recommendations: ${loaded.map(({ row }) => row.title).join("; ")}`.slice(0, 300),
      recommendationId: loaded[0].row.id,
      title: title.slice(0, 200),
    },
  );
  await db
    .insertInto("change_set_recommendations")
    .values(loaded.map(({ row }) => ({ change_set_id: changeSetId, recommendation_id: row.id })))
    .execute();
  const validationProblem = await validateQuietly(userId, changeSetId);
  return { changeSet: await changeSetView(await getChangeSet(userId, changeSetId), loaded[0].currency), validationProblem };
}

export const DismissInput = z.object({
  reason: z
    .string({ error: "Reason must be text" })
    .trim()
    .max(DISMISS_REASON_MAX, `Keep the reason under ${DISMISS_REASON_MAX} characters`)
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
});
export const SnoozeInput = z.object({
  days: z.coerce.number({ error: "Snooze for 7 or 30 days" }).refine((d) => (SNOOZE_DAYS as readonly number[]).includes(d), "Snooze for 7 or 30 days"),
});

async function setStatus(userId: string, id: string, values: Partial<RecommendationsTable>, now: Date) {
  const db = getDb();
  const { row } = await load(db, userId, id);
  if (row.status === "applied") throw new ConflictError("This recommendation was already applied");
  await db
    .updateTable("recommendations")
    .set({ dismissed_reason: null, snoozed_until: null, ...values, status_changed_at: now.toISOString() })
    .where("id", "=", id)
    .execute();
  return getRecommendation(userId, id, now);
}

export function dismissRecommendation(userId: string, id: string, reason: string | undefined, now: Date = new Date()) {
  return setStatus(userId, id, { status: "dismissed", dismissed_reason: reason ?? null }, now);
}

export function snoozeRecommendation(userId: string, id: string, days: number, now: Date = new Date()) {
  return setStatus(userId, id, { status: "snoozed", snoozed_until: new Date(now.getTime() + days * 86_400_000).toISOString() }, now);
}

/** Back to the open list (from dismissed or snoozed). */
export function restoreRecommendation(userId: string, id: string, now: Date = new Date()) {
  return setStatus(userId, id, { status: "open" }, now);
}

export function isRecommendationType(v: string): v is RecommendationType {
  return (RECOMMENDATION_TYPES as readonly string[]).includes(v);
}
