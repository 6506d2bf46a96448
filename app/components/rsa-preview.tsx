import { formatEnum } from "~/lib/format";

export interface RsaAsset {
  text: string;
  /** HEADLINE_1..3 or DESCRIPTION_1..2 when pinned. */
  pinnedField: string | null;
  /** Google's asset performance label: BEST, GOOD, LOW, LEARNING, PENDING. */
  performanceLabel: string | null;
}

export interface RsaAd {
  headlines: RsaAsset[];
  descriptions: RsaAsset[];
  finalUrl: string | null;
  path1: string | null;
  path2: string | null;
}

/**
 * The display URL a searcher sees: the final URL's host without "www." plus
 * the two optional paths ("northwind.example/Tents/Family").
 */
export function displayUrl(finalUrl: string | null, path1: string | null, path2: string | null): string {
  let host = "";
  if (finalUrl) {
    try {
      host = new URL(finalUrl).hostname.replace(/^www\./, "");
    } catch {
      host = finalUrl;
    }
  }
  const paths = [path1, path1 ? path2 : null].filter((p): p is string => !!p);
  return [host, ...paths].join("/");
}

/**
 * The assets one impression would show: pinned assets hold their slot,
 * the remaining slots take unpinned assets in order, as Google would in
 * its first rotation.
 */
export function pickForPreview(assets: RsaAsset[], slots: string[]): string[] {
  const used = new Set<number>();
  const picks: string[] = [];
  for (const slot of slots) {
    let index = assets.findIndex((a, i) => !used.has(i) && a.pinnedField === slot);
    if (index < 0) index = assets.findIndex((a, i) => !used.has(i) && !a.pinnedField);
    if (index < 0) continue;
    used.add(index);
    picks.push(assets[index].text);
  }
  return picks;
}

/** A Google search result-like card: headline 1–3, the display URL and descriptions 1–2. */
export function RsaPreview({ ad }: { ad: RsaAd }) {
  const headlines = pickForPreview(ad.headlines, ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"]);
  const descriptions = pickForPreview(ad.descriptions, ["DESCRIPTION_1", "DESCRIPTION_2"]);
  return (
    <figure className="m-0 max-w-xl rounded-xl border border-gray-200 bg-white p-4 shadow-sm" data-testid="rsa-preview">
      <figcaption className="sr-only">Ad preview</figcaption>
      <p className="flex items-center gap-2 text-sm text-gray-800">
        <span className="font-bold">Sponsored</span>
      </p>
      <p className="mt-1 text-sm text-gray-700" data-testid="rsa-display-url">
        {displayUrl(ad.finalUrl, ad.path1, ad.path2)}
      </p>
      <p className="mt-1 text-xl leading-snug text-[#1a0dab]" data-testid="rsa-headline">
        {headlines.join(" | ")}
      </p>
      <p className="mt-1 text-sm text-gray-700" data-testid="rsa-description">
        {descriptions.join(" ")}
      </p>
    </figure>
  );
}

const LABEL_STYLE: Record<string, string> = {
  BEST: "bg-green-100 text-green-800",
  GOOD: "bg-blue-100 text-blue-800",
  LOW: "bg-red-100 text-red-800",
  LEARNING: "bg-gray-100 text-gray-700",
  PENDING: "bg-gray-100 text-gray-700",
};

const STRENGTH_STYLE: Record<string, string> = {
  EXCELLENT: "bg-green-100 text-green-800",
  GOOD: "bg-blue-100 text-blue-800",
  AVERAGE: "bg-amber-100 text-amber-900",
  POOR: "bg-red-100 text-red-800",
};

export function AdStrengthBadge({ strength }: { strength: string | null }) {
  if (!strength) return null;
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STRENGTH_STYLE[strength] ?? "bg-gray-100 text-gray-700"}`}>
      Ad strength: {formatEnum(strength)}
    </span>
  );
}

function pinLabel(field: string | null): string | null {
  if (!field) return null;
  const m = /^(HEADLINE|DESCRIPTION)_(\d)$/.exec(field);
  return m ? `Pinned to ${m[1] === "HEADLINE" ? "headline" : "description"} ${m[2]}` : formatEnum(field);
}

/** Every headline and description with its pin and performance label. */
export function RsaAssetList({ title, assets, limit }: { title: string; assets: RsaAsset[]; limit: number }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-gray-900">
        {title} <span className="font-normal text-gray-500">({assets.length})</span>
      </h4>
      <ul className="mt-2 divide-y divide-gray-100 rounded-lg border border-gray-200">
        {assets.map((asset, i) => (
          <li key={i} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
            <span className="text-gray-900">
              {asset.text}{" "}
              <span className="text-xs text-gray-400" title={`${asset.text.length} of ${limit} characters`}>
                {asset.text.length}/{limit}
              </span>
            </span>
            <span className="flex gap-2">
              {asset.pinnedField ? (
                <span className="rounded bg-purple-100 px-2 py-0.5 text-xs font-medium text-purple-800">{pinLabel(asset.pinnedField)}</span>
              ) : null}
              {asset.performanceLabel ? (
                <span className={`rounded px-2 py-0.5 text-xs font-medium ${LABEL_STYLE[asset.performanceLabel] ?? "bg-gray-100 text-gray-700"}`}>
                  {formatEnum(asset.performanceLabel)}
                </span>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
