import type { ReactNode } from "react";

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
        {description ? <p className="mt-1 text-gray-600">{description}</p> : null}
      </div>
      {actions}
    </header>
  );
}

export function StatCard({ title, value, hint, comparison }: { title: string; value: ReactNode; hint: string; comparison?: ReactNode }) {
  return (
    <section className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm" aria-label={title}>
      <h2 className="text-sm font-medium text-gray-500">{title}</h2>
      <p className="mt-2 text-3xl font-bold text-gray-900">{value}</p>
      <p className="mt-1 text-sm text-gray-500">{hint}</p>
      {comparison ? <div className="mt-1">{comparison}</div> : null}
    </section>
  );
}

export function EmptyState({ title, children, icon }: { title: string; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-gray-300 bg-white px-6 py-16 text-center">
      {icon ? <div className="mb-4 text-gray-400">{icon}</div> : null}
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      <div className="mt-2 max-w-md text-gray-600">{children}</div>
    </div>
  );
}

/** A button that ends or removes something (disconnect, sign out everywhere). */
export const dangerButtonClass = "rounded-lg border border-red-300 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50";

export const buttonClass =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-blue-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50";

/** Why the page shows something other than what was asked (an ignored filter, a failed import). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {children}
    </p>
  );
}
