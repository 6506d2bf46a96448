import { Form, Link, useLocation } from "react-router";
import { csvHref, DownloadCsv, PageSizeLinks, SearchBox, StatusFilter } from "~/components/table-tools";
import { OPTIONAL_CAMPAIGN_COLUMNS } from "~/lib/campaign-columns";
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
import { currentPath, hrefWith } from "~/lib/query";
import { presetLinks, rangeFormHidden, rangeOnly, STATUS_FILTERS, defaultDir } from "~/lib/report-query";
import { userContext } from "~/server/request-context.server";
import { proposeAction } from "~/server/change-pages.server";
import { saveCampaignColumns } from "~/server/campaign-columns.server";
import { campaignsPage } from "~/server/report-pages.server";
import { PacingBadge } from "~/components/budget-pacing";
import { pacingSection } from "~/server/agency/pacing-pages.server";
import type { Route } from "./+types/campaigns";

export function meta() {
  return [{ title: "Campaigns · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  const page = await campaignsPage(user, url);
  if (!page.connected) return page;
  return { ...page, plan: await pacingSection(user) };
}

/** The column chooser, or bulk pause/enable/remove of the ticked campaigns → the review page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  const form = await request.formData();
  if (form.get("intent") === "columns") return saveCampaignColumns(user, form);
  return proposeAction(user, form);
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
  const hidden = data.hiddenColumns;
  const currency = account.currencyCode;
  const detailHref = (id: string) => hrefWith(`/campaigns/${id}`, rangeOnly(search), {});

  const allColumns: Column<CampaignRowView>[] = [
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
    { key: "channelType", label: "Type", sortable: true, narrow: true, cell: (c) => formatEnum(c.channelType) },
    // "/day" is in the header, not in every cell: the money columns need the room.
    { key: "budget", label: "Budget/day", numeric: true, sortable: true, cell: (c) => (c.budgetMicros === null ? "—" : formatMoney(c.budgetMicros, currency)) },
    { key: "biddingStrategyType", label: "Bidding", sortable: true, narrow: true, cell: (c) => formatEnum(c.biddingStrategyType) },
    ...metricColumns<CampaignRowView>((c) => c.metrics, currency, { totals: list.totals, sortable: true }),
  ];
  const columns = allColumns.filter((col) => !(hidden as readonly string[]).includes(col.key));

  const sortHref = (key: string, dir: "asc" | "desc") =>
    // The default direction of a column needs no parameter; any new sort starts on page 1.
    hrefWith(pathname, search, { sort: key === "cost" && dir === "desc" ? null : key, dir: dir === defaultDir(key) ? null : dir, page: null });
  const pageHref = (page: number) => hrefWith(pathname, search, { page: page === 1 ? null : page });

  return (
    <>
      <PageHeader title="Campaigns" description={`Manage your Google Ads campaigns · ${account.name}`} />
      <SyncStatus sync={sync} now={data.now} timeZone={account.timeZone} returnTo={currentPath(pathname, search)} />
      {data.plan && (data.plan.account || data.plan.campaigns.length) ? (
        <p className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-gray-700" data-testid="campaign-pacing">
          <span className="font-medium">Budget pacing this month:</span>
          {data.plan.account ? (
            <span>
              Account <PacingBadge pacing={data.plan.account} />
            </span>
          ) : null}
          {data.plan.campaigns.map((c) => (
            <span key={c.campaignId}>
              {c.name} <PacingBadge pacing={c.pacing} />
            </span>
          ))}
        </p>
      ) : null}
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
              <StatusFilter filters={STATUS_FILTERS} labels={STATUS_LABELS} current={query.status} pathname={pathname} search={search} />
              <div className="flex flex-wrap items-end gap-3">
                <SearchBox pathname={pathname} search={search} q={query.q} name="Search campaigns" label="Search by name" placeholder="Campaign name" />
                <ColumnChooser hidden={hidden} returnTo={currentPath(pathname, search)} />
                <DownloadCsv href={csvHref("/export/campaigns", search)} />
              </div>
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
          <PageSizeLinks pathname={pathname} search={search} pageSize={list.pageSize} />
        </>
      )}
    </>
  );
}

/**
 * Which columns the table shows, kept per user on the server: a POST form
 * inside a <details>, so it opens and saves without JavaScript too.
 */
function ColumnChooser({ hidden, returnTo }: { hidden: readonly string[]; returnTo: string }) {
  return (
    <details className="relative">
      <summary className="cursor-pointer list-none rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50 [&::-webkit-details-marker]:hidden">
        Columns{hidden.length ? ` (${OPTIONAL_CAMPAIGN_COLUMNS.length - hidden.length} of ${OPTIONAL_CAMPAIGN_COLUMNS.length})` : ""}
      </summary>
      <Form
        method="post"
        action="/campaigns"
        aria-label="Choose columns"
        className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-gray-200 bg-white p-3 shadow-lg"
      >
        <input type="hidden" name="intent" value="columns" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <fieldset>
          <legend className="mb-2 text-xs font-semibold text-gray-600">Show these columns</legend>
          <div className="flex flex-col gap-1 text-sm text-gray-800">
            {OPTIONAL_CAMPAIGN_COLUMNS.map((col) => (
              <label key={col.key} className="flex items-center gap-2">
                <input type="checkbox" name="column" value={col.key} defaultChecked={!hidden.includes(col.key)} className="h-4 w-4 rounded border-gray-300" />
                {col.label}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="mt-3 w-full rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-700">
          Save columns
        </button>
      </Form>
    </details>
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
