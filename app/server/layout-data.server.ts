import { activeAccountRow } from "./account-access.server";
import { getConnection } from "./auth/google-connection.server";
import type { SessionContext } from "./auth/session.server";
import { getConfig } from "./env.server";

/** What the signed-in shell shows on every screen: who, which account, and any connection trouble. */
export async function loadLayoutData({ user }: SessionContext) {
  const [connection, account] = await Promise.all([getConnection(user.id), activeAccountRow(user)]);
  return {
    email: user.email,
    demoMode: getConfig().demoMode,
    connection: connection ? { status: connection.status, statusReason: connection.status_reason } : null,
    activeAccount: account ? { customerId: account.customer_id, name: account.name } : null,
  };
}
