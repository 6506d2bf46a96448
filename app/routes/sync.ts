import { redirect } from "react-router";
import { safeReturnPath } from "~/server/http/return-path.server";
import { requireSession } from "~/server/request-context.server";
import { activeAccountOf, activeAccountStatus } from "~/server/account-access.server";
import { startSync, syncViewOf } from "~/server/sync-status.server";
import { LimitReachedError, PausedError } from "~/server/domain-errors.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/sync";

// The browser's side of data freshness, on the cookie session: GET is the
// small status document the pages poll while a sync runs; POST is the
// "Sync now" form, which starts a sync and goes back where it came from
// (with the reason when it cannot: synced moments ago, or Google Ads calls paused).

export function loader({ request, context }: Route.LoaderArgs) {
  return activeAccountStatus(request, context, (customerId) => syncViewOf(customerId));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireSession(request, context);
  const form = await request.formData();
  const returnTo = safeReturnPath(form.get("returnTo"), "/campaigns");
  const account = await activeAccountOf(user);
  if (!account) return redirect(returnTo);
  try {
    await startSync(user.id, account);
  } catch (error) {
    if (error instanceof LimitReachedError || error instanceof PausedError) return redirectWithToast(returnTo, { type: "error", message: error.message });
    throw error;
  }
  return redirect(returnTo);
}
