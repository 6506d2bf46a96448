import { stringify } from "csv-stringify/sync";
import { averageCpc, conversionValuePerCost, costPerConversion, ctr, type Metrics } from "~/lib/metrics";

/**
 * CSV downloads of the report tables. csv-stringify does the quoting
 * (commas, quotes, line breaks) and `escape_formulas` neutralises cells a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR; a ' is put in
 * front): campaign names, keywords and search terms are written by other
 * people, and a search term like `=HYPERLINK(...)` must stay text. The
 * library looks at the first character only, and spreadsheets skip leading
 * spaces before a formula, so text whose first visible character starts one
 * gets the ' too (`neutraliseFormula`). Numbers
 * are written as plain numbers (no currency signs or thousands separators),
 * so the spreadsheet can sum them; the header names the currency.
 */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | null;
  /** The table column it mirrors, for a file that leaves out what the person hid (the campaigns' column chooser). */
  key?: string;
}

// After leading whitespace (spaces, no-break and ideographic spaces, line breaks): the library handles position 0.
const FORMULA_AFTER_SPACE = /^\s+[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Text a spreadsheet would run as a formula once it skips the leading spaces, made text with a leading '. */
export function neutraliseFormula(value: string): string {
  return FORMULA_AFTER_SPACE.test(value) ? `'${value}` : value;
}

export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Iterable<Row>): string {
  const records: Array<Array<string | number | null>> = [];
  for (const row of rows) records.push(columns.map((c) => c.value(row)));
  // A BOM so spreadsheet programs read the file as UTF-8 (names in German, Japanese...).
  return stringify(records, {
    header: true,
    columns: columns.map((c) => c.header),
    bom: true,
    escape_formulas: true,
    cast: { number: (n) => String(n), string: neutraliseFormula },
  });
}

export function csvResponse(filename: string, body: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}

const round = (n: number | null, digits: number) => (n === null || !Number.isFinite(n) ? null : Number(n.toFixed(digits)));
const units = (micros: number | null) => (micros === null ? null : round(micros / 1_000_000, 2));

/** The eight standard metric columns, as numbers. */
export function metricCsvColumns<Row>(metricsOf: (row: Row) => Metrics, currency: string): CsvColumn<Row>[] {
  return [
    { key: "impressions", header: "Impressions", value: (r) => metricsOf(r).impressions },
    { key: "clicks", header: "Clicks", value: (r) => metricsOf(r).clicks },
    { key: "ctr", header: "CTR (%)", value: (r) => round(ctr(metricsOf(r)) === null ? null : ctr(metricsOf(r))! * 100, 2) },
    { key: "averageCpc", header: `Avg. CPC (${currency})`, value: (r) => units(averageCpc(metricsOf(r))) },
    { key: "cost", header: `Cost (${currency})`, value: (r) => units(metricsOf(r).costMicros) },
    { key: "conversions", header: "Conversions", value: (r) => round(metricsOf(r).conversions, 2) },
    { key: "costPerConversion", header: `Cost/conv. (${currency})`, value: (r) => units(costPerConversion(metricsOf(r))) },
    { key: "conversionValuePerCost", header: "Conv. value/cost", value: (r) => round(conversionValuePerCost(metricsOf(r)), 2) },
  ];
}

export const moneyUnits = units;
