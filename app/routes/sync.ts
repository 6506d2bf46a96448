import { redirect } from "react-router";
import { safeReturnPath } from "~/server/http/return-path.server";
import { requireSession } from "~/server/request-context.server";
import { activeAccountOf, activeAccountStatus } from "~/server/account-access.server";
import { startSync, syncView } from "~/server/sync-status.server";
import { getSyncState } from "~/server/ads/sync.server";
import type { Route } from "./+types/sync";

// The browser's side of data freshness, on the cookie session: GET is the
// small status document the pages poll while a sync runs; POST is the
// "Sync now" form, which starts a sync and goes back where it came from.

export function loader({ request, context }: Route.LoaderArgs) {
  return activeAccountStatus(request, context, async (customerId) => syncView(await getSyncState(customerId)));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireSession(request, context);
  const form = await request.formData();
  const returnTo = safeReturnPath(form.get("returnTo"), "/campaigns");
  const account = await activeAccountOf(user);
  if (account) await startSync(user.id, account);
  return redirect(returnTo);
}
