import { Form, Link, useLocation } from "react-router";
import {
  AddKeywordsForm,
  AddNegativesForm,
  BidField,
  BudgetForm,
  CampaignStatusButtons,
  SearchTermActions,
  StatusButtons,
} from "~/components/campaign-change-forms";
import { BulkBar, SelectAll, SelectBox, secondaryButtonClass, usePostAction } from "~/components/change-forms";
import { DataTable, type Column } from "~/components/data-table";
import { DateRangePicker } from "~/components/date-range-picker";
import { metricColumns } from "~/components/metric-columns";
import { AdStrengthBadge, RsaAssetList, RsaPreview } from "~/components/rsa-preview";
import { StatusBadge } from "~/components/status-badge";
import { SyncStatus, useLiveSync } from "~/components/sync-status";
import { DetailImportNotice, detailMissing } from "~/components/detail-import";
import { Notice } from "~/components/ui";
import { countOf, formatDecimal, formatEnum, formatInteger, formatMoney, formatPercent } from "~/lib/format";
import { impactText } from "~/lib/recommendations";
import { averageCpc, conversionValuePerCost, costPerConversion, ctr, type Metrics } from "~/lib/metrics";
import { currentPath, hrefWith, keptParams } from "~/lib/query";
import { DETAIL_TABS, presetLinks, rangeFormHidden, rangeOnly, type DetailTab } from "~/lib/report-query";
import {
  DETAIL_SEARCH_LABELS,
  DETAIL_SORT_KEYS,
  DETAIL_STATUS_FILTERS,
  DETAIL_STATUS_LABELS,
  detailDefaultDir,
  TABLE_KEYS,
  type DetailStatusFilter,
} from "~/lib/detail-query";
import { Pagination } from "~/components/pagination";
import { csvHref, DownloadCsv, PageSizeLinks, SearchBox, StatusFilter } from "~/components/table-tools";
import { userContext } from "~/server/request-context.server";
import { proposeAction } from "~/server/change-pages.server";
import { campaignDetailPage } from "~/server/report-pages.server";
import type { Route } from "./+types/campaign-detail";

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.detail.campaign.name;
  return [{ title: name ? `${name} · Campaigns · Ads AI Manager` : "Campaign · Ads AI Manager" }];
}

export async function loader({ params, context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return campaignDetailPage(user, url, params.campaignId);
}

/** Every change form on this page: propose, then the review page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return proposeAction(user, await request.formData());
}

type Data = Route.ComponentProps["loaderData"];

/** The campaign's own open recommendations (issue 29 point 5), largest first; the AI Optimizer holds the actions. */
function CampaignRecommendations({ campaignId, data, currency }: { campaignId: string; data: Data["recommendations"]; currency: string }) {
  const all = `/ai-optimizer?campaign=${campaignId}`;
  const money = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(n);
  return (
    <section aria-labelledby="campaign-recs-heading" className="mb-6 rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id="campaign-recs-heading" className="text-base font-semibold text-gray-900">
        Recommendations for this campaign
      </h2>
      {data.totals.count === 0 ? (
        <p className="mt-1 text-sm text-gray-600">No open recommendation for this campaign.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-600">
            {countOf(data.totals.count, "open recommendation")}
            {data.totals.costSaved > 0 ? ` · saves about ${money(data.totals.costSaved)} a month` : ""}
            {data.totals.conversions > 0 ? ` · about +${Math.round(data.totals.conversions * 10) / 10} conversions a month` : ""}
          </p>
          <ol className="mt-3 space-y-1 text-sm">
            {data.items.map((r) => (
              <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2">
                <Link to={`${all}#rec-${r.id}`} className="text-blue-700 hover:underline">
                  {r.title}
                </Link>
                <span className="text-xs text-gray-500">{impactText(r.impact)}</span>
              </li>
            ))}
          </ol>
          <p className="mt-3 text-sm">
            <Link to={all} className="font-semibold text-blue-700 hover:underline">
              {data.totals.count > data.items.length ? `See all ${data.totals.count} in the AI Optimizer` : "Review and apply in the AI Optimizer"}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

const TAB_LABELS: Record<DetailTab, string> = {
  adgroups: "Ad groups",
  keywords: "Keywords",
  ads: "Ads",
  searchterms: "Search terms",
};

const HEADLINE_LIMIT = 30;
const DESCRIPTION_LIMIT = 90;

export default function CampaignDetailPage({ loaderData: data }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const backHref = hrefWith("/campaigns", rangeOnly(search), {});
  // One poll for the page: the sync status and the detail-import notice show the same state.
  const live = useLiveSync(data.sync);
  const syncBar = <SyncStatus sync={data.sync} live={live} now={data.now} timeZone={data.account.timeZone} returnTo={currentPath(pathname, search)} />;

  const { campaign } = data.detail;
  const currency = data.account.currencyCode;
  return (
    <>
      <BackLink href={backHref} />
      {/* Compact on purpose: at 1440 px the open tab's table starts on the first screen (issue 32). */}
      <header className="mb-3">
        <h1 className="text-xl font-bold text-gray-900">{campaign.name}</h1>
        <p className="text-sm text-gray-600">{`Campaign in ${data.account.name}`}</p>
      </header>
      {syncBar}
      <section
        aria-label="Campaign settings"
        className="mb-3 flex flex-wrap items-end justify-between gap-x-6 gap-y-3 rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-sm"
      >
        <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <Setting label="Status" value={<StatusBadge status={campaign.status} />} />
          <Setting label="Type" value={formatEnum(campaign.channelType)} />
          <Setting label="Bidding" value={formatEnum(campaign.biddingStrategyType)} />
          <Setting label="Budget" value={campaign.budgetMicros === null ? "—" : `${formatMoney(campaign.budgetMicros, currency)}/day`} />
        </dl>
        <div className="flex flex-wrap items-start gap-4">
          <BudgetForm campaignId={campaign.id} budgetMicros={campaign.budgetMicros} currency={currency} />
          <CampaignStatusButtons campaignId={campaign.id} status={campaign.status} />
        </div>
      </section>
      <div className="mb-3">
        <DateRangePicker
          action={pathname}
          range={data.range}
          presets={presetLinks(pathname, search, data.presetId)}
          hidden={rangeFormHidden(search)}
          notice={data.rangeNotice}
          max={data.today}
        />
      </div>
      <MetricSummary metrics={campaign.metrics} currency={currency} />
      {data.tabNotice ? <Notice>{data.tabNotice}</Notice> : null}
      <nav aria-label="Campaign sections" className="relative mb-4 flex gap-1 overflow-x-auto border-b border-gray-200">
        {DETAIL_TABS.map((tab) => {
          const current = data.tab === tab;
          return (
            <Link
              key={tab}
              // Another tab has other columns: its sort, filters and page start fresh.
              to={hrefWith(pathname, search, { tab: tab === "adgroups" ? null : tab, view: null, ...Object.fromEntries(TABLE_KEYS.map((k) => [k, null])) })}
              aria-current={current ? "page" : undefined}
              preventScrollReset
              className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium sm:px-4 ${current ? "border-blue-600 text-blue-700" : "border-transparent text-gray-600 hover:text-gray-900"}`}
            >
              {TAB_LABELS[tab]} <span className="text-xs text-gray-400">{formatInteger(data.detail.counts[tab])}</span>
            </Link>
          );
        })}
      </nav>
      <section aria-label={TAB_LABELS[data.tab]}>
        {data.tab !== "adgroups" ? <DetailImportNotice sync={live} tab={data.tab} /> : null}
        <TabTools data={data} />
        <TabPanel data={data} currency={currency} newAdHref={hrefWith(`${pathname}/ads/new`, rangeOnly(search), {})} />
        <TabPaging data={data} />
        {data.opened.tab === "keywords" ? (
          <div className="mt-6 grid gap-4 lg:grid-cols-2">
            <AddKeywordsForm adGroups={data.detail.adGroupOptions} currency={currency} />
            <AddNegativesForm campaignId={campaign.id} adGroups={data.detail.adGroupOptions} />
          </div>
        ) : null}
      </section>
      {/* After the tab's table, which leads the page (issue 32 point 6). */}
      <div className="mt-6">
        <CampaignRecommendations campaignId={campaign.id} data={data.recommendations} currency={currency} />
      </div>
    </>
  );
}

function BackLink({ href }: { href: string }) {
  return (
    <Link to={href} className="mb-3 inline-block text-sm font-medium text-blue-700 hover:underline">
      ← All campaigns
    </Link>
  );
}

function Setting({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd className="mt-0.5 font-medium text-gray-900">{value}</dd>
    </div>
  );
}

function MetricSummary({ metrics, currency }: { metrics: Metrics; currency: string }) {
  const items: Array<[string, string]> = [
    ["Impressions", formatInteger(metrics.impressions)],
    ["Clicks", formatInteger(metrics.clicks)],
    ["CTR", formatPercent(ctr(metrics))],
    ["Avg. CPC", formatMoney(averageCpc(metrics), currency)],
    ["Cost", formatMoney(metrics.costMicros, currency)],
    ["Conversions", formatDecimal(metrics.conversions)],
    ["Cost/conv.", formatMoney(costPerConversion(metrics), currency)],
    ["Conv. value/cost", formatDecimal(conversionValuePerCost(metrics))],
  ];
  return (
    <section aria-label="Campaign metrics" className="mb-3 rounded-xl border border-gray-200 bg-white px-4 py-3 shadow-sm">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4 xl:grid-cols-8">
        {items.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-gray-500">{label}</dt>
            <dd className="mt-0.5 text-base font-semibold tabular-nums text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const TAB_NOUNS: Record<DetailTab, string> = {
  adgroups: "ad groups",
  keywords: "keywords",
  ads: "ads",
  searchterms: "search terms",
};

/** Status filter, text search and the CSV download of the open tab. */
function TabTools({ data }: { data: Data }) {
  const { pathname, search } = useLocation();
  const tab = data.tab;
  const filters = DETAIL_STATUS_FILTERS[tab] as readonly DetailStatusFilter[];
  const searchLabels = DETAIL_SEARCH_LABELS[tab];
  return (
    <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
      <StatusFilter filters={filters} labels={DETAIL_STATUS_LABELS} current={data.query.status} pathname={pathname} search={search} />
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox
          pathname={pathname}
          search={search}
          q={data.query.q}
          name={`Search ${TAB_NOUNS[tab]}`}
          label={searchLabels.label}
          placeholder={searchLabels.placeholder}
        />
        {/* A CSV of rows whose performance is not in yet would read as zeros: offered once it is. */}
        {tab !== "adgroups" && detailMissing(data.sync) ? null : (
          <DownloadCsv href={csvHref(`/export/campaigns/${data.detail.campaign.id}`, search, { tab })} label={`Download CSV`} />
        )}
      </div>
    </div>
  );
}

function TabPaging({ data }: { data: Data }) {
  const { pathname, search } = useLocation();
  const { list } = data.opened;
  return (
    <>
      <Pagination
        page={list.page}
        pageSize={list.pageSize}
        total={list.total}
        href={(page) => hrefWith(pathname, search, { page: page === 1 ? null : page })}
        noun={TAB_NOUNS[data.tab]}
      />
      <PageSizeLinks pathname={pathname} search={search} pageSize={list.pageSize} />
    </>
  );
}

function useSortHref() {
  const { pathname, search } = useLocation();
  // The default sort (cost, biggest first) needs no parameter; any new sort starts on page 1.
  return (key: string, dir: "asc" | "desc") =>
    hrefWith(pathname, search, { sort: key === "cost" ? null : key, dir: dir === detailDefaultDir(key) ? null : dir, page: null });
}

function TabPanel({ data, currency, newAdHref }: { data: Data; currency: string; newAdHref: string }) {
  const { detail, opened, query } = data;
  const sortHref = useSortHref();
  const sort = { key: query.sort, dir: query.dir, href: sortHref };
  const filtered = query.q !== "" || query.status !== "all";
  const money = (micros: number | null) => (micros === null ? "—" : formatMoney(micros, currency));
  const select = <Row,>(form: string, noun: string, value: (r: Row) => string, name: (r: Row) => string, field = "id"): Column<Row> => ({
    key: "select",
    label: `Select all ${noun}`,
    header: <SelectAll form={form} label={`Select all ${noun}`} />,
    cell: (r) => <SelectBox form={form} name={field} value={value(r)} label={`Select ${name(r)}`} />,
  });
  const totalsLabel = `Total (${formatInteger(opened.list.total)} ${TAB_NOUNS[opened.tab]})`;
  switch (opened.tab) {
    case "adgroups": {
      type Row = (typeof opened.list.rows)[number];
      const columns: Column<Row>[] = [
        select<Row>(
          "adgroup-bulk",
          "ad groups",
          (g) => g.id,
          (g) => g.name,
        ),
        { key: "name", label: "Ad group", sortable: true, rowHeader: true, cell: (g) => g.name },
        { key: "status", label: "Status", sortable: true, cell: (g) => <StatusBadge status={g.status} /> },
        { key: "bid", label: "Default max. CPC", numeric: true, sortable: true, cell: (g) => money(g.cpcBidMicros) },
        ...metricColumns<Row>((g) => g.metrics, currency, { totals: opened.list.totals, sortable: true }),
      ];
      return (
        <>
          <BulkBar id="adgroup-bulk" label="Change selected ad groups" hidden={{ kind: "ad_group" }} intents={["pause", "enable", "remove", "bid"]}>
            <StatusButtons />
            <BidField currency={currency} />
          </BulkBar>
          <DataTable
            caption="Ad groups"
            columns={columns}
            rows={opened.list.rows}
            rowKey={(g) => g.id}
            sort={sort}
            showTotals
            totalsLabel={totalsLabel}
            empty={filtered ? "No ad groups match these filters." : "This campaign has no ad groups."}
          />
        </>
      );
    }
    case "keywords": {
      type Row = (typeof opened.list.rows)[number];
      const columns: Column<Row>[] = [
        select<Row>(
          "keyword-bulk",
          "keywords",
          (k) => `${k.adGroupId}~${k.criterionId}`,
          (k) => `${k.text} (${formatEnum(k.matchType)}) in ${k.adGroupName}`,
        ),
        {
          key: "text",
          label: "Keyword",
          sortable: true,
          rowHeader: true,
          cell: (k) => (
            <>
              {k.text}
              {k.negative ? <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-700">Negative</span> : null}
            </>
          ),
        },
        { key: "matchType", label: "Match type", sortable: true, narrow: true, cell: (k) => formatEnum(k.matchType) },
        { key: "adGroup", label: "Ad group", sortable: true, narrow: true, cell: (k) => k.adGroupName },
        { key: "status", label: "Status", sortable: true, cell: (k) => <StatusBadge status={k.status} /> },
        { key: "bid", label: "Max. CPC", numeric: true, sortable: true, cell: (k) => money(k.cpcBidMicros) },
        { key: "qualityScore", label: "Quality score", numeric: true, sortable: true, cell: (k) => (k.qualityScore === null ? "—" : `${k.qualityScore}/10`) },
        ...metricColumns<Row>((k) => k.metrics, currency, { totals: opened.list.totals, sortable: true }),
      ];
      return (
        <>
          <BulkBar id="keyword-bulk" label="Change selected keywords" hidden={{ kind: "keyword" }} intents={["pause", "enable", "remove", "bid"]}>
            <StatusButtons />
            <BidField currency={currency} />
          </BulkBar>
          <DataTable
            caption="Keywords"
            columns={columns}
            rows={opened.list.rows}
            rowKey={(k) => `${k.adGroupId}~${k.criterionId}`}
            sort={sort}
            showTotals
            totalsLabel={totalsLabel}
            empty={filtered ? "No keywords match these filters." : "This campaign has no keywords."}
          />
        </>
      );
    }
    case "ads": {
      type Row = (typeof opened.list.rows)[number];
      const adId = (ad: Row) => `${ad.adGroupId}~${ad.adId}`;
      const head = (
        <>
          {detail.adGroupOptions.length > 0 ? (
            <p className="mb-4">
              <Link to={newAdHref} className={secondaryButtonClass}>
                New responsive search ad
              </Link>
            </p>
          ) : null}
          <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
            <AdsSortForm sort={query.sort} dir={query.dir} />
            <AdViewLinks view={data.adView} />
          </div>
        </>
      );
      if (data.adView === "table") {
        const columns: Column<Row>[] = [
          {
            key: "ad",
            label: "Ad",
            rowHeader: true,
            cell: (ad) => (
              <span title={ad.finalUrls[0] ?? undefined}>
                {ad.headlines[0]?.text ?? formatEnum(ad.type ?? "AD")} <span className="text-xs text-gray-500">#{ad.adId}</span>
              </span>
            ),
          },
          { key: "adGroup", label: "Ad group", sortable: true, narrow: true, cell: (ad) => ad.adGroupName },
          { key: "status", label: "Status", sortable: true, cell: (ad) => <StatusBadge status={ad.status} /> },
          { key: "adStrength", label: "Ad strength", sortable: true, cell: (ad) => <AdStrengthBadge strength={ad.adStrength ?? null} /> },
          { key: "headlines", label: "Headlines", numeric: true, cell: (ad) => formatInteger(ad.headlines.length) },
          { key: "descriptions", label: "Descriptions", numeric: true, cell: (ad) => formatInteger(ad.descriptions.length) },
          ...metricColumns<Row>((ad) => ad.metrics, currency, { totals: opened.list.totals, sortable: true }),
          { key: "actions", label: "Actions", cell: (ad) => <AdStatusButtons id={adId(ad)} status={ad.status} /> },
        ];
        return (
          <>
            {head}
            <DataTable
              caption="Ads"
              columns={columns}
              rows={opened.list.rows}
              rowKey={adId}
              sort={sort}
              showTotals
              totalsLabel={totalsLabel}
              empty={filtered ? "No ads match these filters." : "This campaign has no ads."}
            />
          </>
        );
      }
      return (
        <>
          {head}
          {opened.list.rows.length === 0 ? (
            <p className="text-gray-600">{filtered ? "No ads match these filters." : "This campaign has no ads."}</p>
          ) : (
            <p className="mb-3 text-sm text-gray-700" data-testid="totals-row">
              <strong>{totalsLabel}:</strong> {metricLine(opened.list.totals, currency)}
            </p>
          )}
          <ul className="space-y-6">
            {opened.list.rows.map((ad) => (
              <li key={`${ad.adGroupId}~${ad.adId}`}>
                <article className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5" aria-label={`Ad ${ad.adId} in ${ad.adGroupName}`}>
                  <header className="mb-4 flex flex-wrap items-center gap-3">
                    <h3 className="font-semibold text-gray-900">
                      {formatEnum(ad.type ?? "AD")} · {ad.adGroupName}
                    </h3>
                    <StatusBadge status={ad.status} />
                    <AdStrengthBadge strength={ad.adStrength ?? null} />
                    <AdStatusButtons id={`${ad.adGroupId}~${ad.adId}`} status={ad.status} />
                  </header>
                  <RsaPreview
                    ad={{
                      headlines: ad.headlines.map((h) => ({ text: h.text, pinnedField: h.pinnedField ?? null, performanceLabel: h.performanceLabel ?? null })),
                      descriptions: ad.descriptions.map((d) => ({
                        text: d.text,
                        pinnedField: d.pinnedField ?? null,
                        performanceLabel: d.performanceLabel ?? null,
                      })),
                      finalUrl: ad.finalUrls[0] ?? null,
                      path1: ad.path1 ?? null,
                      path2: ad.path2 ?? null,
                    }}
                  />
                  <p className="mt-3 text-sm text-gray-600">{metricLine(ad.metrics, currency)}</p>
                  {ad.finalUrls[0] ? <p className="mt-1 break-all text-xs text-gray-500">Final URL: {ad.finalUrls[0]}</p> : null}
                  <div className="mt-4 grid gap-4 lg:grid-cols-2">
                    <RsaAssetList
                      title="Headlines"
                      limit={HEADLINE_LIMIT}
                      assets={ad.headlines.map((h) => ({ text: h.text, pinnedField: h.pinnedField ?? null, performanceLabel: h.performanceLabel ?? null }))}
                    />
                    <RsaAssetList
                      title="Descriptions"
                      limit={DESCRIPTION_LIMIT}
                      assets={ad.descriptions.map((d) => ({ text: d.text, pinnedField: d.pinnedField ?? null, performanceLabel: d.performanceLabel ?? null }))}
                    />
                  </div>
                </article>
              </li>
            ))}
          </ul>
        </>
      );
    }
    case "searchterms": {
      type Row = (typeof opened.list.rows)[number];
      const columns: Column<Row>[] = [
        select<Row>(
          "term-bulk",
          "search terms",
          (t) => `${t.adGroupId}~${t.searchTerm}`,
          (t) => `${t.searchTerm} in ${t.adGroupName}`,
          "term",
        ),
        { key: "term", label: "Search term", sortable: true, rowHeader: true, cell: (t) => t.searchTerm },
        { key: "status", label: "Added/Excluded", sortable: true, narrow: true, cell: (t) => (t.status === "NONE" ? "None" : formatEnum(t.status)) },
        { key: "adGroup", label: "Ad group", sortable: true, narrow: true, cell: (t) => t.adGroupName },
        { key: "keyword", label: "Keyword", sortable: true, narrow: true, cell: (t) => t.keywordText ?? "—" },
        ...metricColumns<Row>((t) => t.metrics, currency, { totals: opened.list.totals, sortable: true }),
      ];
      return (
        <>
          <BulkBar
            id="term-bulk"
            label="Act on selected search terms"
            hidden={{ campaignId: detail.campaign.id }}
            intents={["term_keywords", "term_negatives"]}
          >
            <SearchTermActions currency={currency} />
          </BulkBar>
          <DataTable
            caption="Search terms"
            columns={columns}
            rows={opened.list.rows}
            rowKey={(t) => `${t.adGroupId}~${t.searchTerm}`}
            sort={sort}
            showTotals
            totalsLabel={totalsLabel}
            empty={
              detailMissing(data.sync)
                ? "Search terms appear here once they are imported."
                : filtered
                  ? "No search terms match these filters."
                  : "No search terms in this range."
            }
          />
        </>
      );
    }
  }
}

/** The eight standard metrics in one line (the ads tab shows cards, not a table). */
function metricLine(m: Metrics, currency: string): string {
  return [
    `${formatInteger(m.impressions)} impressions`,
    `${formatInteger(m.clicks)} clicks`,
    `CTR ${formatPercent(ctr(m))}`,
    `Avg. CPC ${formatMoney(averageCpc(m), currency)}`,
    `${formatMoney(m.costMicros, currency)} cost`,
    `${formatDecimal(m.conversions)} conversions`,
    `Cost/conv. ${formatMoney(costPerConversion(m), currency)}`,
    `Conv. value/cost ${formatDecimal(conversionValuePerCost(m))}`,
  ].join(" · ");
}

const AD_SORT_LABELS: Record<string, string> = {
  adGroup: "Ad group",
  status: "Status",
  adStrength: "Ad strength",
  impressions: "Impressions",
  clicks: "Clicks",
  ctr: "CTR",
  averageCpc: "Avg. CPC",
  cost: "Cost",
  conversions: "Conversions",
  costPerConversion: "Cost/conv.",
  conversionValuePerCost: "Conv. value/cost",
};

/** Cards or the compact table: links (?view=table), so the switch works without JavaScript; the sort and filters stay. */
function AdViewLinks({ view }: { view: "cards" | "table" }) {
  const { pathname, search } = useLocation();
  const link = (v: "cards" | "table", label: string) => (
    <Link
      to={hrefWith(pathname, search, { view: v === "cards" ? null : v })}
      aria-current={view === v ? "page" : undefined}
      preventScrollReset
      className={`px-3 py-1.5 font-medium ${view === v ? "bg-blue-600 text-white" : "text-gray-700 hover:bg-gray-50"} border-l border-gray-300 first:border-l-0`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Ads view" className="flex overflow-hidden rounded-lg border border-gray-300 bg-white text-sm">
      {link("cards", "Cards")}
      {link("table", "Table")}
    </nav>
  );
}

/** The cards have no column headers, so the ads' sort is a small GET form (the table view uses it too). */
function AdsSortForm({ sort, dir }: { sort: string; dir: "asc" | "desc" }) {
  const { pathname, search } = useLocation();
  return (
    <Form method="get" action={pathname} preventScrollReset aria-label="Sort ads" className="flex flex-wrap items-end gap-2 text-sm">
      {keptParams(search, ["sort", "dir", "page"]).map(([key, value], i) => (
        <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
      ))}
      <label className="flex flex-col text-xs font-medium text-gray-600">
        Sort by
        <select name="sort" defaultValue={sort} className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900">
          {DETAIL_SORT_KEYS.ads.map((key) => (
            <option key={key} value={key}>
              {AD_SORT_LABELS[key] ?? key}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs font-medium text-gray-600">
        Order
        <select name="dir" defaultValue={dir} className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900">
          <option value="desc">Highest first</option>
          <option value="asc">Lowest first</option>
        </select>
      </label>
      <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
        Sort
      </button>
    </Form>
  );
}

function AdStatusButtons({ id, status }: { id: string; status: string }) {
  const postAction = usePostAction();
  if (status === "REMOVED") return null;
  return (
    <Form method="post" action={postAction} preventScrollReset aria-label={`Change ad ${id}`} className="ml-auto flex gap-2">
      <input type="hidden" name="kind" value="ad" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value={status === "PAUSED" ? "enable" : "pause"} className={secondaryButtonClass}>
        {status === "PAUSED" ? "Enable ad" : "Pause ad"}
      </button>
      <button type="submit" name="intent" value="remove" className={secondaryButtonClass}>
        Remove ad
      </button>
    </Form>
  );
}
