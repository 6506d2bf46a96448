import { addDays, rangeLength, type DateRange } from "./dates";

/**
 * "Compare with the previous period": ?compare=previous on the dashboard puts
 * the period of the same length just before the range beside it (a link, so
 * it works without JavaScript and can be bookmarked).
 */
export const COMPARE_PARAM = "compare";
export const COMPARE_PREVIOUS = "previous";

export function wantsComparison(params: URLSearchParams): boolean {
  return params.get(COMPARE_PARAM) === COMPARE_PREVIOUS;
}

/** The same number of days, ending the day before `range` starts. */
export function previousPeriod(range: DateRange): DateRange {
  const days = rangeLength(range);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1) };
}
