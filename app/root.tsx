import { useEffect, useRef } from "react";
import { Toaster } from "react-hot-toast";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { useNonce } from "./components/nonce";
import { syncAuthState } from "./lib/auth-storage";
import { clearErrors, notify } from "./lib/notify";
import { loadRootData } from "./server/root-data.server";
import { takeTokenFromAddress } from "./server/auth/token-handoff.server";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// Before anything else: a `?token=` leaves the address (and a Google sign-in's code starts its session).
export const middleware: Route.MiddlewareFunction[] = [takeTokenFromAddress];

export async function loader(args: Route.LoaderArgs) {
  const { data: rootData, headers } = await loadRootData(args);
  return data(rootData, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <Toaster position="top-right" toastOptions={{ duration: 4000, success: { duration: 2000 }, error: { duration: 4000 } }} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export function meta() {
  return [{ title: "Google Ads AI Manager" }];
}

function AuthAndToasts() {
  const root = useRouteLoaderData<typeof loader>("root");
  const email = root?.user?.email ?? null;
  const mirrorToken = root?.mirrorToken ?? null;

  useEffect(() => {
    syncAuthState(email, mirrorToken);
  }, [email, mirrorToken]);

  // Signing in or out makes earlier messages (a failed sign-in) stale.
  const previousEmail = useRef(email);
  useEffect(() => {
    if (previousEmail.current !== email) clearErrors();
    previousEmail.current = email;
  }, [email]);

  const pending = root?.toast;
  useEffect(() => {
    if (!pending) return;
    notify(pending.type, pending.message);
  }, [pending]);

  return null;
}

/**
 * The same flash message for a browser without JavaScript, which never runs the toast: a banner
 * at the top of the page it lands on ("Targets saved", "Google sign-in was cancelled", …).
 */
function FlashWithoutJavaScript() {
  const toast = useRouteLoaderData<typeof loader>("root")?.toast;
  if (!toast) return null;
  const tone = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-green-200 bg-green-50 text-green-800",
    blank: "border-gray-200 bg-gray-50 text-gray-800",
  }[toast.type];
  return (
    <noscript>
      {/* No live-region role: the page's own status and alert regions keep theirs alone, and a page
          that loads without JavaScript is read from the top, banner first. */}
      <div data-testid="flash" className={`border-b px-4 py-2 text-center text-sm ${tone}`}>
        {toast.message}
      </div>
    </noscript>
  );
}

export default function App() {
  return (
    <>
      <AuthAndToasts />
      <FlashWithoutJavaScript />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
        <p className="text-sm font-semibold text-blue-600">404</p>
        <h1 className="text-3xl font-bold">Page not found</h1>
        <p className="text-gray-600">The page you are looking for does not exist.</p>
        <a href="/dashboard" className="rounded-md bg-blue-600 px-4 py-2 text-white hover:bg-blue-700">
          Go to the dashboard
        </a>
      </main>
    );
  }
  const details = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="text-gray-600">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong. Please try again."}</p>
      {details ? <pre className="relative max-w-full overflow-auto text-left text-xs">{details}</pre> : null}
    </main>
  );
}
