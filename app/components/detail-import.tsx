import { Link, useLocation } from "react-router";
import type { SyncView } from "./sync-status";

/** The campaign detail tabs whose figures come from the tables a first sync imports last. */
export type DetailImportTab = "keywords" | "ads" | "searchterms";

const WHAT: Record<DetailImportTab, { subject: string; is: string }> = {
  keywords: { subject: "Keyword performance", is: "is" },
  ads: { subject: "Ad performance", is: "is" },
  searchterms: { subject: "Search terms", is: "are" },
};

/** This tab's figures are not all in yet: a first sync is still importing them, or that import failed. */
export function detailMissing(sync: SyncView): boolean {
  return sync.detail.status === "running" || sync.detail.status === "failed";
}

/**
 * On the keywords, ads and search-terms tabs while an account's first sync is
 * still importing their performance (ADR 013, staged first sync): says so
 * plainly, in a polite live region, so missing rows and zeros are not read as
 * "no clicks". `sync` is the page's live state: with JavaScript on the page
 * polls and revalidates when the import ends (useLiveSync), and the step
 * shown follows; with it off a <noscript> refresh reloads the page every 3 s,
 * and a link does it at once. After a failed import, says that instead.
 */
export function DetailImportNotice({ sync, tab }: { sync: SyncView; tab: DetailImportTab }) {
  const { pathname, search, hash } = useLocation();
  if (sync.detail.status === "running") {
    const step = sync.detail.currentStep ? ` (${sync.detail.currentStep.replace(/^Loading /, "loading ")})` : "";
    return (
      <div role="status" aria-live="polite" data-testid="detail-importing" className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
        {/* While the sync itself runs, the sync status already refreshes the page. */}
        {sync.status !== "running" ? (
          <noscript>
            <meta httpEquiv="refresh" content="3" />
          </noscript>
        ) : null}
        {`${WHAT[tab].subject} ${WHAT[tab].is} still importing${step}: figures missing here are not zeros. This tab updates itself when the import is done.`}{" "}
        <Link to={`${pathname}${search}${hash}`} className="font-semibold text-blue-700 hover:underline">
          Refresh
        </Link>
      </div>
    );
  }
  if (sync.detail.status === "failed") {
    return (
      <p data-testid="detail-import-failed" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {`${WHAT[tab].subject} could not be imported, so figures missing here are not zeros. Sync now to try again.`}
      </p>
    );
  }
  return null;
}
