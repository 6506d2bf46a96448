import { Link } from "react-router";

// The Dashboard's two engine cards (connected accounts only; the unconnected
// dashboard keeps the seed's cards).

const card = "rounded-xl border border-gray-200 bg-white p-5 shadow-sm";

export function AiOptimizationsCard({ count }: { count: number }) {
  return (
    <section className={card} aria-label="AI Optimizations">
      <h2 className="text-sm font-medium text-gray-500">AI Optimizations</h2>
      <p className="mt-2 text-3xl font-bold text-gray-900">{count}</p>
      <p className="mt-1 text-sm text-gray-500" title="Change sets applied this month that came from a recommendation or the assistant">
        This month
      </p>
    </section>
  );
}

export function PerformanceScoreCard({ score }: { score: number | null }) {
  return (
    <section className={card} aria-label="Performance Score">
      <h2 className="text-sm font-medium text-gray-500">Performance Score</h2>
      <p className="mt-2 text-3xl font-bold text-gray-900">{score === null ? "-" : score}</p>
      <p className="mt-1 text-sm text-gray-500">
        AI analysis
        {score !== null ? (
          <>
            {" · "}
            <Link to="/dashboard/score" className="text-blue-700 hover:underline">
              What lowers it
            </Link>
          </>
        ) : null}
      </p>
    </section>
  );
}
