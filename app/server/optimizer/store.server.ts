import { createHash } from "node:crypto";
import { sql } from "kysely";
import { addDays } from "~/lib/dates";
import type { DB } from "../db/db.server";
import type { RecommendationStatus, RecommendationsTable } from "../db/schema";
import type { EngineResult } from "./engine.server";
import type { PerformanceScore } from "./score.server";

// Stored results. A recommendation's id is a hash of its account and stable
// key (rule + resource), so every run updates the same row: a dismissal, a
// snooze or an applied change set stays attached to it across runs.

export function recommendationIdFor(customerId: string, key: string): string {
  return createHash("sha256").update(`${customerId}\n${key}`).digest("hex").slice(0, 24);
}

/** Marks as applied every recommendation whose change set was applied since its status last changed. */
export async function markApplied(db: DB, customerId: string, now: Date = new Date()) {
  const applied = await db
    .selectFrom("change_sets")
    .innerJoin("recommendations", "recommendations.id", "change_sets.recommendation_id")
    .select(["recommendations.id", "change_sets.applied_at", "recommendations.status_changed_at"])
    .where("change_sets.customer_id", "=", customerId)
    .where("change_sets.status", "in", ["applied", "partially_applied"])
    .where("recommendations.status", "!=", "applied")
    .execute();
  // …and those carried out together with others in one change set ("Apply selected").
  const together = await db
    .selectFrom("change_set_recommendations as l")
    .innerJoin("change_sets", "change_sets.id", "l.change_set_id")
    .innerJoin("recommendations", "recommendations.id", "l.recommendation_id")
    .select(["recommendations.id", "change_sets.applied_at", "recommendations.status_changed_at"])
    .where("change_sets.customer_id", "=", customerId)
    .where("change_sets.status", "in", ["applied", "partially_applied"])
    .where("recommendations.status", "!=", "applied")
    .execute();
  const ids = [
    ...new Set([...applied, ...together].filter((r) => r.applied_at && (!r.status_changed_at || r.applied_at >= r.status_changed_at)).map((r) => r.id)),
  ];
  if (ids.length === 0) return;
  await db
    .updateTable("recommendations")
    .set({ status: "applied", status_changed_at: now.toISOString(), snoozed_until: null })
    .where("id", "in", ids)
    .execute();
}

/** Days of data after an applied change before the same rule's new advice on it counts. */
export const DAYS_AFTER_CHANGE = 7;

function hasDataSinceChange(evidenceTo: string | undefined, appliedAt: string | null | undefined): boolean {
  if (!evidenceTo || !appliedAt) return true;
  return evidenceTo >= addDays(appliedAt.slice(0, 10), DAYS_AFTER_CHANGE);
}

// Ids per `IN (…)` list.
const ID_CHUNK = 500;
// Rows per multi-row statement: 17 values a row stays far below both databases' parameter limits.
const CHUNK = 100;

export async function saveRun(db: DB, customerId: string, result: EngineResult, meta: { syncedAt: string | null; durationMs: number }, now: Date = new Date()) {
  const at = now.toISOString();
  await markApplied(db, customerId, now);
  // What is stored, to write only what changed: a run over unchanged data (on demand, or new
  // targets that move a few findings) rewrites nothing but the "last seen" time.
  const existing = new Map(
    (
      await db
        .selectFrom("recommendations")
        .select([
          "id",
          "status",
          "status_changed_at",
          "present",
          "title",
          "confidence",
          "impact_amount",
          "impact_json",
          "evidence_json",
          "actions_json",
          "resources_json",
        ])
        .where("customer_id", "=", customerId)
        .execute()
    ).map((r) => [r.id, r]),
  );
  const changed: RecommendationsTable[] = [];
  const unchanged: string[] = [];
  const seen = new Set<string>();
  for (const f of result.findings) {
    const id = recommendationIdFor(customerId, f.key);
    seen.add(id);
    const actionsJson = JSON.stringify(f.actions);
    const impactJson = JSON.stringify(f.impact);
    const evidenceJson = JSON.stringify(f.evidence);
    // The alternatives ride with the resources and links (one JSON bundle, no migration).
    const resourcesJson = JSON.stringify({ resources: f.resources, links: f.links, ...(f.alternatives?.length ? { alternatives: f.alternatives } : {}) });
    const prev = existing.get(id);
    let status: RecommendationStatus = (prev?.status as RecommendationStatus | undefined) ?? "open";
    // An applied recommendation found again with a different change (a budget still limited after a raise) is new
    // advice, once the evidence holds a week of days after the change. Before that it is the same days that
    // led to the change, judged against the new setting: applying it would raise the budget again on stale
    // evidence, and again after that. It stays applied meanwhile.
    const newAdvice = status === "applied" && prev?.actions_json !== actionsJson;
    if (newAdvice && !hasDataSinceChange(f.evidence.dateRange?.to, prev?.status_changed_at)) {
      // Kept as stored: only seen again.
      unchanged.push(id);
      continue;
    }
    const reopened = newAdvice;
    if (reopened) status = "open";
    if (
      prev &&
      !reopened &&
      Number(prev.present) === 1 &&
      prev.title === f.title &&
      Number(prev.confidence) === f.confidence &&
      Number(prev.impact_amount) === f.sortAmount &&
      prev.actions_json === actionsJson &&
      prev.impact_json === impactJson &&
      prev.evidence_json === evidenceJson &&
      prev.resources_json === resourcesJson
    ) {
      unchanged.push(id);
      continue;
    }
    changed.push({
      id,
      customer_id: customerId,
      key: f.key,
      type: f.type,
      title: f.title,
      status,
      present: 1,
      confidence: f.confidence,
      impact_amount: f.sortAmount,
      impact_json: impactJson,
      evidence_json: evidenceJson,
      actions_json: actionsJson,
      resources_json: resourcesJson,
      dismissed_reason: null,
      snoozed_until: null,
      status_changed_at: reopened ? at : null,
      first_seen_at: at,
      last_seen_at: at,
    });
  }
  const gone = [...existing.values()].filter((r) => Number(r.present) === 1 && !seen.has(r.id)).map((r) => r.id);
  const score: PerformanceScore = {
    value: result.score.value,
    breakdown: result.score.breakdown.map((c) => ({ ...c, items: c.items.map((i) => ({ ...i, recommendationId: recommendationIdFor(customerId, i.key) })) })),
  };
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < gone.length; i += ID_CHUNK) {
      await trx
        .updateTable("recommendations")
        .set({ present: 0 })
        .where("id", "in", gone.slice(i, i + ID_CHUNK))
        .execute();
    }
    for (let i = 0; i < unchanged.length; i += ID_CHUNK) {
      await trx
        .updateTable("recommendations")
        // present: an applied one held back may have been gone from an earlier run.
        .set({ present: 1, last_seen_at: at })
        .where("id", "in", unchanged.slice(i, i + ID_CHUNK))
        .execute();
    }
    for (let i = 0; i < changed.length; i += CHUNK) {
      await trx
        .insertInto("recommendations")
        .values(changed.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.column("id").doUpdateSet((eb) => ({
            title: eb.ref("excluded.title"),
            present: 1,
            confidence: eb.ref("excluded.confidence"),
            impact_amount: eb.ref("excluded.impact_amount"),
            impact_json: eb.ref("excluded.impact_json"),
            evidence_json: eb.ref("excluded.evidence_json"),
            actions_json: eb.ref("excluded.actions_json"),
            resources_json: eb.ref("excluded.resources_json"),
            last_seen_at: eb.ref("excluded.last_seen_at"),
            // Only a reopened applied one changes status; people's choices otherwise stay.
            status: eb.ref("excluded.status"),
            status_changed_at: sql`COALESCE(${eb.ref("excluded.status_changed_at")}, recommendations.status_changed_at)`,
          })),
        )
        .execute();
    }
    // Open findings that went away leave nothing to remember; people's decisions are kept.
    await trx
      .deleteFrom("recommendations")
      .where("customer_id", "=", customerId)
      .where("present", "=", 0)
      .where("status", "=", "open")
      // …unless a change set was made from it: history keeps pointing at it.
      .where(
        "id",
        "not in",
        trx
          .selectFrom("change_sets")
          .select("recommendation_id")
          .where("customer_id", "=", customerId)
          .where("recommendation_id", "is not", null)
          .$castTo<string>(),
      )
      .where("id", "not in", trx.selectFrom("change_set_recommendations").select("recommendation_id"))
      .execute();
    await trx
      .insertInto("optimizer_runs")
      .values({ customer_id: customerId, ran_at: at, synced_at: meta.syncedAt, duration_ms: Math.round(meta.durationMs), score_json: JSON.stringify(score) })
      .onConflict((oc) =>
        oc
          .column("customer_id")
          .doUpdateSet({ ran_at: at, synced_at: meta.syncedAt, duration_ms: Math.round(meta.durationMs), score_json: JSON.stringify(score) }),
      )
      .execute();
  });
}
