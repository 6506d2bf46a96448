import { useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { FilterSelect, FormError, Labeled, inputClass, secondaryButtonClass, usePostAction } from "~/components/change-forms";
import { SetStatusBadge } from "~/components/change-display";
import { Pagination } from "~/components/pagination";
import { EmptyState, Notice, PageHeader } from "~/components/ui";
import { CHANGE_SET_ORIGINS, ORIGIN_LABEL } from "~/lib/change-origins";
import { formatDateTime } from "~/lib/format";
import { optimizerHref } from "~/lib/optimizer-url";
import { hrefWith } from "~/lib/query";
import { useHydrated } from "~/lib/use-hydrated";
import { userContext } from "~/server/request-context.server";
import { draftsAction, draftsPage } from "~/server/drafts-pages.server";
import type { Route } from "./+types/drafts";

// /drafts — change sets proposed but not applied (issue 29 point 4). Query parameters, all
// optional: origin (chat | ad_generator | recommendation | campaign | api | revert), status
// (validated | invalid | proposed: Google's verdict), q (words in the title), page.

export function meta() {
  return [{ title: "Drafts · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return draftsPage(user, url);
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return draftsAction(user, await request.formData(), url);
}

const VERDICT_LABEL: Record<string, string> = { validated: "Accepted in a dry run", invalid: "Refused by Google", proposed: "Not checked yet" };

export default function Drafts({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.connected) {
    return (
      <>
        <PageHeader title="Drafts" description="Changes proposed but not applied" />
        <EmptyState title="No account connected">
          <p>Connect your Google Ads account; changes proposed for it wait here until you apply or discard them.</p>
        </EmptyState>
      </>
    );
  }
  return <DraftList data={loaderData} error={(actionData as { formError?: string } | undefined)?.formError ?? null} />;
}

type Connected = Extract<Route.ComponentProps["loaderData"], { connected: true }>;

function DraftList({ data, error }: { data: Connected; error: string | null }) {
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const postAction = usePostAction();
  const busy = navigation.state === "submitting";
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const { filters, account, drafts } = data;
  const tz = account.timeZone;
  const allTicked = drafts.length > 0 && drafts.every((d) => ticked.has(d.id));
  const toggle = (id: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <>
      <PageHeader title="Drafts" description={`Changes proposed but not applied · ${account.name}`} />
      <FormError message={error} />
      {data.notice ? <Notice>{data.notice}</Notice> : null}
      <Form
        method="get"
        action={pathname}
        aria-label="Filter drafts"
        className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-gray-200 bg-white p-3 shadow-sm"
      >
        <FilterSelect label="Proposed" name="origin" value={filters.origin} any="Anywhere" options={CHANGE_SET_ORIGINS.map((o) => [o, ORIGIN_LABEL[o]])} />
        <FilterSelect label="Google's verdict" name="status" value={filters.status} any="Any verdict" options={Object.entries(VERDICT_LABEL)} />
        <Labeled label="Search titles">
          {(id) => <input id={id} type="search" name="q" defaultValue={filters.q ?? ""} maxLength={200} className={`mt-0.5 w-56 ${inputClass}`} />}
        </Labeled>
        <button type="submit" className={secondaryButtonClass}>
          Filter
        </button>
        {data.filtered ? (
          <Link to={pathname} className="py-1.5 text-sm text-blue-700 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </Form>

      {drafts.length === 0 ? (
        <EmptyState title={data.filtered ? "No drafts match these filters" : "No drafts"}>
          <p>
            Changes proposed in the chat, on the ad generator, from a recommendation or on the campaign screens wait here, checked by Google, until you apply or
            discard them.
          </p>
        </EmptyState>
      ) : (
        <Form method="post" action={postAction} aria-label="Drafts" preventScrollReset>
          <input type="hidden" name="intent" value="discard" />
          <div className="mb-2 flex flex-wrap items-center gap-3">
            <button type="submit" className={secondaryButtonClass} disabled={busy || (hydrated && ticked.size === 0)}>
              Discard selected{hydrated && ticked.size > 0 ? ` (${ticked.size})` : ""}
            </button>
            <span className="text-xs text-gray-600">Discarded drafts are kept for the record and never sent to Google.</span>
          </div>
          <div className="relative max-w-full overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm" data-testid="table-scroll">
            <table className="min-w-full divide-y divide-gray-200 text-sm">
              <caption className="sr-only">Drafts, newest first</caption>
              <thead className="bg-gray-50">
                <tr>
                  <th scope="col" className="w-10 px-3 py-2 text-left">
                    {/* Selecting every row needs JavaScript; without it each row's box is ticked on its own. */}
                    {hydrated ? (
                      <input
                        type="checkbox"
                        aria-label="Select all drafts on this page"
                        checked={allTicked}
                        onChange={(e) => setTicked(e.target.checked ? new Set(drafts.map((d) => d.id)) : new Set())}
                        className="h-4 w-4"
                      />
                    ) : (
                      <span className="sr-only">Select</span>
                    )}
                  </th>
                  {["Draft", "Proposed by", "When", "Google's verdict"].map((h) => (
                    <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 text-left font-semibold text-gray-700">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {drafts.map((d) => (
                  <tr key={d.id} className="align-top">
                    <td className="px-3 py-2">
                      <input
                        type="checkbox"
                        name="id"
                        value={d.id}
                        aria-label={`Select “${d.title}”`}
                        checked={hydrated ? ticked.has(d.id) : undefined}
                        onChange={(e) => toggle(d.id, e.target.checked)}
                        className="h-4 w-4"
                      />
                    </td>
                    <th scope="row" className="min-w-48 px-3 py-2 text-left font-medium text-gray-900">
                      <Link to={`/changes/${d.id}`} className="text-blue-700 hover:underline">
                        {d.title}
                      </Link>
                      <div className="text-xs font-normal text-gray-500">{d.changeCount === 1 ? "1 change" : `${d.changeCount} changes`}</div>
                    </th>
                    <td className="min-w-44 px-3 py-2 text-gray-700">
                      <div className="font-medium text-gray-900">{d.proposedBy}</div>
                      <div className="text-xs text-gray-500">
                        <OriginLine draft={d} />
                      </div>
                    </td>
                    <td className="px-3 py-2 text-gray-700 sm:whitespace-nowrap">{formatDateTime(d.createdAt, tz)}</td>
                    <td className="min-w-48 px-3 py-2">
                      <SetStatusBadge status={d.status} />
                      <p className={`mt-1 text-xs ${d.status === "invalid" ? "text-red-800" : "text-gray-600"}`}>{d.verdict}</p>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Form>
      )}
      <Pagination
        page={filters.page}
        pageSize={data.pageSize}
        total={data.total}
        href={(page) => hrefWith(pathname, search, { page: page === 1 ? null : page })}
        noun="drafts"
      />
    </>
  );
}

/** Where it was proposed; the chat and the reverted set are links. */
function OriginLine({ draft }: { draft: Connected["drafts"][number] }) {
  if (draft.chat) {
    return (
      <>
        In the chat{" "}
        <Link to={optimizerHref("", { chat: draft.chat.id })} className="text-blue-700 hover:underline">
          “{draft.chat.title}”
        </Link>
      </>
    );
  }
  if (draft.revertOf) {
    return (
      <>
        Undoing{" "}
        <Link to={`/changes/${draft.revertOf}`} className="text-blue-700 hover:underline">
          an earlier change set
        </Link>
      </>
    );
  }
  return <>{ORIGIN_LABEL[draft.origin]}</>;
}
