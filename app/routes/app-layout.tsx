import type { ReactNode } from "react";
import { isRouteErrorResponse, Outlet, useLocation, useRouteError, useRouteLoaderData } from "react-router";
import { Sidebar } from "~/components/sidebar";
import { loadLayoutData } from "~/server/layout-data.server";
import { requireUserMiddleware, userContext } from "~/server/request-context.server";
import type { Route } from "./+types/app-layout";

// Guards every screen below it: anonymous visitors are sent to /login. The
// session is looked up once here (shared with the root loader) and every
// loader and action below reads it from `userContext`.
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  return loadLayoutData(context.get(userContext));
}

type LayoutData = Awaited<ReturnType<typeof loader>>;

function Shell({ data, children }: { data: LayoutData; children: ReactNode }) {
  return (
    <div className="min-h-screen md:flex">
      <Sidebar email={data.email} activeAccount={data.activeAccount} draftCount={data.draftCount} switcher={data.switcher} unreadAlerts={data.unreadAlerts} />
      {/* A screen marked data-fit-screen (the AI Optimizer) fills the window below whatever banners are shown, at xl and up. */}
      <main className="min-w-0 flex-1 px-4 py-5 sm:px-6 lg:p-6 xl:px-8 xl:has-[[data-fit-screen]]:flex xl:has-[[data-fit-screen]]:h-screen xl:has-[[data-fit-screen]]:flex-col">
        {children}
      </main>
    </div>
  );
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { connection, demoMode } = loaderData;
  const location = useLocation();
  const returnTo = encodeURIComponent(location.pathname);
  return (
    <Shell data={loaderData}>
      {connection?.status === "reconnect_needed" ? (
        <div
          role="alert"
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          <p>
            <strong>Google Ads needs to be reconnected.</strong> {connection.statusReason ?? "Your connection has expired."}
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
          <strong>Demo mode:</strong> you are viewing a demo Google Ads account served by the built-in emulator. No real account or money is involved.
        </div>
      ) : null}
      <Outlet />
    </Shell>
  );
}

/**
 * An error in a screen (an unknown campaign id, a change set of someone else)
 * is shown inside the app's own frame, navigation included, so the person can
 * carry on from there. Errors of the layout's own loader have no frame to show
 * and go on to the root boundary.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<LayoutData>("routes/app-layout");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const body = notFound ? (
    <div className="flex flex-col items-start gap-3 py-8">
      <p className="text-sm font-semibold text-blue-600">404</p>
      <h1 className="text-2xl font-bold text-gray-900">Page not found</h1>
      <p className="text-gray-600">There is nothing at this address in your account: the link may be old, or the item was removed.</p>
      <a href="/dashboard" className="rounded-md bg-blue-600 px-4 py-2 text-white hover:bg-blue-700">
        Go to the dashboard
      </a>
    </div>
  ) : (
    <div className="flex flex-col items-start gap-3 py-8">
      <h1 className="text-2xl font-bold text-gray-900">Unexpected Application Error!</h1>
      <p className="text-gray-600">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong. Please try again."}</p>
    </div>
  );
  if (!data) {
    // The layout itself failed: the root boundary's full-page version.
    throw error;
  }
  return <Shell data={data}>{body}</Shell>;
}
