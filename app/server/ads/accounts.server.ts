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
    discovered = await discoverAccounts(adsClientFor(connection));
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
      .set({ accounts_error: null, accounts_synced_at: now, updated_at: now })
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
