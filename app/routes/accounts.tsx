import { Form, Link, useLocation } from "react-router";
import { PacingBadge } from "~/components/budget-pacing";
import { DataTable, type Column } from "~/components/data-table";
import { FormError } from "~/components/change-forms";
import { Pagination } from "~/components/pagination";
import { csvHref, DownloadCsv, PageSizeLinks, SearchBox, StatusFilter } from "~/components/table-tools";
import { EmptyState, Notice, PageHeader } from "~/components/ui";
import { formatAge, formatCustomerId, formatDecimal, formatMoney, EMPTY_VALUE } from "~/lib/format";
import { hrefWith, keptParams } from "~/lib/query";
import { accountsAction, accountsPage } from "~/server/agency/pages.server";
import { userContext } from "~/server/request-context.server";
import type { Route } from "./+types/accounts";

export function meta() {
  return [{ title: "Accounts · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return accountsPage(user, url);
}

/** "Open" on a row (and the header's account switcher): that account becomes the active one. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return accountsAction(user, await request.formData());
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["accounts"][number];

const FILTER_LABELS = { all: "All accounts", attention: "Needs attention" } as const;
const TEXT_SORTS = new Set(["name", "manager"]);

export default function Accounts({ loaderData, actionData }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const data = loaderData;
  const filtered = data.query.status !== "all" || data.query.q !== "" || data.query.manager !== null;
  if (data.total === 0 && !filtered) {
    return (
      <>
        <PageHeader title="Accounts" description="Every client account of your connected managers" />
        <EmptyState title="No client accounts">
          <p>
            Connect Google Ads in <Link to="/settings">Settings</Link> to see your accounts here.
          </p>
        </EmptyState>
      </>
    );
  }
  const columns: Column<Row>[] = [
    {
      key: "name",
      label: "Account",
      sortable: true,
      rowHeader: true,
      cell: (r) => (
        <span className="flex flex-col">
          <span className="font-medium text-gray-900">{r.name}</span>
          <span className="text-xs text-gray-500">{formatCustomerId(r.customerId)}</span>
        </span>
      ),
    },
    { key: "manager", label: "Manager", sortable: true, narrow: true, cell: (r) => r.manager?.name ?? "Direct access" },
    { key: "spend", label: "Cost", numeric: true, sortable: true, cell: (r) => formatMoney(r.costMicros, r.currencyCode) },
    { key: "conversions", label: "Conv.", numeric: true, sortable: true, cell: (r) => formatDecimal(r.conversions) },
    {
      key: "cpa",
      label: "Cost / conv.",
      numeric: true,
      sortable: true,
      cell: (r) => (
        <VsTarget
          value={r.cpaMicros === null ? EMPTY_VALUE : formatMoney(r.cpaMicros, r.currencyCode)}
          target={r.target.cpaMicros === null ? null : formatMoney(r.target.cpaMicros, r.currencyCode)}
        />
      ),
    },
    {
      key: "roas",
      label: "ROAS",
      numeric: true,
      sortable: true,
      cell: (r) => (
        <VsTarget
          value={r.roas === null ? EMPTY_VALUE : `${formatDecimal(r.roas)}×`}
          target={r.target.roas === null ? null : `${formatDecimal(r.target.roas)}×`}
        />
      ),
    },
    {
      key: "pacing",
      label: "Pacing",
      sortable: true,
      narrow: true,
      cell: (r) =>
        r.pacing ? (
          <span className="flex flex-col">
            <PacingBadge pacing={r.pacing} />
            <span className="text-xs text-gray-500">
              {formatMoney(r.pacing.projectedMicros, r.currencyCode, { wholeUnits: true })} of{" "}
              {formatMoney(r.pacing.budgetMicros, r.currencyCode, { wholeUnits: true })}
            </span>
          </span>
        ) : (
          <span className="text-gray-400">No plan</span>
        ),
    },
    { key: "score", label: "Score", numeric: true, sortable: true, cell: (r) => (r.score === null ? EMPTY_VALUE : String(r.score)) },
    {
      key: "recommendations",
      label: "Open recs",
      numeric: true,
      sortable: true,
      cell: (r) =>
        r.openRecommendations === 0 ? (
          "0"
        ) : (
          <span className="flex flex-col items-end">
            <span>{r.openRecommendations}</span>
            {r.recommendationsImpact > 0 ? (
              <span className="text-xs text-gray-500">{formatMoney(r.recommendationsImpact * 1_000_000, r.currencyCode, { wholeUnits: true })}/mo</span>
            ) : null}
          </span>
        ),
    },
    {
      key: "alerts",
      label: "Alerts",
      numeric: true,
      sortable: true,
      cell: (r) => (r.activeAlerts ? <span className="font-semibold text-red-700">{r.activeAlerts}</span> : "0"),
    },
    {
      key: "dataAge",
      label: "Data",
      sortable: true,
      narrow: true,
      cell: (r) => (r.dataAsOf ? formatAge(r.dataAsOf, data.now) : r.syncStatus === "running" ? "Importing…" : "Never"),
    },
    {
      key: "attention",
      label: "Attention",
      narrow: true,
      cell: (r) =>
        r.attention.length ? (
          <ul className="text-amber-800" data-testid="attention">
            {r.attention.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        ) : (
          <span className="text-gray-400">—</span>
        ),
    },
    {
      key: "open",
      label: "Open",
      cell: (r) =>
        r.customerId === data.activeCustomerId ? (
          <Link to="/dashboard" className="text-sm font-semibold text-blue-700 hover:underline" aria-label={`Dashboard of ${r.name} (active)`}>
            Active
          </Link>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="select-account" />
            <input type="hidden" name="customerId" value={r.customerId} />
            <button type="submit" className="text-sm font-semibold text-blue-700 hover:underline" aria-label={`Open ${r.name}`}>
              Open
            </button>
          </Form>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Accounts"
        description="Every client account of your connected managers · figures of the last 30 complete days"
        actions={<DownloadCsv href={csvHref("/export/accounts", search)} />}
      />
      <FormError message={(actionData as { error?: string } | undefined)?.error ?? null} />
      {data.ignored.length ? <Notice>Ignored in the address: {data.ignored.join(", ")}.</Notice> : null}
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <StatusFilter filters={["all", "attention"] as const} labels={FILTER_LABELS} current={data.query.status} pathname={pathname} search={search} />
        {data.managers.length > 0 ? (
          <Form method="get" action={pathname} className="flex items-end gap-2" aria-label="Filter by manager">
            {keptParams(search, ["manager", "page"]).map(([key, value], i) => (
              <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
            ))}
            <label className="flex flex-col text-xs font-medium text-gray-600">
              Manager
              <select
                name="manager"
                defaultValue={data.query.manager ?? ""}
                className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
              >
                <option value="">All managers</option>
                {data.managers.map((m) => (
                  <option key={m.customerId} value={m.customerId}>
                    {m.name} ({m.clients})
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
              Filter
            </button>
          </Form>
        ) : null}
        <SearchBox pathname={pathname} search={search} q={data.query.q} name="Search accounts" label="Search" placeholder="Name or customer ID" />
      </div>
      <DataTable
        caption="Client accounts"
        columns={columns}
        rows={data.accounts}
        rowKey={(r) => r.customerId}
        sort={{
          key: data.query.sort,
          dir: data.query.dir,
          href: (key, dir) => hrefWith(pathname, search, { sort: key, dir: dir === (TEXT_SORTS.has(key) ? "asc" : "desc") ? null : dir, page: null }),
        }}
        empty="No account matches these filters."
      />
      <Pagination
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        noun="accounts"
        href={(page) => hrefWith(pathname, search, { page: page === 1 ? null : page })}
      />
      <PageSizeLinks pathname={pathname} search={search} pageSize={data.pageSize} />
    </>
  );
}

/** A figure with its target underneath, when one is set. */
function VsTarget({ value, target }: { value: string; target: string | null }) {
  return (
    <span className="flex flex-col items-end">
      <span>{value}</span>
      {target ? <span className="text-xs text-gray-500">target {target}</span> : null}
    </span>
  );
}
