import { sql } from "kysely";
import type { DateRange } from "~/lib/dates";
import type { ImpactLevel } from "~/lib/impact";
import type { DB } from "../db/db.server";
import type { DailyFigures } from "./did.server";
import type { Unit } from "./touches.server";

// The synced daily tables an impact record reads: per-entity totals over the
// pre-period (to pick the control group) and the daily sums of a group of
// entities (treated or control). Keys are those of touches.server.ts.

const TABLE = { campaign: "ads_campaign_daily", ad_group: "ads_ad_group_daily", keyword: "ads_keyword_daily" } as const;
const CHUNK = 400;

const metricSums = () =>
  [
    sql<number>`sum(cost_micros)`.as("cost_micros"),
    sql<number>`sum(clicks)`.as("clicks"),
    sql<number>`sum(conversions)`.as("conversions"),
    sql<number>`sum(conversions_value)`.as("value"),
  ] as const;

export interface UnitActivity {
  unit: Unit;
  /** Over the range, in account currency. */
  cost: number;
  clicks: number;
}

/** Every entity of the level with clicks in the range (the candidates for a control group). */
export async function activeUnits(db: DB, customerId: string, level: ImpactLevel, range: DateRange): Promise<UnitActivity[]> {
  if (level === "campaign") {
    const rows = await db
      .selectFrom("ads_campaign_daily")
      .select(["campaign_id", ...metricSums()])
      .where("customer_id", "=", customerId)
      .where("date", ">=", range.from)
      .where("date", "<=", range.to)
      .groupBy("campaign_id")
      .execute();
    return rows
      .filter((r) => Number(r.clicks) > 0)
      .map((r) => ({
        unit: { level, key: r.campaign_id, campaignId: r.campaign_id, adGroupId: null },
        cost: Number(r.cost_micros) / 1e6,
        clicks: Number(r.clicks),
      }));
  }
  if (level === "ad_group") {
    const rows = await db
      .selectFrom("ads_ad_group_daily")
      .select(["ad_group_id", "campaign_id", ...metricSums()])
      .where("customer_id", "=", customerId)
      .where("date", ">=", range.from)
      .where("date", "<=", range.to)
      .groupBy(["ad_group_id", "campaign_id"])
      .execute();
    return rows
      .filter((r) => Number(r.clicks) > 0)
      .map((r) => ({
        unit: { level, key: r.ad_group_id, campaignId: r.campaign_id, adGroupId: r.ad_group_id },
        cost: Number(r.cost_micros) / 1e6,
        clicks: Number(r.clicks),
      }));
  }
  const rows = await db
    .selectFrom("ads_keyword_daily")
    .select(["ad_group_id", "criterion_id", "campaign_id", ...metricSums()])
    .where("customer_id", "=", customerId)
    .where("date", ">=", range.from)
    .where("date", "<=", range.to)
    .groupBy(["ad_group_id", "criterion_id", "campaign_id"])
    .execute();
  return rows
    .filter((r) => Number(r.clicks) > 0)
    .map((r) => ({
      unit: { level, key: `${r.ad_group_id}~${r.criterion_id}`, campaignId: r.campaign_id, adGroupId: r.ad_group_id },
      cost: Number(r.cost_micros) / 1e6,
      clicks: Number(r.clicks),
    }));
}

type DailyRow = { date: string; cost_micros: number; clicks: number; conversions: number; value: number };

function add(byDate: Map<string, DailyFigures>, r: DailyRow) {
  const d = byDate.get(r.date) ?? [0, 0, 0, 0];
  d[0] += Number(r.cost_micros) / 1e6;
  d[1] += Number(r.clicks);
  d[2] += Number(r.conversions);
  d[3] += Number(r.value);
  byDate.set(r.date, d);
}

/** The group's figures summed per day over the range (days without rows are absent: zeros). */
export async function groupDaily(db: DB, customerId: string, units: Unit[], range: DateRange): Promise<Map<string, DailyFigures>> {
  const byDate = new Map<string, DailyFigures>();
  if (units.length === 0) return byDate;
  const level = units[0].level;
  for (let i = 0; i < units.length; i += CHUNK) {
    const chunk = units.slice(i, i + CHUNK);
    if (level === "keyword") {
      // A criterion id is shared by the same keyword in several ad groups: the pair is the key.
      const wanted = new Set(chunk.map((u) => u.key));
      const rows = await db
        .selectFrom("ads_keyword_daily")
        .select(["ad_group_id", "criterion_id", "date", "cost_micros", "clicks", "conversions", "conversions_value as value"])
        .where("customer_id", "=", customerId)
        .where("ad_group_id", "in", [...new Set(chunk.map((u) => u.adGroupId!))])
        .where("criterion_id", "in", [...new Set(chunk.map((u) => u.key.split("~")[1]))])
        .where("date", ">=", range.from)
        .where("date", "<=", range.to)
        .execute();
      for (const r of rows) if (wanted.has(`${r.ad_group_id}~${r.criterion_id}`)) add(byDate, r);
      continue;
    }
    const column = level === "campaign" ? "campaign_id" : "ad_group_id";
    const rows = (await db
      .selectFrom(TABLE[level])
      .select(["date", ...metricSums()])
      .where("customer_id", "=", customerId)
      .where(
        column,
        "in",
        chunk.map((u) => u.key),
      )
      .where("date", ">=", range.from)
      .where("date", "<=", range.to)
      .groupBy("date")
      .execute()) as DailyRow[];
    for (const r of rows) add(byDate, r);
  }
  return byDate;
}
