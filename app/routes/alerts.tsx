import { Form, Link, useLocation } from "react-router";
import { FormError } from "~/components/change-forms";
import { Pagination } from "~/components/pagination";
import { EmptyState, PageHeader } from "~/components/ui";
import { formatCustomerId, formatDate } from "~/lib/format";
import { hrefWith } from "~/lib/query";
import { RULE_LABEL } from "~/lib/alert-rules";
import { alertsAction, alertsPage } from "~/server/agency/alert-pages.server";
import { safeReturnPath } from "~/server/http/return-path.server";
import { userContext } from "~/server/request-context.server";
import type { Route } from "./+types/alerts";

export function meta() {
  return [{ title: "Alerts · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return alertsPage(user, url);
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return alertsAction(user, await request.formData(), safeReturnPath(`${url.pathname}${url.search}`, "/alerts"));
}

const STATUS_LABEL = { open: "Open", resolved: "Resolved", all: "All" } as const;

export default function Alerts({ loaderData, actionData }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const data = loaderData;
  const unread = data.alerts.filter((a) => !a.read && a.status === "open").length;
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What the checks after each refresh found in your accounts"
        actions={
          unread ? (
            <Form method="post">
              <input type="hidden" name="intent" value="read-all" />
              <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-700 hover:bg-gray-50">
                Mark all read
              </button>
            </Form>
          ) : null
        }
      />
      <FormError message={(actionData as { error?: string } | undefined)?.error ?? null} />
      <Form method="post" className="mb-4 flex flex-wrap items-end gap-2 text-sm">
        <input type="hidden" name="intent" value="email" />
        <label className="flex flex-col text-xs font-medium text-gray-600">
          Email me about new alerts
          <select name="mode" defaultValue={data.emailMode} className="mt-0.5 rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900">
            <option value="off">Off</option>
            <option value="immediate">At once</option>
            <option value="digest">Daily digest</option>
          </select>
        </label>
        <button type="submit" className="rounded-md border border-gray-300 bg-white px-3 py-1 font-semibold text-gray-700 hover:bg-gray-50">
          Save
        </button>
        <span className="text-xs text-gray-500">Muted rules and accounts are not mailed.</span>
      </Form>
      <nav aria-label="Alert status" className="mb-4 flex gap-2 text-sm">
        {(["open", "resolved", "all"] as const).map((s) => (
          <Link
            key={s}
            to={hrefWith(pathname, search, { status: s === "open" ? null : s, page: null })}
            aria-current={data.query.status === s ? "true" : undefined}
            className={`rounded-md px-3 py-1 font-medium ${data.query.status === s ? "bg-blue-600 text-white" : "border border-gray-300 text-gray-700 hover:bg-gray-50"}`}
          >
            {STATUS_LABEL[s]}
          </Link>
        ))}
        <Link
          to={hrefWith(pathname, search, { muted: data.query.muted === "show" ? null : "show", page: null })}
          className="ml-auto px-2 py-1 text-blue-700 hover:underline"
        >
          {data.query.muted === "show" ? "Hide muted" : "Show muted"}
        </Link>
      </nav>
      {data.alerts.length === 0 ? (
        <EmptyState title={data.query.status === "open" ? "No open alerts" : "No alerts"}>
          <p>The checks run after every scheduled refresh of your accounts.</p>
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Alerts">
          {data.alerts.map((a) => (
            <li
              key={a.id}
              className={`rounded-xl border bg-white p-4 shadow-sm ${a.status === "open" && !a.read ? "border-blue-300" : "border-gray-200"}`}
              data-testid="alert"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="text-xs font-semibold uppercase tracking-wide text-gray-500">
                    {a.ruleLabel} · {a.accountName} ({formatCustomerId(a.customerId)})
                    {a.status === "open" && !a.read ? <span className="ml-2 rounded-full bg-blue-600 px-2 py-0.5 text-white normal-case">New</span> : null}
                    {a.muted ? <span className="ml-2 normal-case text-gray-400">muted</span> : null}
                  </p>
                  <h2 className="mt-1 font-semibold text-gray-900">{a.title}</h2>
                  <p className="mt-1 text-sm text-gray-600">
                    Since {formatDate(a.startedOn)}
                    {a.status === "resolved" && a.resolvedAt
                      ? ` · resolved ${a.resolvedBy === "user" ? "by a person" : "when the condition ended"} on ${formatDate(a.resolvedAt.slice(0, 10))}`
                      : ""}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {/* The evidence is in that account: open it there (it becomes the active account). */}
                  <Form method="post" action="/accounts">
                    <input type="hidden" name="intent" value="select-account" />
                    <input type="hidden" name="customerId" value={a.customerId} />
                    <input type="hidden" name="returnTo" value={a.evidencePath} />
                    <button type="submit" className="text-sm font-semibold text-blue-700 hover:underline">
                      See the evidence
                    </button>
                  </Form>
                  {a.recommendationId ? (
                    <Form method="post" action="/accounts">
                      <input type="hidden" name="intent" value="select-account" />
                      <input type="hidden" name="customerId" value={a.customerId} />
                      <input type="hidden" name="returnTo" value={`/ai-optimizer#rec-${a.recommendationId}`} />
                      <button type="submit" className="text-sm font-semibold text-blue-700 hover:underline">
                        See the recommendation
                      </button>
                    </Form>
                  ) : null}
                  {a.status === "open" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="resolve" />
                      <input type="hidden" name="alertId" value={a.id} />
                      <button
                        type="submit"
                        className="rounded-md border border-gray-300 px-2 py-0.5 text-sm text-gray-700 hover:bg-gray-50"
                        aria-label={`Resolve: ${a.title}`}
                      >
                        Resolve
                      </button>
                    </Form>
                  ) : null}
                  {!a.muted ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="mute" />
                      <input type="hidden" name="customerId" value={a.customerId} />
                      <input type="hidden" name="rule" value={a.rule} />
                      <input type="hidden" name="muted" value="true" />
                      <button type="submit" className="text-sm text-gray-600 hover:underline" aria-label={`Mute ${a.ruleLabel} for ${a.accountName}`}>
                        Mute this rule here
                      </button>
                    </Form>
                  ) : null}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        noun="alerts"
        href={(page) => hrefWith(pathname, search, { page: page === 1 ? null : page })}
      />
      {data.mutes.length ? (
        <section className="mt-8" aria-labelledby="mutes-heading">
          <h2 id="mutes-heading" className="text-lg font-semibold text-gray-900">
            Muted
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {data.mutes.map((m) => (
              <li key={`${m.customerId}-${m.rule}`} className="flex items-center gap-3">
                <span>
                  {m.rule ? RULE_LABEL[m.rule] : "Every rule"} · {m.accountName ?? "every account"}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="mute" />
                  <input type="hidden" name="customerId" value={m.customerId ?? ""} />
                  <input type="hidden" name="rule" value={m.rule ?? ""} />
                  <input type="hidden" name="muted" value="false" />
                  <button type="submit" className="text-blue-700 hover:underline">
                    Unmute
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
