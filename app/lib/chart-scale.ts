// Axis arithmetic for the server-rendered charts: "nice" round tick values
// and short tick labels, the same on the server and in the browser.

/**
 * Tick values from 0 to a round number at or above `max`: 0, 50, 100 or
 * 0, 2,000, 4,000, 6,000. Always at least [0, something > 0], so an empty
 * series still gets an axis.
 */
export function axisTicks(max: number, target = 3): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / target;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let t = 0; t < max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

const compactFormats = new Map<string, Intl.NumberFormat>();

/** 1234 → "1.2K"; with a currency code: "$1.2K", "€350". */
export function compactNumber(value: number, currencyCode?: string): string {
  const key = currencyCode ?? "";
  let format = compactFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat("en-US", {
        notation: "compact",
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
        ...(currencyCode ? { style: "currency", currency: currencyCode } : {}),
      });
    } catch {
      format = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
    }
    compactFormats.set(key, format);
  }
  return format.format(value);
}

/** Change from `previous` to `now` in percent; null when there is nothing to compare with. */
export function percentChange(now: number, previous: number): number | null {
  if (!previous) return null;
  return ((now - previous) / previous) * 100;
}
