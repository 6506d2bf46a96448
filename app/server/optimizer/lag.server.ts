import { addDays } from "~/lib/dates";
import { betaCdf } from "./stats.server";

// The account's observed conversion lag (research §0.5: "better: the account's lag").
// A lead-generation account whose leads are qualified 2–4 weeks after the click
// shows its last weeks at a fraction of its usual conversion rate: not because
// they are worse but because their conversions have not arrived yet. The fixed
// LAG_DAYS (3) is right for a shop and far too short there; a keyword 20 days old
// would be judged on clicks whose leads are still being qualified.

export interface DayTotals {
  date: string;
  clicks: number;
  conversions: number;
}

/** Width of the blocks the recent days are judged in: a week evens out weekday swings. */
const BLOCK_DAYS = 7;
/** At most four weeks are looked at (Google's default click-through window is 30 days). */
const MAX_BLOCKS = 4;
/** A block counts as still filling in when most of its conversions are missing (its rate under half the settled one)… */
const MISSING_SHARE = 0.5;
/** …and it is below the settled rate with the engine's Strong confidence, so a thin or noisy week is not read as lag. */
const CONFIDENCE = 0.95;

/**
 * Days at the end of the data whose conversions have visibly not arrived yet:
 * the newest run of week-long blocks whose conversion rate is under half the
 * rate of the settled days before them, and below it with Strong confidence. 0 when the
 * recent weeks look like the rest (the fixed LAG_DAYS then covers the usual lag).
 */
export function observedConversionLag(days: DayTotals[], dataTo: string): number {
  const settledTo = addDays(dataTo, -BLOCK_DAYS * MAX_BLOCKS);
  let clicks = 0;
  let conversions = 0;
  for (const d of days) {
    if (d.date > settledTo) continue;
    clicks += d.clicks;
    conversions += d.conversions;
  }
  if (clicks <= 0 || conversions <= 0) return 0;
  const settledRate = conversions / clicks;
  let lag = 0;
  for (let block = 0; block < MAX_BLOCKS; block++) {
    const to = addDays(dataTo, -block * BLOCK_DAYS);
    const from = addDays(to, -(BLOCK_DAYS - 1));
    let k = 0;
    let v = 0;
    for (const d of days) {
      if (d.date < from || d.date > to) continue;
      k += d.clicks;
      v += d.conversions;
    }
    if (k <= 0) break;
    // Material (most conversions missing) and significant (P(true rate < settled rate), flat prior).
    const below = betaCdf(settledRate, v + 1, Math.max(0, k - v) + 1);
    if (v / k >= settledRate * MISSING_SHARE || below < CONFIDENCE) break;
    lag = (block + 1) * BLOCK_DAYS;
  }
  return lag;
}
