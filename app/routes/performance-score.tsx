import { Link } from "react-router";
import { AnalysisRunning, useLiveAnalysis } from "~/components/analysis-status";
import { EmptyState, PageHeader } from "~/components/ui";
import { countOf } from "~/lib/format";
import { CalibrationTable } from "~/components/impact";
import { RECOMMENDATION_TYPE_LABELS } from "~/lib/recommendations";
import { userContext } from "~/server/request-context.server";
import { scorePage } from "~/server/optimizer/pages.server";
import type { Route } from "./+types/performance-score";

export function meta() {
  return [{ title: "Performance Score · Ads AI Manager" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return scorePage(user);
}

/** The score's breakdown: each category, what lowers it, each item linked to its recommendation. */
export default function PerformanceScore({ loaderData }: Route.ComponentProps) {
  if (!loaderData.connected) return <NoScore />;
  return <Score data={loaderData} />;
}

function NoScore() {
  return (
    <>
      <PageHeader title="Performance Score" description="Waste and missed opportunity at target, never spend" />
      <EmptyState title="No score yet">
        <p>The score appears after your Google Ads data is synced and analysed.</p>
      </EmptyState>
    </>
  );
}

function Score({ data: loaderData }: { data: Extract<Route.ComponentProps["loaderData"], { connected: true }> }) {
  // While the engine runs, the page polls and shows the new score when it ends (the stored one until then).
  const analysing = useLiveAnalysis(loaderData.analysis).status === "running";
  if (loaderData.value === null) {
    if (!analysing) return <NoScore />;
    return (
      <>
        <PageHeader title="Performance Score" description="Waste and missed opportunity at target, never spend" />
        <EmptyState title="Analysing your data…">
          <AnalysisRunning>The score appears here when the analysis of your synced data finishes.</AnalysisRunning>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Performance Score" description={`${loaderData.accountName}: waste and missed opportunity at target, never spend`} />
      {analysing ? (
        <AnalysisRunning className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
          Analysing your new data… the score below updates when it finishes.
        </AnalysisRunning>
      ) : null}
      <section className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-label="Score">
        <p className="text-5xl font-bold text-gray-900">
          {loaderData.value}
          <span className="text-xl font-medium text-gray-500"> / 100</span>
        </p>
        <p className="mt-2 max-w-2xl text-sm text-gray-600">
          The weighted mean of the categories below. Spending more never raises it; dismissing a recommendation does not either — applying it (and the next sync
          showing the change) does.
        </p>
      </section>
      <div className="mt-6 space-y-6">
        {loaderData.breakdown.map((c) => (
          <section key={c.id} className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby={`cat-${c.id}`}>
            <div className="flex items-baseline justify-between gap-4">
              <h2 id={`cat-${c.id}`} className="text-lg font-semibold text-gray-900">
                {c.label}
              </h2>
              <p className="text-sm text-gray-600">
                {c.score === null ? "Does not apply" : `${c.score} / 100`} · weight {c.weight}
              </p>
            </div>
            <p className="mt-1 text-sm text-gray-600">{c.explanation}</p>
            {c.items.length === 0 ? (
              <p className="mt-3 text-sm text-gray-500">Nothing lowers it.</p>
            ) : (
              <ol className="mt-3 divide-y divide-gray-100 text-sm">
                {c.items.slice(0, 50).map((item) => (
                  <li key={item.key} className="flex items-start justify-between gap-4 py-2">
                    <Link to={`/ai-optimizer?recs=open&group=${item.type}#rec-${item.recommendationId}`} className="text-blue-700 hover:underline">
                      {item.title}
                    </Link>
                    <span className="shrink-0 text-gray-600" title={RECOMMENDATION_TYPE_LABELS[item.type]}>
                      {/* Points are rounded to a tenth: a smaller share would read as "−0 pts". */}
                      {item.points >= 0.1 ? `−${countOf(item.points, "pt")}` : "less than 0.1 pts"}
                    </span>
                  </li>
                ))}
                {c.items.length > 50 ? <li className="py-2 text-gray-500">and {c.items.length - 50} more smaller items</li> : null}
              </ol>
            )}
          </section>
        ))}
      </div>
      <CalibrationTable rows={loaderData.calibration} currencyCode={loaderData.currencyCode} />
    </>
  );
}
