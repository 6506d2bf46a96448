import type { ToolEvidence } from "~/lib/chat";
import { rangeLength } from "~/lib/dates";
import { METRIC_WORDS, type Metric } from "./analyst-intent.server";
import { change, num, table, type Row, type Writer } from "./analyst-writer.server";
import { describePeriod, type Period } from "./periods.server";

/**
 * Two periods side by side, as asked: the account's totals, whether the
 * question's premise holds ("conversions did not drop: +0.7%"), and what
 * moved it: which campaigns, and which of clicks, conversion rate and cost
 * per click. Periods of different lengths ("this month so far" against all
 * of last month) are compared per day, and the answer says so.
 */

interface Totals {
  cost: number;
  clicks: number;
  impressions: number;
  conversions: number;
  conversionValue: number;
}

const totalsOf = (rows: Row[]): Totals => ({
  cost: rows.reduce((s, r) => s + num(r.cost), 0),
  clicks: rows.reduce((s, r) => s + num(r.clicks), 0),
  impressions: rows.reduce((s, r) => s + num(r.impressions), 0),
  conversions: rows.reduce((s, r) => s + num(r.conversions), 0),
  conversionValue: rows.reduce((s, r) => s + num(r.conversionValue), 0),
});

/** The account's totals: the read's own when it holds more campaigns than rows (value is summed over the rows it has). */
function accountTotals(e: ToolEvidence): Totals {
  const rows = totalsOf(e.rows);
  if (!e.truncated || !e.totals) return rows;
  return { ...rows, cost: num(e.totals.cost), clicks: num(e.totals.clicks), impressions: num(e.totals.impressions), conversions: num(e.totals.conversions) };
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** A metric's value; counts are per day when `days` is given. */
function valueOf(t: Totals, metric: Metric, days: number | null): number {
  const per = (v: number) => (days ? v / days : v);
  switch (metric) {
    case "costPerConversion":
      return ratio(t.cost, t.conversions);
    case "roas":
      return ratio(t.conversionValue, t.cost);
    case "ctr":
      return ratio(t.clicks, t.impressions) * 100;
    default:
      return per(t[metric]);
  }
}

// Which parts make up a metric: conversions = clicks × conversion rate; cost = clicks × CPC; CPA = CPC ÷ conversion rate.
const PARTS: Record<Metric, Array<["clicks" | "convRate" | "cpc" | "impressions" | "ctr" | "valuePerConv", string]>> = {
  conversions: [
    ["clicks", "clicks"],
    ["convRate", "conversion rate"],
  ],
  conversionValue: [
    ["clicks", "clicks"],
    ["convRate", "conversion rate"],
    ["valuePerConv", "value per conversion"],
  ],
  cost: [
    ["clicks", "clicks"],
    ["cpc", "cost per click"],
  ],
  costPerConversion: [
    ["cpc", "cost per click"],
    ["convRate", "conversion rate"],
  ],
  roas: [
    ["convRate", "conversion rate"],
    ["valuePerConv", "value per conversion"],
    ["cpc", "cost per click"],
  ],
  clicks: [
    ["impressions", "impressions"],
    ["ctr", "CTR"],
  ],
  impressions: [["impressions", "impressions"]],
  ctr: [["ctr", "CTR"]],
};

function partOf(t: Totals, part: (typeof PARTS)[Metric][number][0], days: number | null): number {
  const per = (v: number) => (days ? v / days : v);
  switch (part) {
    case "clicks":
      return per(t.clicks);
    case "impressions":
      return per(t.impressions);
    case "convRate":
      return ratio(t.conversions, t.clicks);
    case "cpc":
      return ratio(t.cost, t.clicks);
    case "ctr":
      return ratio(t.clicks, t.impressions);
    case "valuePerConv":
      return ratio(t.conversionValue, t.conversions);
  }
}

/** "clicks −8.1%, conversion rate +2.0%", the part that moved most first. */
function movedParts(a: Totals, b: Totals, metric: Metric, days: [number | null, number | null]): string {
  return PARTS[metric]
    .map(([part, label]) => {
      const now = partOf(a, part, days[0]);
      const before = partOf(b, part, days[1]);
      return { label, text: change(now, before), size: before === 0 ? 0 : Math.abs(Math.log(Math.max(now, 1e-9) / before)) };
    })
    .sort((x, y) => y.size - x.size)
    .map((p) => `${p.label} ${p.text}`)
    .join(", ");
}

export async function comparePeriods(
  w: Writer,
  parts: string[],
  current: Period,
  previous: Period,
  asked: { metric: Metric | null; claimed: "up" | "down" | null },
): Promise<void> {
  const read = (p: Period) => w.call("list_campaigns", { from: p.from, to: p.to, status: "all", sort: "cost", limit: 50 }) as Promise<ToolEvidence>;
  const a = await read(current);
  const b = await read(previous);
  const [ta, tb] = [accountTotals(a), accountTotals(b)];
  const [la, lb] = [rangeLength(current), rangeLength(previous)];
  // Counts of periods of different lengths are compared per day.
  const perDay = la !== lb;
  const days: [number | null, number | null] = perDay ? [la, lb] : [null, null];
  const metric: Metric = asked.metric ?? (ta.conversions + tb.conversions > 0 ? "conversions" : "cost");
  const name = METRIC_WORDS[metric];
  const fmt = (m: Metric, v: number) =>
    m === "cost" || m === "costPerConversion" || m === "conversionValue"
      ? w.money(Math.round(v * 100) / 100)
      : m === "roas"
        ? v.toFixed(2)
        : m === "ctr"
          ? `${v.toFixed(2)}%`
          : (Math.round(v * 10) / 10).toLocaleString("en-US");
  const now = valueOf(ta, metric, days[0]);
  const before = valueOf(tb, metric, days[1]);
  const delta = change(now, before);
  const per = perDay && !["costPerConversion", "roas", "ctr"].includes(metric) ? " a day" : "";
  const both = `${fmt(metric, now)}${per} in ${describePeriod(current)} vs ${fmt(metric, before)}${per} in ${describePeriod(previous)}`;
  const flat = before !== 0 && Math.abs((now - before) / before) < 0.005;
  const went = now > before && !flat ? "up" : now < before && !flat ? "down" : "flat";
  const verb = (dir: "up" | "down") =>
    metric === "conversions" || metric === "clicks" || metric === "impressions" ? (dir === "down" ? "drop" : "rise") : dir === "down" ? "fall" : "rise";
  if (asked.claimed && went !== asked.claimed) {
    parts.push(`**${name.replace(/^./, (c) => c.toUpperCase())} did not ${verb(asked.claimed)}: ${delta}** (${both}).`);
  } else {
    parts.push(`**${name.replace(/^./, (c) => c.toUpperCase())}: ${delta}** (${both}).`);
  }
  if (perDay) parts.push(`The two periods have ${la} and ${lb} days of data, so counts are compared per day.`);
  const row = (label: string, m: Metric) => [
    label,
    fmt(m, valueOf(ta, m, days[0])),
    fmt(m, valueOf(tb, m, days[1])),
    change(valueOf(ta, m, days[0]), valueOf(tb, m, days[1])),
  ];
  const rows: string[][] = [
    row(`Cost${perDay ? " / day" : ""}`, "cost"),
    row(`Clicks${perDay ? " / day" : ""}`, "clicks"),
    row(`Conversions${perDay ? " / day" : ""}`, "conversions"),
    [
      "Conversion rate",
      `${(ratio(ta.conversions, ta.clicks) * 100).toFixed(2)}%`,
      `${(ratio(tb.conversions, tb.clicks) * 100).toFixed(2)}%`,
      change(ratio(ta.conversions, ta.clicks), ratio(tb.conversions, tb.clicks)),
    ],
    ["Cost per click", w.money(ratio(ta.cost, ta.clicks)), w.money(ratio(tb.cost, tb.clicks)), change(ratio(ta.cost, ta.clicks), ratio(tb.cost, tb.clicks))],
    row("Cost / conv.", "costPerConversion"),
  ];
  if (ta.conversionValue + tb.conversionValue > 0) rows.push(row("ROAS", "roas"));
  parts.push(table(["", current.name, previous.name, "Change"], rows));
  if (now === before || PARTS[metric].length < 2) return;
  parts.push(`Across the account, ${name} moved with ${movedParts(ta, tb, metric, days)}.`);

  // The campaigns that moved it most, in the direction it moved.
  const before_ = new Map(b.rows.map((r) => [String(r.id), r]));
  const ids = new Set([...a.rows.map((r) => String(r.id)), ...b.rows.map((r) => String(r.id))]);
  const byCampaign = [...ids]
    .map((id) => {
      const ra = a.rows.find((r) => String(r.id) === id);
      const rb = before_.get(id);
      const ca = totalsOf(ra ? [ra] : []);
      const cb = totalsOf(rb ? [rb] : []);
      // Contribution to the account's change: counts per day where the periods differ in length.
      const contribution =
        metric === "costPerConversion" || metric === "roas" || metric === "ctr"
          ? valueOf(ca, "cost", days[0]) - valueOf(cb, "cost", days[1])
          : valueOf(ca, metric, days[0]) - valueOf(cb, metric, days[1]);
      return { name: String(ra?.name ?? rb?.name ?? id), ca, cb, contribution };
    })
    .filter((c) => c.contribution !== 0 && Math.sign(c.contribution) === Math.sign(now - before || 1))
    .sort((x, y) => Math.abs(y.contribution) - Math.abs(x.contribution))
    .slice(0, 3);
  if (byCampaign.length === 0) return;
  const counted = metric === "costPerConversion" || metric === "roas" || metric === "ctr" ? "cost" : metric;
  parts.push(
    `**Where it moved** (${METRIC_WORDS[counted]}${perDay ? " per day" : ""}, the campaigns that moved it most):`,
    table(
      ["Campaign", current.name, previous.name, "What moved"],
      byCampaign.map((c) => [
        c.name,
        fmt(counted, valueOf(c.ca, counted, days[0])),
        fmt(counted, valueOf(c.cb, counted, days[1])),
        movedParts(c.ca, c.cb, counted, days),
      ]),
    ),
  );
}
