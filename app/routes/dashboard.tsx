import { PageHeader, StatCard } from "~/components/ui";

export function meta() {
  return [{ title: "Dashboard · Ads AI Manager" }];
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

export default function Dashboard() {
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
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-600 text-sm font-bold text-white">
                {i + 1}
              </span>
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
