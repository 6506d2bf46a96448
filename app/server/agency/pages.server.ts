import { data } from "react-router";
import { z } from "zod";
import { formatCustomerId } from "~/lib/format";
import { setActiveAccount } from "../ads/accounts.server";
import { csvResponse, moneyUnits, toCsv, type CsvColumn } from "../csv.server";
import type { User } from "../db/schema";
import { getDb } from "../db/db.server";
import { safeReturnPath } from "../http/return-path.server";
import { startFirstSync } from "../sync-status.server";
import { redirectWithToast } from "../toast.server";
import { accountsOverview, parseOverviewQuery, type OverviewRow } from "./overview.server";

// The screens of the accounts overview: the page, its CSV, and "make this the active account".

export async function accountsPage(user: User, url: URL) {
  const { query, ignored } = parseOverviewQuery(url.searchParams);
  const overview = await accountsOverview(user.id, query);
  return { ...overview, query, ignored, activeCustomerId: user.active_customer_id, now: new Date().toISOString() };
}

const SelectAccount = z.object({
  intent: z.literal("select-account"),
  customerId: z
    .string()
    .transform((s) => s.replace(/-/g, ""))
    .pipe(z.string().regex(/^\d{10}$/, "Choose an account")),
  returnTo: z.string().optional(),
});

/**
 * Makes a client account the active one, then goes where the person was
 * headed (the dashboard by default). The header switcher posts here too.
 */
export async function accountsAction(user: User, form: FormData) {
  const parsed = SelectAccount.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  const ok = await setActiveAccount(user.id, parsed.data.customerId);
  if (!ok) return data({ error: "That account is not one of your client accounts" }, { status: 400 });
  // An account never imported gets its first sync now; the others are refreshed on their schedule.
  await startFirstSync(user.id);
  const account = await getDb()
    .selectFrom("ads_accounts")
    .select("name")
    .where("user_id", "=", user.id)
    .where("customer_id", "=", parsed.data.customerId)
    .executeTakeFirst();
  return redirectWithToast(safeReturnPath(parsed.data.returnTo, "/dashboard"), {
    type: "success",
    message: `Now working on ${account?.name ?? formatCustomerId(parsed.data.customerId)}`,
  });
}

const round2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);

const CSV_COLUMNS: CsvColumn<OverviewRow>[] = [
  { header: "Account", value: (r) => r.name },
  { header: "Customer ID", value: (r) => formatCustomerId(r.customerId) },
  { header: "Manager", value: (r) => r.manager?.name ?? "" },
  { header: "Currency", value: (r) => r.currencyCode },
  { header: "From", value: (r) => r.period.from },
  { header: "To", value: (r) => r.period.to },
  { header: "Cost", value: (r) => moneyUnits(r.costMicros) },
  { header: "Conversions", value: (r) => round2(r.conversions) },
  { header: "Cost / conv.", value: (r) => moneyUnits(r.cpaMicros) },
  { header: "Target CPA", value: (r) => moneyUnits(r.target.cpaMicros) },
  { header: "ROAS", value: (r) => round2(r.roas) },
  { header: "Target ROAS", value: (r) => r.target.roas },
  { header: "Monthly budget", value: (r) => moneyUnits(r.pacing?.budgetMicros ?? null) },
  { header: "Projected month-end", value: (r) => moneyUnits(r.pacing?.projectedMicros ?? null) },
  { header: "Pacing", value: (r) => (r.pacing ? r.pacing.status : "") },
  { header: "Performance Score", value: (r) => r.score },
  { header: "Open recommendations", value: (r) => r.openRecommendations },
  { header: "Recommendations impact / month", value: (r) => r.recommendationsImpact },
  { header: "Open alerts", value: (r) => r.activeAlerts },
  { header: "Data as of", value: (r) => r.dataAsOf },
  { header: "Needs attention", value: (r) => r.attention.join("; ") },
];

/** GET /export/accounts: every account matching the page's filters and sort, not only the page shown. */
export async function accountsCsv(user: User, url: URL): Promise<Response> {
  const { query } = parseOverviewQuery(url.searchParams);
  const overview = await accountsOverview(user.id, query, { all: true });
  return csvResponse("accounts-overview.csv", toCsv(CSV_COLUMNS, overview.accounts));
}
