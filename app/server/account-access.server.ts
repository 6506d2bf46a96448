import { data } from "react-router";
import { getAccount } from "./ads/accounts.server";
import { requireOwnAccount } from "./ads/context.server";
import type { AdsAccount, User } from "./db/schema";

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

/** The account the signed-in user works on, or null when none is connected (the seed's screens). */
export async function activeAccountOf(user: User): Promise<ReportAccount | null> {
  if (!user.active_customer_id) return null;
  const account = await getAccount(user.id, user.active_customer_id);
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
