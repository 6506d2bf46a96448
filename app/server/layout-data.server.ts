import { sql } from "kysely";
import { activeAccountRow } from "./account-access.server";
import { getConnection } from "./auth/google-connection.server";
import type { SessionContext } from "./auth/session.server";
import { getConfig } from "./env.server";
import { countDrafts } from "./changes/drafts.server";
import { getDb } from "./db/db.server";
import { unreadAlertCount } from "./agency/alert-inbox.server";

/** What the signed-in shell shows on every screen: who, which account, its drafts waiting, and any connection trouble. */
export async function loadLayoutData({ user }: SessionContext) {
  const [connection, account, clients, unreadAlerts] = await Promise.all([
    getConnection(user.id),
    activeAccountRow(user),
    switcherAccounts(user.id),
    unreadAlertCount(user.id),
  ]);
  // The navigation's count of drafts waiting (the layout's loader runs again after every form post, so it follows applies and discards).
  const draftCount = account && account.manager !== 1 ? await countDrafts(user.id, account.customer_id) : null;
  return {
    draftCount,
    email: user.email,
    demoMode: getConfig().demoMode,
    connection: connection ? { status: connection.status, statusReason: connection.status_reason } : null,
    activeAccount: account ? { customerId: account.customer_id, name: account.name } : null,
    // The header's switcher, once there is something to switch between.
    switcher: clients.length > 1 ? clients : null,
    // The bell: with any client account; null (no bell) in the seed's state.
    unreadAlerts: clients.length > 0 ? unreadAlerts : null,
  };
}

/** The user's client accounts with their managers' names, for the account switcher. */
async function switcherAccounts(userId: string) {
  const rows = await getDb()
    .selectFrom("ads_accounts as a")
    .leftJoin("ads_accounts as m", (j) => j.onRef("m.user_id", "=", "a.user_id").onRef("m.customer_id", "=", "a.login_customer_id"))
    .select(["a.customer_id", "a.name", "m.name as manager_name"])
    .where("a.user_id", "=", userId)
    .where("a.manager", "=", 0)
    // Directly reached accounts after the managers' (both databases place NULL differently).
    .orderBy(sql`CASE WHEN m.name IS NULL THEN 1 ELSE 0 END`)
    .orderBy("m.name")
    .orderBy("a.name")
    .execute();
  return rows.map((r) => ({ customerId: r.customer_id, name: r.name, manager: r.manager_name ?? null }));
}
