import { Form, Link, useLocation } from "react-router";
import { AddKeywordsForm, AddNegativesForm, BidField, BudgetForm, CampaignStatusButtons, SearchTermActions, StatusButtons } from "~/components/campaign-change-forms";
import { BulkBar, SelectAll, SelectBox, secondaryButtonClass, usePostAction } from "~/components/change-forms";
import { DataTable, type Column } from "~/components/data-table";
import { DateRangePicker } from "~/components/date-range-picker";
import { metricColumns } from "~/components/metric-columns";
import { AdStrengthBadge, RsaAssetList, RsaPreview } from "~/components/rsa-preview";
import { StatusBadge } from "~/components/status-badge";
import { SyncStatus } from "~/components/sync-status";
import { PageHeader, Notice } from "~/components/ui";
import { formatDecimal, formatEnum, formatInteger, formatMoney, formatPercent } from "~/lib/format";
import { averageCpc, conversionValuePerCost, costPerConversion, ctr, type Metrics } from "~/lib/metrics";
import { currentPath, hrefWith } from "~/lib/query";
import { DETAIL_TABS, presetLinks, rangeFormHidden, rangeOnly, type DetailTab } from "~/lib/report-query";
import { requireUser } from "~/server/auth/session.server";
import { proposeAction } from "~/server/change-pages.server";
import { campaignDetailPage } from "~/server/report-pages.server";
import type { Route } from "./+types/campaign-detail";

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.detail.campaign.name;
  return [{ title: name ? `${name} · Campaigns · Ads AI Manager` : "Campaign · Ads AI Manager" }];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return campaignDetailPage(user, new URL(request.url), params.campaignId);
}

/** Every change form on this page: propose, then the review page. */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  return proposeAction(user, await request.formData());
}

type Data = Route.ComponentProps["loaderData"];
type Detail = Data["detail"];

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
  const syncBar = <SyncStatus sync={data.sync} now={data.now} timeZone={data.account.timeZone} returnTo={currentPath(pathname, search)} />;

  const { campaign } = data.detail;
  const currency = data.account.currencyCode;
  return (
    <>
      <BackLink href={backHref} />
      <PageHeader title={campaign.name} description={`Campaign in ${data.account.name}`} />
      {syncBar}
      <section aria-label="Campaign settings" className="mb-6 rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
        <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Setting label="Status" value={<StatusBadge status={campaign.status} />} />
          <Setting label="Type" value={formatEnum(campaign.channelType)} />
          <Setting label="Bidding" value={formatEnum(campaign.biddingStrategyType)} />
          <Setting label="Budget" value={campaign.budgetMicros === null ? "—" : `${formatMoney(campaign.budgetMicros, currency)}/day`} />
        </dl>
        <div className="mt-4 flex flex-wrap items-start justify-between gap-4 border-t border-gray-100 pt-4">
          <BudgetForm campaignId={campaign.id} budgetMicros={campaign.budgetMicros} currency={currency} />
          <CampaignStatusButtons campaignId={campaign.id} status={campaign.status} />
        </div>
      </section>
      <div className="mb-4">
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
      <nav aria-label="Campaign sections" className="mb-4 flex gap-1 border-b border-gray-200">
        {DETAIL_TABS.map((tab) => {
          const current = data.tab === tab;
          return (
            <Link
              key={tab}
              to={hrefWith(pathname, search, { tab: tab === "adgroups" ? null : tab })}
              aria-current={current ? "page" : undefined}
              preventScrollReset
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${current ? "border-blue-600 text-blue-700" : "border-transparent text-gray-600 hover:text-gray-900"}`}
            >
              {TAB_LABELS[tab]} <span className="text-xs text-gray-400">{data.detail.counts[tab]}</span>
            </Link>
          );
        })}
      </nav>
      <section aria-label={TAB_LABELS[data.tab]}>
        <TabPanel detail={data.detail} tab={data.tab} currency={currency} newAdHref={hrefWith(`${pathname}/ads/new`, rangeOnly(search), {})} />
      </section>
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
      <dt className="text-gray-500">{label}</dt>
      <dd className="mt-1 font-medium text-gray-900">{value}</dd>
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
    <section aria-label="Campaign metrics" className="mb-6 rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4 xl:grid-cols-8">
        {items.map(([label, value]) => (
          <div key={label}>
            <dt className="text-gray-500">{label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Truncated({ shown, limit }: { shown: boolean; limit: number }) {
  return shown ? (
    <p className="mb-2 text-sm text-gray-600" role="note">
      Showing the {formatInteger(limit)} with the highest cost.
    </p>
  ) : null;
}

function TabPanel({ detail, tab, currency, newAdHref }: { detail: Detail; tab: DetailTab; currency: string; newAdHref: string }) {
  const money = (micros: number | null) => (micros === null ? "—" : formatMoney(micros, currency));
  const select = <Row,>(form: string, noun: string, value: (r: Row) => string, name: (r: Row) => string, field = "id"): Column<Row> => ({
    key: "select",
    label: `Select all ${noun}`,
    header: <SelectAll form={form} label={`Select all ${noun}`} />,
    cell: (r) => <SelectBox form={form} name={field} value={value(r)} label={`Select ${name(r)}`} />,
  });
  switch (tab) {
    case "adgroups": {
      type Row = Detail["adGroups"][number];
      const columns: Column<Row>[] = [
        select<Row>("adgroup-bulk", "ad groups", (g) => g.id, (g) => g.name),
        { key: "name", label: "Ad group", rowHeader: true, cell: (g) => g.name },
        { key: "status", label: "Status", cell: (g) => <StatusBadge status={g.status} /> },
        { key: "bid", label: "Default max. CPC", numeric: true, cell: (g) => money(g.cpcBidMicros) },
        ...metricColumns<Row>((g) => g.metrics, currency),
      ];
      return (
        <>
          <Truncated shown={detail.truncated.adGroups} limit={detail.limit} />
          <BulkBar id="adgroup-bulk" label="Change selected ad groups" hidden={{ kind: "ad_group" }} intents={["pause", "enable", "remove", "bid"]}>
            <StatusButtons />
            <BidField currency={currency} />
          </BulkBar>
          <DataTable caption="Ad groups" columns={columns} rows={detail.adGroups} rowKey={(g) => g.id} empty="This campaign has no ad groups." />
        </>
      );
    }
    case "keywords": {
      type Row = Detail["keywords"][number];
      const columns: Column<Row>[] = [
        select<Row>("keyword-bulk", "keywords", (k) => `${k.adGroupId}~${k.criterionId}`, (k) => `${k.text} (${formatEnum(k.matchType)}) in ${k.adGroupName}`),
        {
          key: "text",
          label: "Keyword",
          rowHeader: true,
          cell: (k) => (
            <>
              {k.text}
              {k.negative ? <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-700">Negative</span> : null}
            </>
          ),
        },
        { key: "matchType", label: "Match type", cell: (k) => formatEnum(k.matchType) },
        { key: "adGroup", label: "Ad group", cell: (k) => k.adGroupName },
        { key: "status", label: "Status", cell: (k) => <StatusBadge status={k.status} /> },
        { key: "bid", label: "Max. CPC", numeric: true, cell: (k) => money(k.cpcBidMicros) },
        { key: "qualityScore", label: "Quality score", numeric: true, cell: (k) => (k.qualityScore === null ? "—" : `${k.qualityScore}/10`) },
        ...metricColumns<Row>((k) => k.metrics, currency),
      ];
      return (
        <>
          <Truncated shown={detail.truncated.keywords} limit={detail.limit} />
          <BulkBar id="keyword-bulk" label="Change selected keywords" hidden={{ kind: "keyword" }} intents={["pause", "enable", "remove", "bid"]}>
            <StatusButtons />
            <BidField currency={currency} />
          </BulkBar>
          <DataTable
            caption="Keywords"
            columns={columns}
            rows={detail.keywords}
            rowKey={(k) => `${k.adGroupId}~${k.criterionId}`}
            empty="This campaign has no keywords."
          />
          <div className="mt-6 grid gap-4 lg:grid-cols-2">
            <AddKeywordsForm adGroups={detail.adGroupOptions} currency={currency} />
            <AddNegativesForm campaignId={detail.campaign.id} adGroups={detail.adGroupOptions} />
          </div>
        </>
      );
    }
    case "ads":
      return (
        <>
          <Truncated shown={detail.truncated.ads} limit={detail.limit} />
          {detail.adGroupOptions.length > 0 ? (
            <p className="mb-4">
              <Link to={newAdHref} className={secondaryButtonClass}>
                New responsive search ad
              </Link>
            </p>
          ) : null}
          {detail.ads.length === 0 ? <p className="text-gray-600">This campaign has no ads.</p> : null}
          <ul className="space-y-6">
            {detail.ads.map((ad) => (
              <li key={`${ad.adGroupId}~${ad.adId}`}>
                <article className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm" aria-label={`Ad ${ad.adId} in ${ad.adGroupName}`}>
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
                      descriptions: ad.descriptions.map((d) => ({ text: d.text, pinnedField: d.pinnedField ?? null, performanceLabel: d.performanceLabel ?? null })),
                      finalUrl: ad.finalUrls[0] ?? null,
                      path1: ad.path1 ?? null,
                      path2: ad.path2 ?? null,
                    }}
                  />
                  <p className="mt-3 text-sm text-gray-600">
                    {formatInteger(ad.metrics.impressions)} impressions · {formatInteger(ad.metrics.clicks)} clicks · CTR {formatPercent(ctr(ad.metrics))} ·{" "}
                    {formatMoney(ad.metrics.costMicros, currency)} cost · {formatDecimal(ad.metrics.conversions)} conversions
                  </p>
                  {ad.finalUrls[0] ? (
                    <p className="mt-1 break-all text-xs text-gray-500">Final URL: {ad.finalUrls[0]}</p>
                  ) : null}
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
    case "searchterms": {
      type Row = Detail["searchTerms"][number];
      const columns: Column<Row>[] = [
        select<Row>("term-bulk", "search terms", (t) => `${t.adGroupId}~${t.searchTerm}`, (t) => `${t.searchTerm} in ${t.adGroupName}`, "term"),
        { key: "term", label: "Search term", rowHeader: true, cell: (t) => t.searchTerm },
        { key: "status", label: "Added/Excluded", cell: (t) => (t.status === "NONE" ? "None" : formatEnum(t.status)) },
        { key: "adGroup", label: "Ad group", cell: (t) => t.adGroupName },
        { key: "keyword", label: "Keyword", cell: (t) => t.keywordText ?? "—" },
        ...metricColumns<Row>((t) => t.metrics, currency),
      ];
      return (
        <>
          <Truncated shown={detail.truncated.searchTerms} limit={detail.limit} />
          <BulkBar id="term-bulk" label="Act on selected search terms" hidden={{ campaignId: detail.campaign.id }} intents={["term_keywords", "term_negatives"]}>
            <SearchTermActions currency={currency} />
          </BulkBar>
          <DataTable
            caption="Search terms"
            columns={columns}
            rows={detail.searchTerms}
            rowKey={(t) => `${t.adGroupId}~${t.searchTerm}`}
            empty="No search terms in this range."
          />
        </>
      );
    }
  }
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
