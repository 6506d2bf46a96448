import { activeAccountRow } from "./account-access.server";
import { getConnection } from "./auth/google-connection.server";
import type { SessionContext } from "./auth/session.server";
import { getConfig } from "./env.server";
import { countDrafts } from "./changes/drafts.server";

/** What the signed-in shell shows on every screen: who, which account, its drafts waiting, and any connection trouble. */
export async function loadLayoutData({ user }: SessionContext) {
  const [connection, account] = await Promise.all([getConnection(user.id), activeAccountRow(user)]);
  // The navigation's count of drafts waiting (the layout's loader runs again after every form post, so it follows applies and discards).
  const draftCount = account && account.manager !== 1 ? await countDrafts(user.id, account.customer_id) : null;
  return {
    draftCount,
    email: user.email,
    demoMode: getConfig().demoMode,
    connection: connection ? { status: connection.status, statusReason: connection.status_reason } : null,
    activeAccount: account ? { customerId: account.customer_id, name: account.name } : null,
  };
}
