import { Form, Link, useLocation, useNavigation } from "react-router";
import { AnalysisRunning, useLiveAnalysis, type AnalysisView } from "~/components/analysis-status";
import { syncInProgress, useLiveSync, type SyncView } from "~/components/sync-status";
import { countOf, formatDateRange, formatDateTime, formatTimeAgo } from "~/lib/format";
import { optimizerHref } from "~/lib/optimizer-url";
import {
  DISMISS_REASON_MAX,
  impactText,
  RECOMMENDATION_LIST_LABELS,
  RECOMMENDATION_LISTS,
  RECOMMENDATION_TYPE_LABELS,
  type RecommendationList,
} from "~/lib/recommendations";

// The AI Optimizer's recommendations (beside the chat): grouped by type, the
// groups and items sorted by impact, evidence expandable, and plain form posts
// (Apply, Dismiss with a reason, Snooze 7/30, Restore) that work without JavaScript.

interface Figure {
  name: string;
  label: string;
  value: number | string | null;
  unit?: string;
}

export interface PanelRecommendation {
  id: string;
  type: string;
  title: string;
  status: string;
  confidence: number;
  confidenceLabel: string;
  impact: { kind: string; monthly: number; riskConversions: number | null; assumption: string; currencyCode: string };
  evidence: {
    summary: string;
    dateRange: { from: string; to: string };
    syncedAt: string | null;
    figures: Figure[];
    target: { label: string } | null;
    test: { name: string; result: string } | null;
    notes: string[];
  };
  actions: unknown[];
  links: Array<{ label: string; href: string }>;
  /** Other findings on the same entity (issue 29 point 5): not counted again in the totals. */
  alternatives?: Array<{ key: string; type: string; title: string; impact: { kind: string; monthly: number }; currencyCode: string }>;
  dismissedReason: string | null;
  snoozedUntil: string | null;
  changeSetId: string | null;
}

export interface PanelData {
  list: RecommendationList;
  /** The account's sync: while one runs, the recommendations wait for its data to be analysed. */
  sync: SyncView;
  /** An engine run in flight: its results replace these when it ends. */
  analysis: AnalysisView;
  counts: Record<RecommendationList, number>;
  /** The list's filters (GET ?campaign=&type=), and the choices the list has. */
  filter?: { campaign?: string; type?: string };
  campaigns?: Array<{ id: string; name: string }>;
  types?: string[];
  /** What the listed items are worth a month, each once. */
  totals?: { count: number; costSaved: number; conversions: number; value: number };
  recommendations: PanelRecommendation[];
  /** Open advice a change applied since the run already carried out (left out of the list and the counts). */
  carriedOut?: number;
  /** The days most figures below cover: the engine's last complete days, which may end before a report page's range. */
  window?: { from: string; to: string } | null;
  ranAt: string | null;
  syncedAt: string | null;
  score: number | null;
  /** Whether a target exists (the account's in Settings, or a campaign's bidding strategy): without one, the panel says so. */
  targetSet: boolean;
  currencyCode: string;
  /** The account's time zone: times are shown in it, as on every other screen. */
  timeZone: string;
  /** The server's clock when the page was rendered (ISO): "… ago" must read the same when the page hydrates. */
  now: string;
}

export interface PanelError {
  id: string | null;
  field: string;
  message: string;
}

function formatFigure(f: Figure, currency: string): string {
  if (f.value === null) return "—";
  if (typeof f.value === "string") return f.value;
  if (f.unit === "money") return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(f.value);
  if (f.unit === "percent") return `${f.value} %`;
  return f.value.toLocaleString("en-US");
}

// Items shown per group until it is opened in full (?group=<type>): the largest groups run to dozens, and
// on narrow screens, where the list follows the chat, every item adds to the page's length.
const GROUP_PREVIEW = 5;
/** Items the panel leads with, by impact, before the groups. */
const TOP = 10;

const small = "rounded-md border border-gray-300 px-2.5 py-1 text-xs font-semibold text-gray-700 hover:bg-gray-50 disabled:opacity-50";

function Item({
  r,
  list,
  error,
  busy,
  currency,
  timeZone,
}: {
  r: PanelRecommendation;
  list: RecommendationList;
  error: PanelError | null;
  busy: boolean;
  currency: string;
  timeZone: string;
}) {
  const mine = error && error.id === r.id ? error : null;
  return (
    <li id={`rec-${r.id}`} className="rounded-lg border border-gray-200 bg-white p-3 shadow-sm" data-type={r.type} data-status={r.status}>
      {list === "open" && r.actions.length && !r.changeSetId ? (
        // Outside the bulk form in the page, tied to it by `form`: each item keeps its own forms.
        <label className="float-right ml-2 flex items-center gap-1 text-xs text-gray-600">
          <input type="checkbox" name="ids" value={r.id} form="bulk-apply" />
          <span className="sr-only">Select “{r.title}” to apply with others</span>
        </label>
      ) : null}
      <p className="text-sm font-medium text-gray-900">{r.title}</p>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-600">
        <span
          className={`rounded px-1.5 py-0.5 font-semibold ${r.confidenceLabel === "Strong" ? "bg-green-100 text-green-800" : "bg-amber-100 text-amber-800"}`}
        >
          {r.confidenceLabel} ({Math.round(r.confidence * 100)} %)
        </span>
        <span>{impactText(r.impact)}</span>
      </p>
      <details className="mt-2 text-xs text-gray-700">
        <summary className="cursor-pointer font-semibold text-blue-700">Evidence</summary>
        <div className="mt-2 space-y-2">
          <p>{r.evidence.summary}</p>
          <p className="text-gray-500">
            {formatDateRange(r.evidence.dateRange)}
            {r.evidence.syncedAt ? ` · data synced ${formatDateTime(r.evidence.syncedAt, timeZone)}` : ""}
          </p>
          <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5">
            {r.evidence.figures.map((f) => (
              <div key={f.name} className="contents">
                <dt className="text-gray-500">{f.label}</dt>
                <dd className="text-right tabular-nums">{formatFigure(f, currency)}</dd>
              </div>
            ))}
          </dl>
          {r.evidence.target ? <p>Judged against: {r.evidence.target.label}</p> : null}
          {r.evidence.test ? (
            <p>
              Test: {r.evidence.test.name} — <strong>{r.evidence.test.result}</strong>
            </p>
          ) : null}
          <p>Impact assumption: {r.impact.assumption}</p>
          {r.impact.riskConversions ? <p>Risk: about {countOf(r.impact.riskConversions, "conversion")} a month.</p> : null}
          {r.evidence.notes.length ? (
            <ul className="list-disc pl-4">
              {r.evidence.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </div>
      </details>
      {r.alternatives?.length ? (
        <details className="mt-2 text-xs text-gray-700" data-testid="alternatives">
          <summary className="cursor-pointer font-semibold text-blue-700">
            Also found on this ({r.alternatives.length}): the action above is the best of them
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {r.alternatives.map((a) => (
              <li key={a.key}>
                {a.title} <span className="text-gray-500">— {impactText({ ...a.impact, currencyCode: a.currencyCode })}, not counted again</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.links.length ? (
        <p className="mt-2 text-xs">
          {r.links.map((l) => (
            <Link key={l.href} to={l.href} className="font-semibold text-blue-700 hover:underline">
              {l.label}
            </Link>
          ))}
        </p>
      ) : null}
      {list === "open" ? (
        <div className="mt-2 flex flex-wrap items-start gap-2">
          {r.actions.length ? (
            <Form method="post">
              <input type="hidden" name="intent" value="rec-apply" />
              <input type="hidden" name="id" value={r.id} />
              <button
                type="submit"
                disabled={busy}
                className="rounded-md bg-blue-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-blue-700 disabled:opacity-50"
              >
                {r.changeSetId ? "Review change set" : "Apply"}
              </button>
            </Form>
          ) : null}
          <Form method="post" className="flex items-start gap-1">
            <input type="hidden" name="intent" value="rec-dismiss" />
            <input type="hidden" name="id" value={r.id} />
            <input type="hidden" name="list" value={list} />
            <label className="sr-only" htmlFor={`reason-${r.id}`}>
              Reason for dismissing (optional)
            </label>
            <input
              id={`reason-${r.id}`}
              name="reason"
              maxLength={DISMISS_REASON_MAX}
              placeholder="Reason (optional)"
              aria-invalid={mine?.field === "reason" || undefined}
              aria-describedby={mine?.field === "reason" ? `reason-error-${r.id}` : undefined}
              className="w-36 rounded-md border border-gray-300 px-2 py-1 text-xs"
            />
            <button type="submit" disabled={busy} className={small}>
              Dismiss
            </button>
          </Form>
          <Form method="post" className="flex gap-1">
            <input type="hidden" name="intent" value="rec-snooze" />
            <input type="hidden" name="id" value={r.id} />
            <input type="hidden" name="list" value={list} />
            <button type="submit" name="days" value="7" disabled={busy} className={small}>
              Snooze 7 days
            </button>
            <button type="submit" name="days" value="30" disabled={busy} className={small}>
              Snooze 30 days
            </button>
          </Form>
        </div>
      ) : list === "dismissed" || list === "snoozed" ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-gray-600">
          {r.dismissedReason ? <span>Reason: {r.dismissedReason}</span> : null}
          {r.snoozedUntil ? <span>Snoozed until {formatDateTime(r.snoozedUntil, timeZone)}</span> : null}
          <Form method="post">
            <input type="hidden" name="intent" value="rec-restore" />
            <input type="hidden" name="id" value={r.id} />
            <input type="hidden" name="list" value={list} />
            <button type="submit" disabled={busy} className={small}>
              Restore
            </button>
          </Form>
        </div>
      ) : r.changeSetId ? (
        <p className="mt-2 text-xs">
          <Link to={`/changes/${r.changeSetId}`} className="font-semibold text-blue-700 hover:underline">
            Its change set
          </Link>
        </p>
      ) : null}
      {mine ? (
        <p role="alert" id={`reason-error-${r.id}`} className="mt-1 text-xs text-red-700">
          {mine.message}
        </p>
      ) : null}
    </li>
  );
}

export function RecommendationsPanel({ data, error }: { data: PanelData; error: PanelError | null }) {
  const navigation = useNavigation();
  const { search } = useLocation();
  const expanded = new URLSearchParams(search).get("group");
  const busy = navigation.state === "submitting";
  const analysing = useLiveAnalysis(data.analysis).status === "running";
  // A sync's new data is analysed right after it: until then the panel says so (and polls, like the report pages).
  // The page's state counts too: once the poll sees the sync end, it is said until the new data arrives.
  const sync = useLiveSync(data.sync);
  const syncing = !analysing && (syncInProgress(data.sync) || syncInProgress(sync));
  // The panel leads with the ten largest by impact (the list comes sorted by it); the rest follow by type.
  const top = data.recommendations.slice(0, TOP);
  const groups = new Map<string, PanelRecommendation[]>();
  for (const r of data.recommendations.slice(TOP)) groups.set(r.type, [...(groups.get(r.type) ?? []), r]);
  const money = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: data.currencyCode, maximumFractionDigits: 0 }).format(n);
  const totals = data.totals;
  const filtered = !!(data.filter?.campaign || data.filter?.type);
  const item = (r: PanelRecommendation) => (
    <Item key={r.id} r={r} list={data.list} error={error} busy={busy} currency={data.currencyCode} timeZone={data.timeZone} />
  );
  return (
    <section aria-labelledby="recommendations-heading" className="flex min-h-0 flex-col rounded-xl border border-gray-200 bg-gray-50 p-4 xl:w-[28rem]">
      <div className="flex items-center justify-between gap-2">
        <h2 id="recommendations-heading" className="text-lg font-semibold text-gray-900">
          Recommendations
        </h2>
        <Form method="post">
          <input type="hidden" name="intent" value="rec-run" />
          <input type="hidden" name="list" value={data.list} />
          <button type="submit" disabled={busy} className={small}>
            Run analysis
          </button>
        </Form>
      </div>
      {analysing ? (
        <AnalysisRunning className="mt-2 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
          {data.ranAt
            ? "Analysing your new data… the recommendations below update when it finishes."
            : "Analysing your data… recommendations appear when it finishes."}
        </AnalysisRunning>
      ) : syncing ? (
        <AnalysisRunning className="mt-2 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
          {data.ranAt
            ? "Syncing new data from Google Ads… the recommendations below update once it is analysed."
            : "Importing your account from Google Ads… recommendations appear once it is analysed."}
        </AnalysisRunning>
      ) : null}
      <p className="mt-1 text-xs text-gray-500">
        {data.ranAt ? `Last analysis ${formatTimeAgo(data.ranAt, data.now)}` : analysing || syncing ? null : "No analysis yet: it runs after the first sync."}
        {data.ranAt && data.window ? ` · figures for ${formatDateRange(data.window)}, its last complete days` : null}
        {data.score !== null ? (
          <>
            {" · "}
            <Link to="/dashboard/score" className="text-blue-700 hover:underline">
              Performance Score {data.score}
            </Link>
          </>
        ) : null}
      </p>
      {data.carriedOut ? (
        <p className="mt-1 text-xs text-gray-600" data-testid="carried-out">
          {data.carriedOut === 1 ? "1 recommendation was" : `${data.carriedOut} recommendations were`} carried out by a change applied since the last analysis,
          so {data.carriedOut === 1 ? "it is" : "they are"} no longer listed.
        </p>
      ) : null}
      {data.targetSet ? null : (
        <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900" data-testid="no-target">
          No target is set for this account: campaigns are compared with the account&apos;s other campaigns. A target CPA or ROAS sharpens these recommendations
          —{" "}
          <Link to="/settings#targets-heading" className="font-semibold text-blue-700 hover:underline">
            set one in Settings
          </Link>
          .
        </p>
      )}
      <nav aria-label="Recommendation lists" className="mt-3 flex gap-3 text-sm">
        {RECOMMENDATION_LISTS.map((l) => (
          <Link
            key={l}
            // The chat beside the list stays open.
            to={optimizerHref(search, { recs: l })}
            aria-current={l === data.list ? "page" : undefined}
            className={l === data.list ? "font-semibold text-gray-900 underline" : "text-blue-700 hover:underline"}
          >
            {RECOMMENDATION_LIST_LABELS[l]} ({data.counts[l]})
          </Link>
        ))}
      </nav>
      {data.campaigns && data.types && (data.types.length > 1 || data.campaigns.length > 1 || filtered) ? (
        // A plain GET form: filtering works without JavaScript; the chat and the list stay.
        <form method="get" action="/ai-optimizer" className="mt-3 flex flex-wrap items-end gap-2 text-xs" aria-label="Filter recommendations">
          {new URLSearchParams(search).get("chat") ? <input type="hidden" name="chat" value={new URLSearchParams(search).get("chat")!} /> : null}
          <input type="hidden" name="recs" value={data.list} />
          <label className="flex flex-col gap-0.5">
            <span className="text-gray-600">Campaign</span>
            <select name="campaign" defaultValue={data.filter?.campaign ?? ""} className="max-w-[12rem] rounded-md border border-gray-300 px-2 py-1">
              <option value="">All campaigns</option>
              {data.campaigns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-gray-600">Type</span>
            <select name="type" defaultValue={data.filter?.type ?? ""} className="max-w-[12rem] rounded-md border border-gray-300 px-2 py-1">
              <option value="">All types</option>
              {data.types.map((t) => (
                <option key={t} value={t}>
                  {RECOMMENDATION_TYPE_LABELS[t] ?? t}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={small}>
            Filter
          </button>
          {filtered ? (
            <Link to={optimizerHref(search, { campaign: null, type: null, group: null })} className="py-1 font-semibold text-blue-700 hover:underline">
              Clear filters
            </Link>
          ) : null}
        </form>
      ) : null}
      {totals && totals.count > 0 && data.list === "open" ? (
        <p className="mt-2 text-xs text-gray-700" data-testid="rec-totals">
          {countOf(totals.count, filtered ? "matching recommendation" : "recommendation")}
          {totals.costSaved > 0 ? ` · saves about ${money(totals.costSaved)} a month` : ""}
          {totals.conversions > 0 ? ` · about +${Math.round(totals.conversions * 10) / 10} conversions a month` : ""}
          {totals.value > 0 ? ` · about +${money(totals.value)} conversion value a month` : ""} <span className="text-gray-500">(each counted once)</span>
        </p>
      ) : null}
      {data.list === "open" && data.recommendations.some((r) => r.actions.length && !r.changeSetId) ? (
        <Form method="post" id="bulk-apply" className="mt-2 flex items-center gap-2 text-xs">
          <input type="hidden" name="intent" value="rec-bulk-apply" />
          <button type="submit" disabled={busy} className="rounded-md bg-blue-600 px-2.5 py-1 font-semibold text-white hover:bg-blue-700 disabled:opacity-50">
            Apply selected
          </button>
          <span className="text-gray-600">Tick items below: one change set, one review.</span>
        </Form>
      ) : null}
      {error && error.id === null ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error.message}
        </p>
      ) : null}
      {/* relative: the screen-reader-only labels inside (position: absolute) must belong to this scrolling box, not stretch the page. */}
      <div className="relative mt-3 min-h-0 flex-1 space-y-4 overflow-y-auto">
        {data.recommendations.length === 0 ? (
          // Before the first analysis ends there is nothing to judge yet; "nothing to recommend" would be a
          // verdict. The line above already says an analysis is running or has not run yet.
          !data.ranAt ? null : (
            <p className="text-sm text-gray-600">
              {data.list === "open" ? "Nothing to recommend right now." : `No ${RECOMMENDATION_LIST_LABELS[data.list].toLowerCase()} recommendations.`}
            </p>
          )
        ) : (
          <>
            {top.length ? (
              <section aria-labelledby="top-heading" data-testid="top-ten">
                <h3 id="top-heading" className="text-sm font-semibold text-gray-800">
                  {data.recommendations.length > TOP ? `Top ${TOP} by impact` : "By impact"}
                </h3>
                <ol className="mt-2 space-y-2">{top.map(item)}</ol>
              </section>
            ) : null}
            {[...groups.entries()].map(([type, items]) => {
              const label = RECOMMENDATION_TYPE_LABELS[type] ?? type;
              const all = expanded === type || items.length <= GROUP_PREVIEW;
              return (
                <details key={type} open id={`group-${type}`} className="group" data-group={type}>
                  <summary className="cursor-pointer text-sm font-semibold text-gray-800">
                    {top.length ? "More: " : ""}
                    {label} ({items.length})
                  </summary>
                  <ol className="mt-2 space-y-2">{(all ? items : items.slice(0, GROUP_PREVIEW)).map(item)}</ol>
                  {items.length > GROUP_PREVIEW ? (
                    <p className="mt-2 text-sm">
                      <Link
                        to={optimizerHref(search, { group: all ? null : type }, `group-${type}`)}
                        preventScrollReset
                        className="font-semibold text-blue-700 hover:underline"
                      >
                        {all ? `Show the top ${GROUP_PREVIEW}` : `Show all ${items.length}`}
                        <span className="sr-only"> of {label}</span>
                      </Link>
                    </p>
                  ) : null}
                </details>
              );
            })}
          </>
        )}
      </div>
    </section>
  );
}
