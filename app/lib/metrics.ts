// Performance metrics and the ratios derived from them, shared by the server
// (which sorts by the ratios in SQL) and the browser (which displays them).
// RATIOS is the one definition of each ratio: reports.server.ts builds its
// SQL from the same table, so a column sorts by exactly what it shows.

/** Sums over a date range. Money is in micros of the account currency, as Google Ads reports it. */
export interface Metrics {
  impressions: number;
  clicks: number;
  costMicros: number;
  /** Fractional under data-driven attribution. */
  conversions: number;
  /** In currency units (not micros), as Google Ads reports it. */
  conversionsValue: number;
}

export type MetricKey = keyof Metrics;

export const METRIC_KEYS: readonly MetricKey[] = ["impressions", "clicks", "costMicros", "conversions", "conversionsValue"];

export function emptyMetrics(): Metrics {
  return { impressions: 0, clicks: 0, costMicros: 0, conversions: 0, conversionsValue: 0 };
}

/**
 * A sum of fractional values (conversions, conversion value) without the
 * binary noise adding doubles leaves (218457.61000000002): Google reports
 * them to far fewer than six decimals.
 */
export function fractionalSum(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export function addMetrics(a: Metrics, b: Metrics): Metrics {
  return {
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    costMicros: a.costMicros + b.costMicros,
    conversions: fractionalSum(a.conversions + b.conversions),
    conversionsValue: fractionalSum(a.conversionsValue + b.conversionsValue),
  };
}

export interface RatioDefinition {
  numerator: MetricKey;
  denominator: MetricKey;
  /** Multiplies the denominator, e.g. 1e-6 to turn cost micros into currency units. */
  denominatorScale: number;
}

export type RatioKey = "ctr" | "averageCpc" | "costPerConversion" | "conversionValuePerCost" | "conversionRate";

export const RATIOS: Readonly<Record<RatioKey, RatioDefinition>> = {
  /** Clicks per impression, a fraction (0.0273 = 2.73 %). */
  ctr: { numerator: "clicks", denominator: "impressions", denominatorScale: 1 },
  /** Micros per click. */
  averageCpc: { numerator: "costMicros", denominator: "clicks", denominatorScale: 1 },
  /** Micros per conversion. */
  costPerConversion: { numerator: "costMicros", denominator: "conversions", denominatorScale: 1 },
  /** Conversion value per currency unit spent (ROAS): value is in units, cost in micros. */
  conversionValuePerCost: { numerator: "conversionsValue", denominator: "costMicros", denominatorScale: 1e-6 },
  /** Conversions per click, a fraction. */
  conversionRate: { numerator: "conversions", denominator: "clicks", denominatorScale: 1 },
};

/** The ratio, or null when there is nothing to divide by (no clicks, no cost...). */
export function ratio(metrics: Metrics, key: RatioKey): number | null {
  const def = RATIOS[key];
  const denominator = metrics[def.denominator] * def.denominatorScale;
  if (!denominator) return null;
  return metrics[def.numerator] / denominator;
}

export const ctr = (m: Metrics) => ratio(m, "ctr");
export const averageCpc = (m: Metrics) => ratio(m, "averageCpc");
export const costPerConversion = (m: Metrics) => ratio(m, "costPerConversion");
export const conversionValuePerCost = (m: Metrics) => ratio(m, "conversionValuePerCost");
export const conversionRate = (m: Metrics) => ratio(m, "conversionRate");
