import { Outlet, useLocation } from "react-router";
import { Sidebar } from "~/components/sidebar";
import { loadLayoutData } from "~/server/layout-data.server";
import type { Route } from "./+types/app-layout";

// Guards every screen below it: anonymous visitors are sent to /login.
export async function loader({ request }: Route.LoaderArgs) {
  return loadLayoutData(request);
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { connection, demoMode, activeAccount } = loaderData;
  const location = useLocation();
  const returnTo = encodeURIComponent(location.pathname);
  return (
    <div className="flex min-h-screen">
      <Sidebar email={loaderData.email} activeAccount={activeAccount} />
      <main className="min-w-0 flex-1 p-8">
        {connection?.status === "reconnect_needed" ? (
          <div role="alert" className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
            <p>
              <strong>Google Ads needs to be reconnected.</strong>{" "}
              {connection.statusReason ?? "Your connection has expired."}
            </p>
            <a
              href={`/api/v1/auth/google?returnTo=${returnTo}`}
              className="rounded-md bg-amber-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-amber-700"
            >
              Reconnect
            </a>
          </div>
        ) : null}
        {demoMode && connection ? (
          <div role="note" className="mb-6 rounded-lg border border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-900">
            <strong>Demo mode:</strong> you are viewing a demo Google Ads account served by the built-in emulator. No real
            account or money is involved.
          </div>
        ) : null}
        <Outlet />
      </main>
    </div>
  );
}
