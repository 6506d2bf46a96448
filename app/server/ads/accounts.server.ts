import { z } from "zod";
import { getDb, type DB } from "../db/db.server";
import type { AdsAccount, GoogleConnection } from "../db/schema";
import { getConfig } from "../env.server";
import { getConnection, getGoogleAccessToken, ReconnectNeededError } from "../auth/google-connection.server";
import { AdsClientError, createAdsClient, Int64, parseRows, type AdsClient, type AdsClientOptions } from "./client.server";
import { errorMessage, log } from "../log.server";
import { ledgerMeter, type LedgerOptions } from "./quota.server";

export interface ClientOptions extends Partial<LedgerOptions> {
  db?: DB;
  fetch?: AdsClientOptions["fetch"];
}

/**
 * An Ads API client acting as this connection's Google user. Every request goes through the install's
 * operations ledger, as what a person does unless `purpose` says a scheduled refresh.
 */
export function adsClientFor(connection: GoogleConnection, opts: ClientOptions = {}): AdsClient {
  const { google } = getConfig();
  return createAdsClient({
    baseUrl: google.adsApiUrl,
    version: google.adsApiVersion,
    developerToken: google.developerToken,
    getAccessToken: (tokenOpts) => getGoogleAccessToken(connection, tokenOpts, opts.db),
    meter: ledgerMeter({ purpose: opts.purpose ?? "interactive", clock: opts.clock, onRecorded: opts.onRecorded }),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

const CustomerRow = z.object({
  customer: z.object({
    id: Int64,
    descriptiveName: z.string().optional(),
    currencyCode: z.string(),
    timeZone: z.string(),
    manager: z.boolean().optional(),
  }),
});

const ClientRow = z.object({
  customerClient: z.object({
    clientCustomer: z.string(),
    descriptiveName: z.string().optional(),
    currencyCode: z.string(),
    timeZone: z.string(),
    manager: z.boolean().optional(),
    level: Int64,
    status: z.string().optional(),
  }),
});

interface DiscoveredAccount {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  manager: boolean;
  loginCustomerId: string | null;
}

/** Every account the user can reach: the directly accessible ones and, under managers, their clients. */
async function discoverAccounts(client: AdsClient): Promise<DiscoveredAccount[]> {
  const found = new Map<string, DiscoveredAccount>();
  for (const customerId of await client.listAccessibleCustomers()) {
    const [row] = parseRows(
      CustomerRow,
      await client.searchStream(
        customerId,
        "SELECT customer.id, customer.descriptive_name, customer.currency_code, customer.time_zone, customer.manager FROM customer LIMIT 1",
      ),
      "customer",
    );
    if (!row) continue;
    const manager = row.customer.manager === true;
    found.set(customerId, {
      customerId,
      name: row.customer.descriptiveName || customerId,
      currencyCode: row.customer.currencyCode,
      timeZone: row.customer.timeZone,
      manager,
      loginCustomerId: null,
    });
    if (!manager) continue;
    const clients = parseRows(
      ClientRow,
      await client.searchStream(
        customerId,
        "SELECT customer_client.client_customer, customer_client.descriptive_name, customer_client.currency_code, customer_client.time_zone, customer_client.manager, customer_client.level, customer_client.status FROM customer_client WHERE customer_client.level > 0",
        { loginCustomerId: customerId },
      ),
      "customer_client",
    );
    for (const { customerClient: c } of clients) {
      const id = c.clientCustomer.replace(/^customers\//, "");
      if (found.has(id) || (c.status && c.status !== "ENABLED")) continue;
      found.set(id, {
        customerId: id,
        name: c.descriptiveName || id,
        currencyCode: c.currencyCode,
        timeZone: c.timeZone,
        manager: c.manager === true,
        loginCustomerId: customerId,
      });
    }
  }
  return [...found.values()];
}

export type RefreshResult = { ok: true; accounts: AdsAccount[] } | { ok: false; error: string };

/**
 * Re-reads the account list from Google. On failure the previous list stays
 * and the reason is kept on the connection so the UI can say what failed.
 */
export async function refreshAccounts(userId: string, db: DB = getDb()): Promise<RefreshResult> {
  const connection = await getConnection(userId, db);
  if (!connection) return { ok: false, error: "Google Ads is not connected." };
  const now = new Date().toISOString();
  let discovered: DiscoveredAccount[];
  try {
    discovered = await discoverAccounts(adsClientFor(connection, { db }));
  } catch (error) {
    const message =
      error instanceof AdsClientError || error instanceof ReconnectNeededError
        ? ((error as AdsClientError).userMessage ?? error.message)
        : "The Google Ads API could not be reached.";
    if (!(error instanceof AdsClientError || error instanceof ReconnectNeededError)) {
      log.warn(`Account discovery failed: ${errorMessage(error)}`);
    }
    await db.updateTable("google_connections").set({ accounts_error: message, updated_at: now }).where("id", "=", connection.id).execute();
    return { ok: false, error: message };
  }

  const rows: AdsAccount[] = discovered.map((a) => ({
    user_id: userId,
    customer_id: a.customerId,
    connection_id: connection.id,
    name: a.name,
    currency_code: a.currencyCode,
    time_zone: a.timeZone,
    manager: a.manager ? 1 : 0,
    login_customer_id: a.loginCustomerId,
    updated_at: now,
  }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("ads_accounts").where("user_id", "=", userId).execute();
    if (rows.length) await trx.insertInto("ads_accounts").values(rows).execute();
    await trx
      .updateTable("google_connections")
      .set({ accounts_error: null, accounts_synced_at: now, access_checked_at: now, updated_at: now })
      .where("id", "=", connection.id)
      .execute();
    const user = await trx.selectFrom("users").select("active_customer_id").where("id", "=", userId).executeTakeFirstOrThrow();
    if (!rows.some((r) => r.customer_id === user.active_customer_id)) {
      // Default to the first account with its own campaigns: a manager has none.
      const pick = rows.find((r) => r.manager === 0) ?? rows[0];
      await trx
        .updateTable("users")
        .set({ active_customer_id: pick?.customer_id ?? null, updated_at: now })
        .where("id", "=", userId)
        .execute();
    }
  });
  return { ok: true, accounts: rows };
}

export async function listAccounts(userId: string, db: DB = getDb()): Promise<AdsAccount[]> {
  return db.selectFrom("ads_accounts").selectAll().where("user_id", "=", userId).orderBy("manager", "desc").orderBy("name").execute();
}

/** The account a user acts on; null unless it is one of theirs. */
export async function getAccount(userId: string, customerId: string, db: DB = getDb()) {
  return db.selectFrom("ads_accounts").selectAll().where("user_id", "=", userId).where("customer_id", "=", customerId).executeTakeFirst();
}

export async function setActiveAccount(userId: string, customerId: string, db: DB = getDb()): Promise<boolean> {
  const account = await getAccount(userId, customerId, db);
  if (!account || account.manager === 1) return false;
  await db.updateTable("users").set({ active_customer_id: customerId, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
  return true;
}

/**
 * Access that Google took away (issue 25 point 4). Whether a user may read an
 * account is decided by their local account list (`ads_accounts`), while the
 * data itself stays fresh through other users' syncs, so the list must follow
 * Google. The check is due after every refresh of the user's access token
 * (the refresh clears `access_checked_at`, wherever it happens: a sync's
 * thread, an apply) and a day after the last one; the user's next request
 * runs it. What Google no longer grants is dropped (pages, API, shared
 * targets and recommendations all go by that list) and logged.
 */
export const ACCESS_CHECK_INTERVAL_MS = 24 * 3600_000;

/**
 * For a request of a signed-in user whose connection's last check
 * (`checkedAt`; null: due now) is older than a day: the check, claimed in the
 * database first so that of several requests or instances exactly one runs
 * it. Never throws; a failed check is logged and due again the next day (or
 * at the next token refresh).
 */
export async function recheckAccessIfDue(userId: string, checkedAt: string | null, db: DB = getDb(), now = Date.now()): Promise<void> {
  if (checkedAt && now - Date.parse(checkedAt) < ACCESS_CHECK_INTERVAL_MS) return;
  try {
    const claim = await db
      .updateTable("google_connections")
      .set({ access_checked_at: new Date(now).toISOString() })
      .where("user_id", "=", userId)
      .where("status", "=", "active")
      .where((eb) => eb.or([eb("access_checked_at", "is", null), eb("access_checked_at", "<", new Date(now - ACCESS_CHECK_INTERVAL_MS).toISOString())]))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) return;
    const before = await db.selectFrom("ads_accounts").select("customer_id").where("user_id", "=", userId).execute();
    const result = await refreshAccounts(userId, db);
    if (!result.ok) {
      log.warn({ userId }, `Could not re-check which Google Ads accounts the user may reach: ${result.error}`);
      return;
    }
    const granted = new Set(result.accounts.map((a) => a.customer_id));
    const dropped = before.map((a) => a.customer_id).filter((id) => !granted.has(id));
    if (dropped.length > 0) {
      log.warn({ userId, customerIds: dropped }, `Google no longer grants this user ${dropped.length} account(s): dropped from their accounts`);
    }
  } catch (error) {
    log.warn({ userId }, `Could not re-check which Google Ads accounts the user may reach: ${errorMessage(error)}`);
  }
}

/** Starts the due check for a signed-in request without making it wait: it answers with what is there now. */
export function recheckAccessInBackground(session: { user: { id: string }; googleAccess: { checkedAt: string | null } | null }) {
  const checkedAt = session.googleAccess?.checkedAt;
  if (checkedAt === undefined || (checkedAt && Date.now() - Date.parse(checkedAt) < ACCESS_CHECK_INTERVAL_MS)) return;
  void recheckAccessIfDue(session.user.id, checkedAt);
}
