/**
 * Google Ads API versions and their sunsets (issue 26 point 5). A hard-coded
 * version stops working on the day Google turns it off (every request then
 * answers requestError.UNSUPPORTED_VERSION), so the server says so at start
 * while there is still time to move GOOGLE_ADS_API_VERSION on.
 *
 * Sources (checked 2026-11-28):
 * - https://developers.google.com/google-ads/api/docs/sunset-dates (the table; later versions "tentative")
 * - the Ads developer blog's sunset reminders, e.g.
 *   https://developers.google.com/ads/blog/posts/2026/09/google-ads-api-v22-sunset-reminder (v22: 2026-10-07)
 * Google publishes only the month for versions not yet near their end; such a sunset is taken as the
 * first day of its month, so the warning comes early rather than late. Update the table with each release.
 */

/** The version a new install talks to: the one Google tells new integrations to start on (released 2026-10-14). */
export const DEFAULT_ADS_API_VERSION = "v26";

export const SUNSET_SOURCE_URL = "https://developers.google.com/google-ads/api/docs/sunset-dates";

export interface VersionSunset {
  /** YYYY-MM-DD; for a month-only announcement the month's first day. */
  sunset: string;
  /** Google gave only the month ("tentative" in its table). */
  tentative: boolean;
}

export const ADS_API_SUNSETS: Readonly<Record<string, VersionSunset>> = {
  v19: { sunset: "2026-02-11", tentative: false },
  v20: { sunset: "2026-06-10", tentative: false },
  v21: { sunset: "2026-08-05", tentative: false },
  v22: { sunset: "2026-10-07", tentative: false },
  v23: { sunset: "2027-02-01", tentative: true },
  v24: { sunset: "2027-05-01", tentative: true },
  v25: { sunset: "2027-08-01", tentative: true },
  v26: { sunset: "2027-11-01", tentative: true },
};

/** Warn this many days ahead: Google's own reminders come about six weeks before; a release cycle is three months. */
export const SUNSET_WARNING_DAYS = 90;

const DAY_MS = 86_400_000;
const versionNumber = (v: string) => Number(v.slice(1));
const newestKnown = Math.max(...Object.keys(ADS_API_SUNSETS).map(versionNumber));
const oldestKnown = Math.min(...Object.keys(ADS_API_SUNSETS).map(versionNumber));

/**
 * What to tell the operator about the configured version at start, or null when
 * it has more than SUNSET_WARNING_DAYS left (or is newer than this table knows).
 */
export function versionSunsetWarning(version: string, now: Date = new Date()): string | null {
  const entry = ADS_API_SUNSETS[version];
  const advice = `Set GOOGLE_ADS_API_VERSION to ${DEFAULT_ADS_API_VERSION} (or newer) after checking Google's upgrade notes; dates: ${SUNSET_SOURCE_URL}`;
  if (!entry) {
    if (versionNumber(version) > newestKnown) return null;
    if (versionNumber(version) < oldestKnown) {
      return `Google Ads API ${version} was sunset long ago (before ${ADS_API_SUNSETS[`v${oldestKnown}`]!.sunset}): every request to Google will fail. ${advice}`;
    }
    return null;
  }
  const days = Math.ceil((Date.parse(`${entry.sunset}T00:00:00Z`) - now.getTime()) / DAY_MS);
  const when = entry.tentative ? `in ${entry.sunset.slice(0, 7)} (tentative; assumed ${entry.sunset})` : `on ${entry.sunset}`;
  if (days <= 0) return `Google Ads API ${version} was sunset ${when}: every request to Google fails with UNSUPPORTED_VERSION. ${advice}`;
  if (days > SUNSET_WARNING_DAYS) return null;
  return `Google Ads API ${version} is sunset ${when}, in ${days} day${days === 1 ? "" : "s"}; after that every request to Google fails. ${advice}`;
}
