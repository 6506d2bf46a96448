import { data } from "react-router";
import { getSyncState } from "~/server/ads/sync.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError, HttpError } from "~/server/http/errors.server";
import { requireAccountOf, startSync, syncView } from "~/server/reporting.server";
import type { Route } from "./+types/account-sync";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET: the account's sync state. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    const account = await requireAccountOf(user.id, params.customerId);
    return data(syncView(await getSyncState(account.customerId)), { headers: NO_STORE });
  } catch (error) {
    return apiError(error);
  }
}

/** POST: start a sync now; answers at once (202) with the state, poll GET for progress. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    if (request.method !== "POST") throw new HttpError(405, "Method not allowed", undefined, { Allow: "GET, POST" });
    const { user } = await requireApiSession(request);
    const account = await requireAccountOf(user.id, params.customerId);
    if (account.manager) throw new HttpError(400, "A manager account has no campaigns of its own; sync one of its client accounts.");
    return data(await startSync(user.id, account), { status: 202, headers: NO_STORE });
  } catch (error) {
    return apiError(error);
  }
}
