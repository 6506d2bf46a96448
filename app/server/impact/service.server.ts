import { z } from "zod";
import { addDays, todayIn } from "~/lib/dates";
import { verdictPeriod, type CalibrationRow, type ImpactRecord, type MeasuredMoney } from "~/lib/impact";
import { getDb } from "../db/db.server";
import { getChangeSet } from "../changes/pipeline.server";
import { requireAccountOf } from "../account-access.server";
import { ConflictError, NotFoundError } from "../domain-errors.server";
import type { HistoryItem } from "../changes/history.server";
import { changeSetImpact, impactRecordsOrNone } from "./store.server";

// What the API, the screens and the assistant ask of the impact records.

const MEASURED_STATUSES = ["applied", "partially_applied"];

/** A change set of the user's, applied, and its record; another user's or a malformed id is a 404, an unapplied one a 409. */
export async function impactOfChangeSet(userId: string, changeSetId: string): Promise<ImpactRecord> {
  if (!z.uuid().safeParse(changeSetId).success) throw new NotFoundError("Change set not found");
  const { set } = await getChangeSet(userId, changeSetId);
  await requireAccountOf(userId, set.customer_id).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("Change set not found") : error;
  });
  if (!MEASURED_STATUSES.includes(set.status)) {
    throw new ConflictError(`This change set is ${set.status.replace("_", " ")}: only changes Google applied have a measured effect`);
  }
  const record = await changeSetImpact(set.customer_id, changeSetId);
  if (!record) throw new NotFoundError("Change set not found");
  return record;
}

/** The subjects of a history page with a verdict: each applied change set once, each outside change. */
export function historySubjects(items: HistoryItem[]): string[] {
  const subjects = new Set<string>();
  for (const item of items) {
    if (item.origin === "external") subjects.add(`ext:${item.id}`);
    else if (item.changeSetId && item.status === "applied") subjects.add(`cs:${item.changeSetId}`);
  }
  return [...subjects];
}

/** How far back a change can be and still have measured days this month: its longest post-period, its lag and the change day. */
const LOOKBACK_DAYS = 40;

/**
 * The Dashboard's AI Optimizations card: money measured on this month's days
 * (the account's time zone) from change sets that came from a recommendation
 * or the assistant — each record's daily effect on cost and conversion value,
 * where its interval excludes zero, times the days of its measured
 * post-period that fall in this month. Changes measured together count once.
 * Nothing is extrapolated beyond the days measured.
 */
export async function measuredMoneyThisMonth(customerId: string, timeZone: string, now: Date = new Date()): Promise<MeasuredMoney> {
  const today = todayIn(timeZone, now);
  const monthStart = `${today.slice(0, 7)}-01`;
  const sets = await getDb()
    .selectFrom("change_sets")
    .select(["id", "applied_at"])
    .where("customer_id", "=", customerId)
    .where("status", "in", MEASURED_STATUSES as Array<"applied" | "partially_applied">)
    .where("applied_at", ">=", `${addDays(monthStart, -LOOKBACK_DAYS)}T00:00:00.000Z`)
    .where((eb) => eb.or([eb("recommendation_id", "is not", null), eb("source", "=", "assistant")]))
    .execute();
  const monthStartIso = `${monthStart}T00:00:00.000Z`;
  const out: MeasuredMoney = { saved: 0, earned: 0, applied: sets.filter((s) => s.applied_at! >= monthStartIso).length, measured: 0 };
  const records = await impactRecordsOrNone(
    customerId,
    sets.map((s) => `cs:${s.id}`),
  );
  const counted = new Set<string>();
  for (const record of records.values()) {
    const period = verdictPeriod(record);
    const key = `${record.changeDay}|${record.lastChangeDay}|${record.method.seed}`;
    if (record.verdict !== "effect" || !period || counted.has(key)) continue;
    counted.add(key);
    const from = period.from > monthStart ? period.from : monthStart;
    const days = period.to >= from ? Math.round((Date.parse(period.to) - Date.parse(from)) / 86_400_000) + 1 : 0;
    if (days === 0) continue;
    const daily = (metric: "cost" | "value") => {
      const e = period.metrics.find((m) => m.metric === metric);
      return e?.significant && e.monthly !== null ? e.monthly / 30 : 0;
    };
    const saved = -daily("cost") * days;
    const earned = daily("value") * days;
    if (saved === 0 && earned === 0) continue;
    out.saved += saved;
    out.earned += earned;
    out.measured += 1;
  }
  return out;
}

const MEASURED_METRIC: Record<CalibrationRow["kind"], { metric: "cost" | "conversions" | "value"; sign: 1 | -1 }> = {
  cost_saved: { metric: "cost", sign: -1 },
  conversions_gained: { metric: "conversions", sign: 1 },
  value_gained: { metric: "value", sign: 1 },
};

/**
 * The engine's estimated impact against the measured one, per rule type: each
 * applied recommendation's estimate (per month) beside the measured effect on
 * the metric it estimated (the point estimate, significant or not, so
 * estimates that run hot show even when each single effect is too small to
 * call), over the ones measured so far.
 */
export async function calibration(customerId: string): Promise<CalibrationRow[]> {
  const applied = await getDb()
    .selectFrom("change_sets")
    .innerJoin("recommendations", "recommendations.id", "change_sets.recommendation_id")
    .select(["change_sets.id", "recommendations.type", "recommendations.impact_json"])
    .where("change_sets.customer_id", "=", customerId)
    .where("change_sets.status", "in", MEASURED_STATUSES as Array<"applied" | "partially_applied">)
    .execute();
  const records = await impactRecordsOrNone(
    customerId,
    applied.map((a) => `cs:${a.id}`),
  );
  const rows = new Map<string, CalibrationRow>();
  for (const a of applied) {
    const estimate = JSON.parse(a.impact_json) as { kind: string; monthly: number };
    if (!(estimate.kind in MEASURED_METRIC)) continue;
    const kind = estimate.kind as CalibrationRow["kind"];
    const key = `${a.type}|${kind}`;
    const row = rows.get(key) ?? { type: a.type, kind, applied: 0, measured: 0, estimated: 0, actual: 0, ratio: null };
    rows.set(key, row);
    row.applied += 1;
    const period = verdictPeriod(records.get(`cs:${a.id}`) ?? { periods: [] });
    const effect = period?.metrics.find((m) => m.metric === MEASURED_METRIC[kind].metric);
    if (!effect || effect.monthly === null) continue;
    row.measured += 1;
    row.estimated += estimate.monthly;
    row.actual += MEASURED_METRIC[kind].sign * effect.monthly;
  }
  for (const row of rows.values()) row.ratio = row.estimated > 0 ? row.actual / row.estimated : null;
  return [...rows.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.kind < b.kind ? -1 : 1));
}
