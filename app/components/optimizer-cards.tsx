import { Link } from "react-router";
import { wholeMoney, type MeasuredMoney } from "~/lib/impact";

// The Dashboard's two engine cards (connected accounts only; the unconnected
// dashboard keeps the seed's cards).

const card = "rounded-xl border border-gray-200 bg-white p-5 shadow-sm";

/** Money measured on this month's days from applied recommendations and assistant proposals (ADR 027): not a count of applies. */
export function AiOptimizationsCard({ money, currencyCode }: { money: MeasuredMoney; currencyCode: string }) {
  const amount = (units: number) => wholeMoney(Math.abs(units), currencyCode);
  const net = money.saved + money.earned;
  return (
    <section className={card} aria-label="AI Optimizations">
      <h2 className="text-sm font-medium text-gray-500">AI Optimizations</h2>
      <p className="mt-2 text-3xl font-bold text-gray-900" data-testid="ai-measured-money">
        {wholeMoney(net, currencyCode)}
      </p>
      <p
        className="mt-1 text-sm text-gray-500"
        title="Money measured on this month's days from applied recommendations and assistant proposals, against untouched comparable campaigns"
      >
        This month
      </p>
      <p className="mt-1 text-xs text-gray-600" data-testid="ai-applied">
        {money.measured > 0
          ? `Measured: ${money.saved >= 0 ? "saved" : "spent"} ${amount(money.saved)}, ${money.earned >= 0 ? "earned" : "lost"} ${amount(money.earned)} · `
          : ""}
        {money.applied} applied this month
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
