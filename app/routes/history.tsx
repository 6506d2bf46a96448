import { Form, Link, useLocation, useNavigation } from "react-router";
import { FilterSelect, FormError, Labeled, dangerButtonClass, inputClass, secondaryButtonClass, usePostAction } from "~/components/change-forms";
import { ChangeStatusBadge, FieldDiffList, SetStatusBadge } from "~/components/change-display";
import { ImpactSummary } from "~/components/impact";
import { Pagination } from "~/components/pagination";
import { EmptyState, PageHeader, Notice } from "~/components/ui";
import { CHANGE_STATUS_LABEL, RESOURCE_KIND_LABEL, diffFields } from "~/lib/change-fields";
import { formatDateTime } from "~/lib/format";
import { hrefWith } from "~/lib/query";
import { csvHref, DownloadCsv } from "~/components/table-tools";
import { userContext } from "~/server/request-context.server";
import { historyAction, historyPage } from "~/server/change-pages.server";
import type { Route } from "./+types/history";
import { useRevalidateWhile } from "~/components/use-revalidate-while";

/** While the import of outside changes runs: says so, and (JavaScript on) looks again until it is in. */
function OutsideChangesLoading({ active }: { active: boolean }) {
  const location = useLocation();
  useRevalidateWhile(active);
  if (!active) return null;
  return (
    <p role="status" className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
      Loading changes made outside Ads AI Manager from Google…{" "}
      <Link to={`${location.pathname}${location.search}`} className="font-medium underline">
        Refresh
      </Link>
    </p>
  );
}

export function meta() {
  return [{ title: "History · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return historyPage(user, url);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return historyAction(user, await request.formData());
}

const UPCOMING = ["Bid adjustments", "Keyword additions and removals", "Ad copy changes", "Budget modifications", "AI optimization actions"];

const SOURCES: Record<string, string> = { user: "You (people)", rule: "Rules", assistant: "Assistant", external: "Outside Ads AI Manager" };
const STATUSES = ["applied", "failed", "applying"] as const;

export default function History({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.connected || (loaderData.total === 0 && !loaderData.filtered && loaderData.open.length === 0)) return <NoHistory />;
  return <HistoryList data={loaderData} error={(actionData as { formError?: string } | undefined)?.formError ?? null} />;
}

/** The seed's empty state, unchanged. */
function NoHistory() {
  return (
    <>
      <PageHeader title="Change History" description="Every change made to your campaigns" />
      <EmptyState title="No History Yet">
        <p>Changes to your campaigns will appear here, including:</p>
        <ul className="mt-3 list-inside list-disc text-left text-sm">
          {UPCOMING.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </EmptyState>
    </>
  );
}

type Connected = Extract<Route.ComponentProps["loaderData"], { connected: true }>;

function HistoryList({ data, error }: { data: Connected; error: string | null }) {
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const postAction = usePostAction();
  const busy = navigation.state === "submitting";
  const { filters, account } = data;
  const tz = account.timeZone;
  // One Revert per change set (it undoes the whole set), on its newest row.
  const revertRow = new Set<string>();
  // A change set's measured effect, once, on its newest row here; an outside change's on its own.
  const impactOf = new Map<string, (typeof data.impact)[string]>();
  const seen = new Set<string>();
  for (const item of data.items) {
    if (item.changeSetId && item.revertable && !seen.has(item.changeSetId)) revertRow.add(item.id);
    const subject = item.origin === "external" ? `ext:${item.id}` : item.changeSetId && !seen.has(item.changeSetId) ? `cs:${item.changeSetId}` : null;
    if (subject && data.impact[subject]) impactOf.set(item.id, data.impact[subject]);
    if (item.changeSetId) seen.add(item.changeSetId);
  }
  return (
    <>
      <PageHeader title="Change History" description={`Every change made to your campaigns · ${account.name}`} />
      <FormError message={error} />
      {data.importProblem ? <Notice>{data.importProblem}</Notice> : null}
      <OutsideChangesLoading active={data.importing} />
      {data.notice ? <Notice>{data.notice}</Notice> : null}
      {data.open.length > 0 ? (
        <section aria-label="Waiting for review" className="mb-4 rounded-xl border border-blue-200 bg-blue-50 p-4 text-sm">
          <h2 className="mb-2 font-semibold text-blue-900">
            Waiting for your review (not sent to Google) ·{" "}
            <Link to="/drafts" className="font-medium text-blue-700 hover:underline">
              All drafts
            </Link>
          </h2>
          <ul className="space-y-1">
            {data.open.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center gap-2">
                <Link to={`/changes/${o.id}`} className="font-medium text-blue-700 hover:underline">
                  {o.title}
                </Link>
                <SetStatusBadge status={o.status} />
                <span className="text-gray-600">{formatDateTime(o.createdAt, tz)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Form
        method="get"
        action={pathname}
        aria-label="Filter history"
        className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-gray-200 bg-white p-3 shadow-sm"
      >
        <FilterSelect label="Resource" name="resourceKind" value={filters.resourceKind} any="All resources" options={Object.entries(RESOURCE_KIND_LABEL)} />
        <FilterSelect label="Status" name="status" value={filters.status} any="Any status" options={STATUSES.map((st) => [st, CHANGE_STATUS_LABEL[st]])} />
        <FilterSelect label="Source" name="source" value={filters.source} any="Any source" options={Object.entries(SOURCES)} />
        <Labeled label="From">{(id) => <input id={id} type="date" name="from" defaultValue={filters.from ?? ""} className={`mt-0.5 ${inputClass}`} />}</Labeled>
        <Labeled label="To">{(id) => <input id={id} type="date" name="to" defaultValue={filters.to ?? ""} className={`mt-0.5 ${inputClass}`} />}</Labeled>
        <Labeled label="Search by name">
          {(id) => (
            <input
              id={id}
              type="search"
              name="q"
              defaultValue={filters.q ?? ""}
              maxLength={200}
              placeholder="Campaign, keyword, person…"
              className={`mt-0.5 w-56 ${inputClass}`}
            />
          )}
        </Labeled>
        <button type="submit" className={secondaryButtonClass}>
          Filter
        </button>
        {data.filtered ? (
          <Link to={pathname} className="py-1.5 text-sm text-blue-700 hover:underline">
            Clear filters
          </Link>
        ) : null}
        <div className="ml-auto">
          <DownloadCsv href={csvHref("/export/history", search)} />
        </div>
      </Form>
      <div className="relative max-w-full overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm" data-testid="table-scroll">
        <table className="min-w-full divide-y divide-gray-200 text-sm">
          <caption className="sr-only">Change history</caption>
          <thead className="bg-gray-50">
            <tr>
              {["When", "Who", "What", "Before → after", "Status", "Measured effect", ""].map((h, i) => (
                <th
                  key={i}
                  scope="col"
                  className={`whitespace-nowrap px-3 py-2 text-left font-semibold text-gray-700 ${i === 0 ? "sticky left-0 z-10 bg-gray-50" : ""}`}
                >
                  {h || <span className="sr-only">Actions</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {data.items.length === 0 ? (
              <tr>
                <td colSpan={7} className="px-3 py-8 text-center text-gray-500">
                  No changes match these filters.
                </td>
              </tr>
            ) : (
              data.items.map((item) => (
                <tr key={item.id} className="align-top">
                  <td className="sticky left-0 z-10 bg-white px-3 py-2 text-gray-700 shadow-[inset_-1px_0_0_#e5e7eb] sm:whitespace-nowrap">
                    {formatDateTime(item.at, tz)}
                  </td>
                  <td className="px-3 py-2 text-gray-700">
                    <div className="font-medium text-gray-900">{item.who}</div>
                    <div className="text-xs text-gray-500">{item.originLabel}</div>
                  </td>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-gray-900">
                    {item.label}
                    <div className="text-xs font-normal text-gray-500">
                      {RESOURCE_KIND_LABEL[item.resourceKind] ?? item.resourceKind}
                      {item.changeSetId ? (
                        <>
                          {" · "}
                          <Link to={`/changes/${item.changeSetId}`} className="text-blue-700 hover:underline">
                            {item.changeSetTitle ?? "Change set"}
                          </Link>
                        </>
                      ) : null}
                    </div>
                  </th>
                  <td className="px-3 py-2">
                    <FieldDiffList fields={diffFields(item.before, item.after, account.currencyCode)} />
                  </td>
                  <td className="px-3 py-2">
                    <ChangeStatusBadge status={item.status} />
                    {item.revertedBy ? (
                      <Link
                        to={`/changes/${item.revertedBy}`}
                        className="ml-1 inline-block rounded-full bg-purple-100 px-2 py-0.5 text-xs font-medium text-purple-800 hover:underline"
                        data-testid="reverted-badge"
                      >
                        Reverted
                      </Link>
                    ) : null}
                    {item.error ? <p className="mt-1 max-w-xs text-xs text-red-800">{item.error}</p> : null}
                  </td>
                  <td className="px-3 py-2">
                    {impactOf.has(item.id) ? (
                      <ImpactSummary record={impactOf.get(item.id)!} href={item.origin === "product" ? `/changes/${item.changeSetId}#impact` : null} />
                    ) : null}
                  </td>
                  <td className="px-3 py-2">
                    {revertRow.has(item.id) && item.changeSetId ? (
                      <Form method="post" action={postAction} preventScrollReset>
                        <input type="hidden" name="intent" value="revert" />
                        <input type="hidden" name="changeSetId" value={item.changeSetId} />
                        <button type="submit" className={dangerButtonClass} disabled={busy} aria-label={`Revert: ${item.changeSetTitle ?? item.label}`}>
                          Revert
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        page={filters.page}
        pageSize={data.pageSize}
        total={data.total}
        href={(page) => hrefWith(pathname, search, { page: page === 1 ? null : page })}
        noun="changes"
      />
    </>
  );
}
