import { formatDecimal, formatInteger, formatMoney, formatPercent } from "~/lib/format";
import { averageCpc, conversionValuePerCost, costPerConversion, ctr, type Metrics } from "~/lib/metrics";
import type { Column } from "./data-table";

/**
 * The eight performance columns every report table shares (campaigns, ad
 * groups, keywords, ads, search terms), in Google Ads' order. Keys match the
 * campaign sort keys, so the campaign table can sort by any of them.
 */
export function metricColumns<Row>(metricsOf: (row: Row) => Metrics, currencyCode: string, opts: { totals?: Metrics; sortable?: boolean } = {}): Column<Row>[] {
  const { totals, sortable = false } = opts;
  const money = (micros: number | null) => formatMoney(micros, currencyCode);
  const defs: Array<{ key: string; label: string; value: (m: Metrics) => string }> = [
    { key: "impressions", label: "Impressions", value: (m) => formatInteger(m.impressions) },
    { key: "clicks", label: "Clicks", value: (m) => formatInteger(m.clicks) },
    { key: "ctr", label: "CTR", value: (m) => formatPercent(ctr(m)) },
    { key: "averageCpc", label: "Avg. CPC", value: (m) => money(averageCpc(m)) },
    { key: "cost", label: "Cost", value: (m) => money(m.costMicros) },
    { key: "conversions", label: "Conversions", value: (m) => formatDecimal(m.conversions) },
    { key: "costPerConversion", label: "Cost/conv.", value: (m) => money(costPerConversion(m)) },
    { key: "conversionValuePerCost", label: "Conv. value/cost", value: (m) => formatDecimal(conversionValuePerCost(m)) },
  ];
  return defs.map((d) => ({
    key: d.key,
    label: d.label,
    numeric: true,
    sortable,
    cell: (row: Row) => d.value(metricsOf(row)),
    total: totals ? d.value(totals) : undefined,
  }));
}
