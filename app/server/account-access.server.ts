import { data } from "react-router";
import { getAccount } from "./ads/accounts.server";
import { requireOwnAccount } from "./ads/context.server";
import type { AdsAccount, User } from "./db/schema";
import { currentSession, type RequestContext } from "./request-context.server";

// Which Google Ads account a request may read: the user's active one for the
// pages, one of theirs by id for the API (another user's looks like an unknown one).

export interface ReportAccount {
  customerId: string;
  name: string;
  currencyCode: string;
  timeZone: string;
  /** A manager (MCC) account: no campaigns of its own, nothing to sync. */
  manager: boolean;
}

function toReportAccount(a: AdsAccount): ReportAccount {
  return { customerId: a.customer_id, name: a.name, currencyCode: a.currency_code, timeZone: a.time_zone, manager: a.manager === 1 };
}

// The app layout and the page below it both need the active account. They
// receive the same User object, which the request's one session lookup
// created (ADR 015), so the row is looked up once per request and forgotten
// with it; the next request's User is a new object and reads the row again.
const activeRows = new WeakMap<User, Promise<AdsAccount | undefined>>();

/** The user's active account row (a manager account included), once per request. */
export function activeAccountRow(user: User): Promise<AdsAccount | undefined> {
  if (!user.active_customer_id) return Promise.resolve(undefined);
  let row = activeRows.get(user);
  if (!row) {
    row = getAccount(user.id, user.active_customer_id);
    activeRows.set(user, row);
  }
  return row;
}

/** The account the signed-in user works on, or null when none is connected (the seed's screens). */
export async function activeAccountOf(user: User): Promise<ReportAccount | null> {
  const account = await activeAccountRow(user);
  // A manager account has no campaigns of its own.
  if (!account || account.manager === 1) return null;
  return toReportAccount(account);
}

/** One of the caller's accounts, or a 404: another user's id must look exactly like an unknown one. */
export async function requireAccountOf(userId: string, customerId: string): Promise<ReportAccount> {
  return toReportAccount(await requireOwnAccount(userId, customerId, { allowManager: true }));
}

export function notFound(): never {
  throw data(null, { status: 404, statusText: "Not Found" });
}

/**
 * A status document the pages poll for the signed-in user's active account
 * (GET /sync, GET /analysis), never stored: 401 without a session, 404
 * without an account, else what `read` gives for the account.
 */
export async function activeAccountStatus<T>(request: Request, context: RequestContext, read: (customerId: string) => Promise<T>) {
  const session = await currentSession(request, context);
  const headers = { "Cache-Control": "no-store" };
  if (!session) return data({ detail: "Not signed in" }, { status: 401, headers });
  const account = await activeAccountOf(session.user);
  if (!account) return data({ detail: "No Google Ads account connected" }, { status: 404, headers });
  return data(await read(account.customerId), { headers });
}
