import { Form, Link, useLocation } from "react-router";
import { StatusButtons } from "~/components/campaign-change-forms";
import { BulkBar, SelectAll, SelectBox } from "~/components/change-forms";
import { DataTable, type Column } from "~/components/data-table";
import { DateRangePicker } from "~/components/date-range-picker";
import { metricColumns } from "~/components/metric-columns";
import { Pagination } from "~/components/pagination";
import { StatusBadge } from "~/components/status-badge";
import { SyncProgress, SyncStatus } from "~/components/sync-status";
import { EmptyState, PageHeader, buttonClass, Notice } from "~/components/ui";
import { formatEnum, formatMoney } from "~/lib/format";
import type { Metrics } from "~/lib/metrics";
import { currentPath, hrefWith, keptParams } from "~/lib/query";
import { DEFAULT_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZES, presetLinks, rangeFormHidden, rangeOnly, STATUS_FILTERS, defaultDir } from "~/lib/report-query";
import { requireUser } from "~/server/auth/session.server";
import { proposeAction } from "~/server/change-pages.server";
import { campaignsPage } from "~/server/report-pages.server";
import type { Route } from "./+types/campaigns";

export function meta() {
  return [{ title: "Campaigns · Ads AI Manager" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return campaignsPage(user, new URL(request.url));
}

/** Bulk pause/enable/remove of the ticked campaigns → the review page. */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  return proposeAction(user, await request.formData());
}

export default function Campaigns({ loaderData }: Route.ComponentProps) {
  if (!loaderData.connected) return <UnconnectedCampaigns />;
  return <ConnectedCampaigns data={loaderData} />;
}

type Connected = Extract<Route.ComponentProps["loaderData"], { connected: true }>;

interface CampaignRowView {
  id: string;
  name: string;
  status: string;
  channelType: string;
  biddingStrategyType: string;
  budgetMicros: number | null;
  metrics: Metrics;
}

const STATUS_LABELS: Record<(typeof STATUS_FILTERS)[number], string> = {
  all: "All",
  enabled: "Enabled",
  paused: "Paused",
  removed: "Removed",
};

function ConnectedCampaigns({ data }: { data: Connected }) {
  const location = useLocation();
  const { pathname, search } = location;
  const { account, query, list, sync } = data;
  const currency = account.currencyCode;
  const detailHref = (id: string) => hrefWith(`/campaigns/${id}`, rangeOnly(search), {});

  const columns: Column<CampaignRowView>[] = [
    {
      key: "select",
      label: "Select all campaigns",
      header: <SelectAll form="campaign-bulk" label="Select all campaigns" />,
      cell: (c) => <SelectBox form="campaign-bulk" value={c.id} label={`Select ${c.name}`} />,
    },
    {
      key: "name",
      label: "Campaign",
      sortable: true,
      rowHeader: true,
      cell: (c) => (
        <Link to={detailHref(c.id)} className="text-blue-700 hover:underline">
          {c.name}
        </Link>
      ),
    },
    { key: "status", label: "Status", sortable: true, cell: (c) => <StatusBadge status={c.status} /> },
    { key: "channelType", label: "Type", sortable: true, cell: (c) => formatEnum(c.channelType) },
    { key: "budget", label: "Budget", numeric: true, sortable: true, cell: (c) => (c.budgetMicros === null ? "—" : `${formatMoney(c.budgetMicros, currency)}/day`) },
    { key: "biddingStrategyType", label: "Bidding", sortable: true, cell: (c) => formatEnum(c.biddingStrategyType) },
    ...metricColumns<CampaignRowView>((c) => c.metrics, currency, { totals: list.totals, sortable: true }),
  ];

  const sortHref = (key: string, dir: "asc" | "desc") =>
    // The default direction of a column needs no parameter; any new sort starts on page 1.
    hrefWith(pathname, search, { sort: key === "cost" && dir === "desc" ? null : key, dir: dir === defaultDir(key) ? null : dir, page: null });
  const pageHref = (page: number) => hrefWith(pathname, search, { page: page === 1 ? null : page });

  return (
    <>
      <PageHeader title="Campaigns" description={`Manage your Google Ads campaigns · ${account.name}`} />
      <SyncStatus sync={sync} now={data.now} timeZone={account.timeZone} returnTo={currentPath(pathname, search)} />
      {data.firstSync ? (
        <EmptyState title="Importing your campaigns">
          <p>Your campaigns and 90 days of performance are being copied from Google Ads. The table appears when it is done.</p>
          <SyncProgress sync={sync} />
        </EmptyState>
      ) : (
        <>
          {data.queryNotice ? <Notice>{data.queryNotice}</Notice> : null}
          <div className="mb-4 flex flex-col gap-4">
            <DateRangePicker
              action={pathname}
              range={data.range}
              presets={presetLinks(pathname, search, data.presetId)}
              hidden={rangeFormHidden(search)}
              notice={data.rangeNotice}
              max={data.today}
            />
            <div className="flex flex-wrap items-end justify-between gap-3">
              <nav aria-label="Status filter" className="flex overflow-hidden rounded-lg border border-gray-300 bg-white text-sm">
                {STATUS_FILTERS.map((status) => {
                  const current = query.status === status;
                  return (
                    <Link
                      key={status}
                      to={hrefWith(pathname, search, { status: status === "all" ? null : status, page: null })}
                      aria-current={current ? "true" : undefined}
                      className={`border-l border-gray-300 px-3 py-1.5 font-medium first:border-l-0 ${current ? "bg-blue-600 text-white" : "text-gray-700 hover:bg-gray-50"}`}
                    >
                      {STATUS_LABELS[status]}
                    </Link>
                  );
                })}
              </nav>
              <Form method="get" action={pathname} role="search" aria-label="Search campaigns" className="flex items-end gap-2">
                {keptParams(search, ["q", "page"]).map(([name, value], i) => (
                  <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
                ))}
                <label className="flex flex-col text-xs font-medium text-gray-600">
                  Search by name
                  <input
                    type="search"
                    name="q"
                    defaultValue={query.q}
                    maxLength={MAX_SEARCH_LENGTH}
                    placeholder="Campaign name"
                    className="mt-0.5 w-56 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
                  />
                </label>
                <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
                  Search
                </button>
                {query.q ? (
                  <Link to={hrefWith(pathname, search, { q: null, page: null })} className="px-1 py-1 text-sm text-blue-700 hover:underline">
                    Clear
                  </Link>
                ) : null}
              </Form>
            </div>
          </div>
          <BulkBar id="campaign-bulk" label="Change selected campaigns" hidden={{ kind: "campaign" }} intents={["pause", "enable", "remove"]}>
            <StatusButtons />
          </BulkBar>
          <DataTable
            caption={`Campaigns of ${account.name}`}
            columns={columns}
            rows={list.rows}
            rowKey={(c) => c.id}
            sort={{ key: query.sort, dir: query.dir, href: sortHref }}
            showTotals
            totalsLabel={`Total (${list.total} campaigns)`}
            empty={query.q || query.status !== "all" ? "No campaigns match these filters." : "This account has no campaigns."}
          />
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} href={pageHref} noun="campaigns" />
          <nav aria-label="Rows per page" className="mt-2 flex items-center gap-2 text-sm text-gray-600">
            <span>Rows per page:</span>
            {PAGE_SIZES.map((size) => (
              <Link
                key={size}
                to={hrefWith(pathname, search, { pageSize: size === DEFAULT_PAGE_SIZE ? null : size, page: null })}
                aria-current={size === list.pageSize ? "true" : undefined}
                className={size === list.pageSize ? "font-semibold text-gray-900" : "text-blue-700 hover:underline"}
              >
                {size}
              </Link>
            ))}
          </nav>
        </>
      )}
    </>
  );
}

/** The seed's empty state, unchanged: what a user without a Google Ads account sees. */
function UnconnectedCampaigns() {
  return (
    <>
      <PageHeader title="Campaigns" description="Manage your Google Ads campaigns" />
      <EmptyState title="No Campaigns Yet">
        <p>Connect your Google Ads account to view and manage campaigns</p>
        {/* A plain link: the route redirects to Google, off-site. */}
        <a href="/api/v1/auth/google?returnTo=/campaigns" className={`${buttonClass} mt-6`}>
          Connect Google Ads
        </a>
      </EmptyState>
    </>
  );
}
