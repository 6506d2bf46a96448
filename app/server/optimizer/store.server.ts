import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { RecommendationStatus } from "../db/schema";
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
  const ids = [...new Set(applied.filter((r) => r.applied_at && (!r.status_changed_at || r.applied_at >= r.status_changed_at)).map((r) => r.id))];
  if (ids.length === 0) return;
  await db
    .updateTable("recommendations")
    .set({ status: "applied", status_changed_at: now.toISOString(), snoozed_until: null })
    .where("id", "in", ids)
    .execute();
}

const CHUNK = 40;

export async function saveRun(db: DB, customerId: string, result: EngineResult, meta: { syncedAt: string | null; durationMs: number }, now: Date = new Date()) {
  const at = now.toISOString();
  await markApplied(db, customerId, now);
  const existing = new Map(
    (await db.selectFrom("recommendations").select(["id", "status", "actions_json"]).where("customer_id", "=", customerId).execute()).map((r) => [r.id, r]),
  );
  const rows = result.findings.map((f) => {
    const id = recommendationIdFor(customerId, f.key);
    const actionsJson = JSON.stringify(f.actions);
    const prev = existing.get(id);
    let status: RecommendationStatus = (prev?.status as RecommendationStatus | undefined) ?? "open";
    // An applied recommendation found again with a different change (a budget still limited after a raise) is new advice.
    const reopened = status === "applied" && prev?.actions_json !== actionsJson;
    if (reopened) status = "open";
    return {
      id,
      customer_id: customerId,
      key: f.key,
      type: f.type,
      title: f.title,
      status,
      present: 1,
      confidence: f.confidence,
      impact_amount: f.sortAmount,
      impact_json: JSON.stringify(f.impact),
      evidence_json: JSON.stringify(f.evidence),
      actions_json: actionsJson,
      resources_json: JSON.stringify({ resources: f.resources, links: f.links }),
      dismissed_reason: null as string | null,
      snoozed_until: null as string | null,
      status_changed_at: reopened ? at : null,
      first_seen_at: at,
      last_seen_at: at,
      reopened,
    };
  });
  const score: PerformanceScore = {
    value: result.score.value,
    breakdown: result.score.breakdown.map((c) => ({ ...c, items: c.items.map((i) => ({ ...i, recommendationId: recommendationIdFor(customerId, i.key) })) })),
  };
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("recommendations").set({ present: 0 }).where("customer_id", "=", customerId).execute();
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      await trx
        .insertInto("recommendations")
        .values(chunk.map(({ reopened: _r, ...r }) => r))
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
      .where("id", "not in", trx.selectFrom("change_sets").select("recommendation_id").where("customer_id", "=", customerId).where("recommendation_id", "is not", null).$castTo<string>())
      .execute();
    await trx
      .insertInto("optimizer_runs")
      .values({ customer_id: customerId, ran_at: at, synced_at: meta.syncedAt, duration_ms: Math.round(meta.durationMs), score_json: JSON.stringify(score) })
      .onConflict((oc) => oc.column("customer_id").doUpdateSet({ ran_at: at, synced_at: meta.syncedAt, duration_ms: Math.round(meta.durationMs), score_json: JSON.stringify(score) }))
      .execute();
  });
}
