import { getConnection } from "../auth/google-connection.server";
import { getDb, type DB } from "../db/db.server";
import type { AdsAccount } from "../db/schema";
import { ConflictError, NotFoundError } from "../domain-errors.server";
import { adsClientFor, type ClientOptions } from "./accounts.server";
import type { AdsClient, AdsClientOptions } from "./client.server";

// The one door to Google for an account (Shopify's authenticate.admin
// pattern): the ownership check, the connection and a client acting as the
// account's Google user, assembled once for sync, history import and the
// change pipeline.

export const NO_SUCH_ACCOUNT = "No such Google Ads account";
export const MANAGER_ACCOUNT = "A manager account has no campaigns of its own; choose one of its client accounts.";

export interface OwnAccountOptions {
  db?: DB;
  /** A manager (MCC) account passes too (listing, its sync state); otherwise it is refused. */
  allowManager?: boolean;
  /** Key the failure's field error by this input field (e.g. "customerId" for a form). */
  field?: string;
}

/**
 * The one ownership check: the account is this user's. Another user's account
 * is indistinguishable from a missing one (no ids leak across users).
 */
export async function requireOwnAccount(userId: string, customerId: string, opts: OwnAccountOptions = {}): Promise<AdsAccount> {
  const db = opts.db ?? getDb();
  const fail = (message: string): never => {
    throw new NotFoundError(message, opts.field ? { [opts.field]: message } : undefined);
  };
  const account = /^\d{10}$/.test(customerId)
    ? await db.selectFrom("ads_accounts").selectAll().where("user_id", "=", userId).where("customer_id", "=", customerId).executeTakeFirst()
    : undefined;
  if (!account) return fail(NO_SUCH_ACCOUNT);
  // To a form or the API a manager account is just not a target ("no such account"); a sync says why.
  if (account.manager === 1 && !opts.allowManager) return fail(opts.field ? NO_SUCH_ACCOUNT : MANAGER_ACCOUNT);
  return account;
}

export interface AdsContext {
  account: AdsAccount;
  client: AdsClient;
  /** The manager account Google must be told the call goes through, if any. */
  loginCustomerId: string | undefined;
}

export interface AdsContextOptions extends Pick<ClientOptions, "purpose" | "clock" | "onRecorded"> {
  db?: DB;
  /** Wraps the client's HTTP calls (e.g. to read response headers). */
  fetch?: AdsClientOptions["fetch"];
  /** A ready client (tests, benchmarks) instead of one for the user's connection. */
  client?: AdsClient;
}

/** The user's (non-manager) account with a Google client acting for it; a missing connection is a conflict (connect first). */
export async function requireAdsContext(userId: string, customerId: string, opts: AdsContextOptions = {}): Promise<AdsContext> {
  const db = opts.db ?? getDb();
  const account = await requireOwnAccount(userId, customerId, { db, field: "customerId" });
  const connection = await getConnection(userId, db);
  // Accounts go with their connection (foreign key), so this is a guard for a disconnect racing the call.
  if (!connection) throw new ConflictError("Connect a Google Ads account first");
  const client =
    opts.client ??
    adsClientFor(connection, { db, purpose: opts.purpose, clock: opts.clock, onRecorded: opts.onRecorded, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  return { account, client, loginCustomerId: account.login_customer_id ?? undefined };
}
