import { InvalidError } from "~/server/domain-errors.server";
import { apiRoute } from "~/server/http/api-route.server";
import { requireAccountOf } from "~/server/account-access.server";
import { startSync, syncViewOf } from "~/server/sync-status.server";
import type { Route } from "./+types/account-sync";

/** GET: the account's sync state. */
export const loader = apiRoute({}, async ({ params }: Route.LoaderArgs, { user }) => {
  const account = await requireAccountOf(user.id, params.customerId);
  return syncViewOf(account.customerId);
});

/** POST: start a sync now; answers at once (202) with the state, poll GET for progress. */
export const action = apiRoute({ method: "POST", allow: "GET, POST", status: 202, tokenScope: "read" }, async ({ params }: Route.ActionArgs, { user }) => {
  const account = await requireAccountOf(user.id, params.customerId);
  if (account.manager) throw new InvalidError("A manager account has no campaigns of its own; sync one of its client accounts.");
  return startSync(user.id, account);
});
