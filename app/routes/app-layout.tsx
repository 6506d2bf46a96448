import { Outlet } from "react-router";
import { Sidebar } from "~/components/sidebar";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/app-layout";

// Guards every screen below it: anonymous visitors are sent to /login.
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return { email: user.email };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex min-h-screen">
      <Sidebar email={loaderData.email} />
      <main className="min-w-0 flex-1 p-8">
        <Outlet />
      </main>
    </div>
  );
}
