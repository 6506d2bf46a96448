import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { addDays, yesterdayIn } from "~/lib/dates";
import { getDb, type DB } from "../db/db.server";
import type { AlertRule, AlertsTable } from "../db/schema";
import { mailNewAlerts } from "./alert-mail.server";
import { queueWebhooksForAlerts } from "./alert-webhook.server";
import { pacingDays, pacingOf } from "./pacing.server";

// Issue 31 point 3: the checks that run on an account's data after each
// scheduled refresh (ADR 029). Every rule compares the last complete day (or
// two) with a robust baseline: the same weekday over the previous eight
// weeks, its median and its median absolute deviation, so one odd day in the
// history moves nothing. An alert lasts while its condition does (one alert
// per episode, updated by every check that still sees it) and is resolved
// by the first check that no longer does.

/** Weeks of same-weekday history in a baseline, and the fewest that make one. */
export const BASELINE_WEEKS = 8;
export const MIN_BASELINE_POINTS = 4;
/** A robust z-score beyond this is anomalous (4 ≈ a 1-in-15,000 day for normal noise). */
export const Z_LIMIT = 4;
/** …and the day must also differ from the median by at least half of it: a tiny account's swings are not news. */
export const RELATIVE_LIMIT = 0.5;
/** A campaign counts as "was serving" when it had impressions on this many of the 7 days before. */
const SERVING_DAYS = 5;
/** Pacing is judged once this many days of the month are complete. */
const PACING_MIN_DAYS = 7;

export interface Baseline {
  median: number;
  mad: number;
  /** The spread used: 1.4826 × MAD (the standard deviation for normal data), at least 10% of the median. */
  scale: number;
  points: number;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median and MAD of the values; null with too few of them. */
export function baselineOf(values: number[]): Baseline | null {
  if (values.length < MIN_BASELINE_POINTS) return null;
  const m = median(values);
  const mad = median(values.map((v) => Math.abs(v - m)));
  return { median: m, mad, scale: Math.max(1.4826 * mad, 0.1 * Math.abs(m)), points: values.length };
}

export function isHigh(x: number, b: Baseline): boolean {
  return b.median > 0 && x > b.median + Z_LIMIT * b.scale && x > (1 + RELATIVE_LIMIT) * b.median;
}

export function isLow(x: number, b: Baseline): boolean {
  return b.median > 0 && x < b.median - Z_LIMIT * b.scale && x < (1 - RELATIVE_LIMIT) * b.median;
}

interface Found {
  rule: AlertRule;
  subject: string;
  campaignId: string | null;
  title: string;
  figures: Record<string, unknown>;
  startedOn: string;
  evidencePath: string;
  /** An event (a change made elsewhere) rather than a condition: a later check that does not see it again does not resolve it. */
  event?: boolean;
}

interface DayTotals {
  cost: number;
  conversions: number;
  clicks: number;
  impressions: number;
}

const ZERO: DayTotals = { cost: 0, conversions: 0, clicks: 0, impressions: 0 };
const units = (micros: number) => Math.round(micros / 10_000) / 100;
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Runs every check on the account's data as of `now` and records the outcome:
 * new alerts, ongoing ones seen again, and resolutions. Returns what it found.
 */
export async function checkAlerts(customerId: string, now: Date = new Date(), db: DB = getDb()): Promise<Found[]> {
  const account = await db.selectFrom("ads_accounts").select(["time_zone", "currency_code"]).where("customer_id", "=", customerId).executeTakeFirst();
  if (!account) return [];
  const day = yesterdayIn(account.time_zone, now);
  const from = addDays(day, -7 * BASELINE_WEEKS);
  const rows = await db
    .selectFrom("ads_campaign_daily")
    .select([
      "date",
      sql<number>`SUM(cost_micros)`.as("cost"),
      sql<number>`SUM(conversions)`.as("conversions"),
      sql<number>`SUM(clicks)`.as("clicks"),
      sql<number>`SUM(impressions)`.as("impressions"),
    ])
    .where("customer_id", "=", customerId)
    .where("date", ">=", from)
    .where("date", "<=", day)
    .groupBy("date")
    .execute();
  const byDate = new Map(
    rows.map((r) => [r.date, { cost: Number(r.cost), conversions: Number(r.conversions), clicks: Number(r.clicks), impressions: Number(r.impressions) }]),
  );
  const firstDate = rows.reduce<string | null>((min, r) => (min === null || r.date < min ? r.date : min), null);
  // A day inside the data with no rows had no activity; before the data starts it is unknown.
  const totals = (date: string): DayTotals | null => (firstDate !== null && date >= firstDate ? (byDate.get(date) ?? ZERO) : null);
  const history = (date: string, pick: (t: DayTotals) => number) => {
    const out: number[] = [];
    for (let w = 1; w <= BASELINE_WEEKS; w++) {
      const t = totals(addDays(date, -7 * w));
      if (t) out.push(pick(t));
    }
    return out;
  };

  const found: Found[] = [];
  const today = totals(day);
  const money = (micros: number) => `${units(micros).toFixed(2)} ${account.currency_code}`;
  if (today) {
    const cost = baselineOf(history(day, (t) => t.cost));
    if (cost && isHigh(today.cost, cost)) {
      found.push({
        rule: "spend_spike",
        subject: "",
        campaignId: null,
        title: `Spend ${money(today.cost)} on ${day}, usually ${money(cost.median)}`,
        figures: { day, costMicros: today.cost, baseline: cost },
        startedOn: day,
        evidencePath: `/dashboard?from=${addDays(day, -27)}&to=${day}`,
      });
    } else if (cost && isLow(today.cost, cost)) {
      found.push({
        rule: "spend_drop",
        subject: "",
        campaignId: null,
        title: `Spend ${money(today.cost)} on ${day}, usually ${money(cost.median)}`,
        figures: { day, costMicros: today.cost, baseline: cost },
        startedOn: day,
        evidencePath: `/dashboard?from=${addDays(day, -27)}&to=${day}`,
      });
    }

    // Conversions are sparse: only two low days in a row, with the traffic still there, are a drop (a tracking break).
    const prev = addDays(day, -1);
    const yesterdayTotals = totals(prev);
    const conv = baselineOf(history(day, (t) => t.conversions));
    const convPrev = baselineOf(history(prev, (t) => t.conversions));
    const clicks = baselineOf(history(day, (t) => t.clicks));
    const conversionsDrop =
      conv !== null &&
      convPrev !== null &&
      yesterdayTotals !== null &&
      conv.median >= 2 &&
      isLow(today.conversions, conv) &&
      isLow(yesterdayTotals.conversions, convPrev) &&
      clicks !== null &&
      today.clicks >= 0.5 * clicks.median;
    if (conversionsDrop) {
      found.push({
        rule: "conversions_drop",
        subject: "",
        campaignId: null,
        title: `${round2(today.conversions)} conversions on ${day} and ${round2(yesterdayTotals.conversions)} the day before, usually ${round2(conv.median)}, with clicks as usual: is conversion tracking working?`,
        figures: {
          day,
          conversions: today.conversions,
          previousDay: yesterdayTotals.conversions,
          clicks: today.clicks,
          baseline: conv,
          clicksBaseline: clicks,
        },
        startedOn: prev,
        evidencePath: `/dashboard?from=${addDays(day, -27)}&to=${day}`,
      });
    }

    // Cost per conversion over two days, against the same two weekdays of earlier weeks. Not raised when the spend or
    // the conversions alert already names the cause (the same anomaly would be told twice).
    const pair = (d: string) => {
      const a = totals(d);
      const b = totals(addDays(d, -1));
      return a && b ? { cost: a.cost + b.cost, conversions: a.conversions + b.conversions } : null;
    };
    const now2 = pair(day);
    const cpaHistory: number[] = [];
    for (let w = 1; w <= BASELINE_WEEKS; w++) {
      const p = pair(addDays(day, -7 * w));
      if (p && p.conversions > 0) cpaHistory.push(p.cost / p.conversions);
    }
    const cpa = baselineOf(cpaHistory);
    // A pair holding a spend spike or a day of lost conversions is those anomalies' own, told by their rules.
    const spendHigh = (d: string) => {
      const t = totals(d);
      const b = baselineOf(history(d, (x) => x.cost));
      return t !== null && b !== null && isHigh(t.cost, b);
    };
    const conversionsLow = (d: string) => {
      const t = totals(d);
      const b = baselineOf(history(d, (x) => x.conversions));
      return t !== null && b !== null && isLow(t.conversions, b);
    };
    const explained = [day, addDays(day, -1)].some((d) => spendHigh(d) || conversionsLow(d));
    if (now2 && cpa && now2.conversions >= 2 && !explained) {
      const value = now2.cost / now2.conversions;
      if (isHigh(value, cpa)) {
        found.push({
          rule: "cpa_spike",
          subject: "",
          campaignId: null,
          title: `Cost per conversion ${money(value)} over the last two days, usually ${money(cpa.median)}`,
          figures: { day, cpaMicros: Math.round(value), baseline: cpa },
          startedOn: addDays(day, -1),
          evidencePath: `/dashboard?from=${addDays(day, -27)}&to=${day}`,
        });
      }
    }
  }

  // Enabled campaigns that stopped serving: no impressions on the day after serving most of the week before.
  const open = await db
    .selectFrom("alerts")
    .select(["id", "rule", "subject", "status", "ongoing", "started_on"])
    .where("customer_id", "=", customerId)
    .where("ongoing", "=", 1)
    .execute();
  const ongoing = (rule: AlertRule, subject: string) => open.find((a) => a.rule === rule && a.subject === subject);
  const campaigns = await db
    .selectFrom("ads_campaigns")
    .select(["id", "name", "primary_status_reasons"])
    .where("customer_id", "=", customerId)
    .where("status", "=", "ENABLED")
    .execute();
  if (campaigns.length && firstDate !== null && addDays(day, -7) >= firstDate) {
    const served = await db
      .selectFrom("ads_campaign_daily")
      .select(["campaign_id", "date", "impressions"])
      .where("customer_id", "=", customerId)
      .where("date", ">=", addDays(day, -7))
      .where("date", "<=", day)
      .where("impressions", ">", 0)
      .execute();
    for (const c of campaigns) {
      const days = new Set(served.filter((s) => s.campaign_id === c.id).map((s) => s.date));
      if (days.has(day)) continue;
      let before = 0;
      for (let i = 1; i <= 7; i++) if (days.has(addDays(day, -i))) before += 1;
      const still = ongoing("no_impressions", c.id);
      if (before < SERVING_DAYS && !still) continue;
      let lastServed: string | null = null;
      for (let i = 1; i <= 7 && !lastServed; i++) if (days.has(addDays(day, -i))) lastServed = addDays(day, -i);
      found.push({
        rule: "no_impressions",
        subject: c.id,
        campaignId: c.id,
        title: `“${c.name}” is enabled but had no impressions on ${day}`,
        figures: { day, servedDaysOfPreviousSeven: before, reasons: c.primary_status_reasons },
        startedOn: still?.started_on ?? (lastServed ? addDays(lastServed, 1) : day),
        evidencePath: `/campaigns/${c.id}`,
      });
    }
  }

  // Pacing off the monthly plan.
  const plan = await db
    .selectFrom("budget_plans")
    .select("monthly_budget_micros")
    .where("customer_id", "=", customerId)
    .where("campaign_id", "=", "")
    .executeTakeFirst();
  if (plan) {
    const days = pacingDays(account.time_zone, now);
    if (days.daysElapsed >= PACING_MIN_DAYS) {
      let spent = 0;
      let recent = 0;
      for (let d = days.monthStart; d <= days.yesterday; d = addDays(d, 1)) spent += totals(d)?.cost ?? 0;
      for (let d = days.runRateFrom; d <= days.yesterday; d = addDays(d, 1)) recent += totals(d)?.cost ?? 0;
      const pacing = pacingOf(Number(plan.monthly_budget_micros), spent, recent, days);
      if (pacing.status !== "on_plan") {
        found.push({
          rule: "pacing_off",
          subject: days.month,
          campaignId: null,
          title: `Projected ${money(pacing.projectedMicros)} for ${days.month} against a budget of ${money(pacing.budgetMicros)} (${pacing.offPlanRatio > 0 ? "+" : ""}${Math.round(pacing.offPlanRatio * 100)}%)`,
          figures: { pacing },
          startedOn: ongoing("pacing_off", days.month)?.started_on ?? day,
          evidencePath: "/dashboard",
        });
      }
    }
  }

  // Changes made outside the product, and recommendations Google applied by itself (its change history).
  const imports = await db
    .selectFrom("history_imports")
    .select(["client_type", sql<string>`SUBSTR(changed_at, 1, 10)`.as("on"), sql<number>`COUNT(*)`.as("n")])
    .where("customer_id", "=", customerId)
    .where("client_type", "<>", "GOOGLE_ADS_API")
    .where("changed_at", ">=", `${addDays(day, -1)}T00:00:00`)
    .groupBy(["client_type", sql`SUBSTR(changed_at, 1, 10)`])
    .execute();
  const events = new Map<string, { rule: AlertRule; on: string; n: number }>();
  for (const i of imports) {
    const rule: AlertRule = i.client_type === "GOOGLE_ADS_RECOMMENDATIONS_SUBSCRIPTION" ? "auto_applied" : "outside_change";
    const key = `${rule}|${i.on}`;
    const e = events.get(key) ?? { rule, on: i.on, n: 0 };
    e.n += Number(i.n);
    events.set(key, e);
  }
  for (const e of events.values()) {
    found.push({
      rule: e.rule,
      subject: e.on,
      campaignId: null,
      title:
        e.rule === "auto_applied"
          ? `Google applied ${e.n} recommendation change${e.n === 1 ? "" : "s"} by itself on ${e.on}`
          : `${e.n} change${e.n === 1 ? "" : "s"} made outside Ads AI Manager on ${e.on}`,
      figures: { changes: e.n, day: e.on },
      startedOn: e.on,
      evidencePath: "/history",
      event: true,
    });
  }

  const created = await record(db, customerId, found, now);
  // Mail after the alerts are stored (the outbox writes in its own transaction).
  if (created.length) {
    await mailNewAlerts(created, db);
    await queueWebhooksForAlerts(created, db);
  }
  return found;
}

/** Stores the outcome: one alert per episode, seen again while it lasts, resolved once a check no longer sees it. */
async function record(db: DB, customerId: string, found: Found[], now: Date): Promise<AlertsTable[]> {
  const at = now.toISOString();
  const created: AlertsTable[] = [];
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("alerts").selectAll().where("customer_id", "=", customerId).where("ongoing", "=", 1).execute();
    const seen = new Set<string>();
    for (const f of found) {
      const same = current.find((a) => a.rule === f.rule && a.subject === f.subject);
      const figures = JSON.stringify(f.figures);
      if (same) {
        seen.add(same.id);
        await trx.updateTable("alerts").set({ last_seen_at: at, figures_json: figures, title: f.title }).where("id", "=", same.id).execute();
        continue;
      }
      // An event already told (a later check still sees that day's changes) is the same alert.
      if (f.event) {
        const told = await trx
          .selectFrom("alerts")
          .select("id")
          .where("customer_id", "=", customerId)
          .where("rule", "=", f.rule)
          .where("subject", "=", f.subject)
          .executeTakeFirst();
        if (told) {
          await trx.updateTable("alerts").set({ last_seen_at: at, figures_json: figures, title: f.title }).where("id", "=", told.id).execute();
          continue;
        }
      }
      const row: AlertsTable = {
        id: randomUUID(),
        customer_id: customerId,
        rule: f.rule,
        subject: f.subject,
        campaign_id: f.campaignId,
        status: "open",
        ongoing: f.event ? 0 : 1,
        resolved_by: null,
        title: f.title,
        figures_json: figures,
        started_on: f.startedOn,
        evidence_path: f.evidencePath,
        recommendation_id: f.campaignId ? await recommendationFor(trx, customerId, f.campaignId) : null,
        created_at: at,
        last_seen_at: at,
        resolved_at: null,
      };
      await trx.insertInto("alerts").values(row).execute();
      created.push(row);
    }
    const gone = current.filter((a) => !seen.has(a.id)).map((a) => a.id);
    if (gone.length) {
      await trx.updateTable("alerts").set({ ongoing: 0 }).where("id", "in", gone).execute();
      await trx
        .updateTable("alerts")
        .set({ status: "resolved", resolved_by: "check", resolved_at: at })
        .where("id", "in", gone)
        .where("status", "=", "open")
        .execute();
    }
  });
  return created;
}

/** An open recommendation about the campaign (the biggest), where the alert can point for a fix. */
async function recommendationFor(db: DB, customerId: string, campaignId: string): Promise<string | null> {
  const row = await db
    .selectFrom("recommendations")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("status", "=", "open")
    .where("present", "=", 1)
    .where("resources_json", "like", `%${campaignId}%`)
    .orderBy("impact_amount", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}
