import { Link, useLocation } from "react-router";
import { DateRangePicker } from "~/components/date-range-picker";
import { Change, PerformanceChart } from "~/components/performance-chart";
import { percentChange } from "~/lib/chart-scale";
import { SyncProgress, SyncStatus } from "~/components/sync-status";
import { AiOptimizationsCard, PerformanceScoreCard } from "~/components/optimizer-cards";
import { EmptyState, PageHeader, StatCard } from "~/components/ui";
import { formatDateRange, formatInteger, formatMoney } from "~/lib/format";
import { currentPath, hrefWith } from "~/lib/query";
import { presetLinks, rangeFormHidden } from "~/lib/report-query";
import { RANGE_PRESETS } from "~/lib/dates";
import { userContext } from "~/server/request-context.server";
import { optimizerCards } from "~/server/optimizer/pages.server";
import { dashboardPage } from "~/server/report-pages.server";
import { BudgetPacing } from "~/components/budget-pacing";
import { pacingAction, pacingSection } from "~/server/agency/pacing-pages.server";
import type { Route } from "./+types/dashboard";

export function meta() {
  return [{ title: "Dashboard · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  const page = await dashboardPage(user, url);
  if (!page.connected) return page;
  const [optimizer, plan] = await Promise.all([optimizerCards(page.account.customerId, page.account.timeZone), pacingSection(user)]);
  return { ...page, optimizer, pacing: plan?.account ?? null };
}

/** The budget pacing section's forms: set the monthly budget, or propose the daily budgets that land on it. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return pacingAction(user, await request.formData());
}

const STEPS = [
  {
    title: "Connect Google Ads Account",
    text: "Link your Google Ads account to import campaigns and performance data.",
    href: "/api/v1/auth/google?returnTo=/dashboard",
    action: "Connect Google Ads",
  },
  { title: "AI Analysis", text: "Get AI-powered recommendations grounded in your own data." },
  { title: "Generate Ads", text: "Create ad copy that fits Google's limits in seconds." },
];

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.connected) return <UnconnectedDashboard />;
  return <ConnectedDashboard data={loaderData} pacingError={(actionData as { pacingError?: string } | undefined)?.pacingError ?? null} />;
}

type Connected = Extract<Route.ComponentProps["loaderData"], { connected: true }>;

function ConnectedDashboard({ data, pacingError }: { data: Connected; pacingError: string | null }) {
  const location = useLocation();
  const { account, range, summary, series, sync } = data;
  const preset = RANGE_PRESETS.find((p) => p.id === data.presetId);
  const rangeHint = preset ? `${preset.label} (${formatDateRange(range)})` : formatDateRange(range);
  return (
    <>
      <PageHeader title="Dashboard" description={`Overview of your Google Ads performance · ${account.name}`} />
      <SyncStatus sync={sync} now={data.now} timeZone={account.timeZone} returnTo={currentPath(location.pathname, location.search)} />
      {data.firstSync ? (
        <EmptyState title="Importing your Google Ads data">
          <p>Your campaigns and 90 days of performance are being copied from Google Ads. This page updates when it is done.</p>
          <SyncProgress sync={sync} />
        </EmptyState>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard title="Active Campaigns" value={formatInteger(summary.activeCampaigns)} hint="Enabled campaigns" />
            <StatCard
              title="Total Spend"
              value={formatMoney(summary.metrics.costMicros, account.currencyCode)}
              hint={rangeHint}
              comparison={
                data.previous ? (
                  <Change
                    value={percentChange(summary.metrics.costMicros, data.previous.metrics.costMicros)}
                    previous={`${formatMoney(data.previous.metrics.costMicros, account.currencyCode)} (${formatDateRange(data.previous.range)})`}
                  />
                ) : null
              }
            />
            <AiOptimizationsCard money={data.optimizer.aiOptimizations} currencyCode={account.currencyCode} />
            <PerformanceScoreCard score={data.optimizer.score} />
          </div>
          <BudgetPacing pacing={data.pacing} currencyCode={account.currencyCode} error={pacingError} />
          <section className="mt-8 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="performance-heading">
            <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
              <h2 id="performance-heading" className="text-lg font-semibold text-gray-900">
                Performance
              </h2>
              <DateRangePicker
                action={location.pathname}
                range={range}
                presets={presetLinks(location.pathname, location.search, data.presetId)}
                hidden={rangeFormHidden(location.search)}
                notice={data.rangeNotice}
                max={data.today}
              />
            </div>
            <p className="mb-3 text-sm">
              {data.compare ? (
                <Link
                  to={hrefWith(location.pathname, location.search, { compare: null })}
                  preventScrollReset
                  className="font-medium text-blue-700 hover:underline"
                >
                  ☑ Comparing with the previous period · Stop comparing
                </Link>
              ) : (
                <Link
                  to={hrefWith(location.pathname, location.search, { compare: "previous" })}
                  preventScrollReset
                  className="font-medium text-blue-700 hover:underline"
                >
                  ☐ Compare with the previous period
                </Link>
              )}
            </p>
            <PerformanceChart
              points={series}
              previous={data.previous?.series ?? null}
              previousRange={data.previous?.range ?? null}
              currencyCode={account.currencyCode}
              range={range}
            />
          </section>
        </>
      )}
    </>
  );
}

/** The seed's dashboard, unchanged: what a user without a Google Ads account sees. */
function UnconnectedDashboard() {
  return (
    <>
      <PageHeader title="Dashboard" description="Overview of your Google Ads performance" />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title="Active Campaigns" value="-" hint="Connect Google Ads account" />
        <StatCard title="Total Spend" value="$0" hint="Last 30 days" />
        <StatCard title="AI Optimizations" value="0" hint="This month" />
        <StatCard title="Performance Score" value="-" hint="AI analysis" />
      </div>
      <section className="mt-8 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="getting-started">
        <h2 id="getting-started" className="text-lg font-semibold text-gray-900">
          Getting Started
        </h2>
        <ol className="mt-4 space-y-4">
          {STEPS.map((step, i) => (
            <li key={step.title} className={`flex items-start gap-4 ${i > 0 ? "opacity-50" : ""}`} data-dimmed={i > 0 || undefined}>
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-600 text-sm font-bold text-white">{i + 1}</span>
              <div>
                <h3 className="font-medium text-gray-900">{step.title}</h3>
                <p className="text-sm text-gray-600">{step.text}</p>
                {step.href ? (
                  <a href={step.href} className="mt-2 inline-block text-sm font-semibold text-blue-600 hover:underline">
                    {step.action}
                  </a>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
