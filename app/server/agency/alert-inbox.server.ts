import { sql, type SqlBool } from "kysely";
import { z } from "zod";
import { getDb, type DB } from "../db/db.server";
import type { AlertRule } from "../db/schema";
import { ALERT_RULES, RULE_LABEL } from "~/lib/alert-rules";
import { InvalidError, NotFoundError } from "../domain-errors.server";

// A person's view of the alerts of their client accounts: the bell's count, the
// alerts page and the API. Alerts are the account's (alerts.server.ts); what
// was read and what is muted are each person's own.

export { ALERT_RULES, RULE_LABEL };

export interface AlertView {
  id: string;
  customerId: string;
  accountName: string;
  rule: AlertRule;
  ruleLabel: string;
  campaignId: string | null;
  title: string;
  figures: Record<string, unknown>;
  startedOn: string;
  status: "open" | "resolved";
  resolvedBy: "check" | "user" | null;
  resolvedAt: string | null;
  lastSeenAt: string;
  createdAt: string;
  evidencePath: string;
  recommendationId: string | null;
  read: boolean;
  muted: boolean;
}

export const AlertListQuery = z.object({
  status: z.enum(["open", "resolved", "all"]).default("open"),
  customerId: z
    .string()
    .regex(/^\d{10}$/, "customerId is 10 digits")
    .optional(),
  muted: z.enum(["hide", "show"]).default("hide").describe("show: include alerts of muted rules and accounts"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AlertListQuery = z.output<typeof AlertListQuery>;

const PAGE_SIZE = 50;

/** Whether a mute of the user covers the alert (its account, its rule, or both wildcards). */
function mutedExpr(userId: string) {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM alert_mutes mu WHERE mu.user_id = ${userId} AND (mu.customer_id = al.customer_id OR mu.customer_id = '*') AND (mu.rule = al.rule OR mu.rule = '*'))`;
}

function base(db: DB, userId: string) {
  return db
    .selectFrom("alerts as al")
    .innerJoin("ads_accounts as a", (j) => j.onRef("a.customer_id", "=", "al.customer_id").on("a.user_id", "=", userId).on("a.manager", "=", 0))
    .leftJoin("alert_reads as r", (j) => j.onRef("r.alert_id", "=", "al.id").on("r.user_id", "=", userId));
}

export async function listAlerts(userId: string, query: AlertListQuery, db: DB = getDb()) {
  let q = base(db, userId);
  if (query.status !== "all") q = q.where("al.status", "=", query.status);
  if (query.customerId) q = q.where("al.customer_id", "=", query.customerId);
  if (query.muted === "hide") q = q.where(sql<SqlBool>`NOT ${mutedExpr(userId)}`);
  const [count, rows] = await Promise.all([
    q.select(sql<number>`COUNT(*)`.as("n")).executeTakeFirstOrThrow(),
    q
      .select([
        "al.id",
        "al.customer_id",
        "a.name as account_name",
        "al.rule",
        "al.campaign_id",
        "al.title",
        "al.figures_json",
        "al.started_on",
        "al.status",
        "al.resolved_by",
        "al.resolved_at",
        "al.last_seen_at",
        "al.created_at",
        "al.evidence_path",
        "al.recommendation_id",
        "r.read_at",
        mutedExpr(userId).as("muted"),
      ])
      .orderBy("al.created_at", "desc")
      .orderBy("al.id")
      .limit(PAGE_SIZE)
      .offset((query.page - 1) * PAGE_SIZE)
      .execute(),
  ]);
  const alerts: AlertView[] = rows.map((r) => ({
    id: r.id,
    customerId: r.customer_id,
    accountName: r.account_name,
    rule: r.rule,
    ruleLabel: RULE_LABEL[r.rule],
    campaignId: r.campaign_id,
    title: r.title,
    figures: JSON.parse(r.figures_json) as Record<string, unknown>,
    startedOn: r.started_on,
    status: r.status,
    resolvedBy: r.resolved_by,
    resolvedAt: r.resolved_at,
    lastSeenAt: r.last_seen_at,
    createdAt: r.created_at,
    evidencePath: r.evidence_path,
    recommendationId: r.recommendation_id,
    read: r.read_at !== null,
    muted: Boolean(Number(r.muted)),
  }));
  return { alerts, total: Number(count.n), page: query.page, pageSize: PAGE_SIZE };
}

/** The bell: open alerts of the user's accounts not yet read and not muted. */
export async function unreadAlertCount(userId: string, db: DB = getDb()): Promise<number> {
  const row = await base(db, userId)
    .where("al.status", "=", "open")
    .where("r.read_at", "is", null)
    .where(sql<SqlBool>`NOT ${mutedExpr(userId)}`)
    .select(sql<number>`COUNT(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function requireAlert(userId: string, id: string, db: DB) {
  const row = /^[0-9a-f-]{36}$/.test(id) ? await base(db, userId).where("al.id", "=", id).select(["al.id", "al.status"]).executeTakeFirst() : undefined;
  if (!row) throw new NotFoundError("Alert not found");
  return row;
}

/** Marks alerts read: the ones named, or every open one of the user's accounts. */
export async function markAlertsRead(userId: string, ids: string[] | "all", db: DB = getDb()): Promise<number> {
  const targets =
    ids === "all"
      ? (await base(db, userId).where("al.status", "=", "open").where("r.read_at", "is", null).select("al.id").execute()).map((r) => r.id)
      : await Promise.all(ids.map(async (id) => (await requireAlert(userId, id, db)).id));
  const at = new Date().toISOString();
  for (const id of targets) {
    await db
      .insertInto("alert_reads")
      .values({ user_id: userId, alert_id: id, read_at: at })
      .onConflict((oc) => oc.columns(["user_id", "alert_id"]).doNothing())
      .execute();
  }
  return targets.length;
}

/** A person resolves an alert: it stays resolved for the rest of its episode (ADR 029). */
export async function resolveAlert(userId: string, id: string, db: DB = getDb()): Promise<void> {
  const alert = await requireAlert(userId, id, db);
  if (alert.status === "resolved") throw new InvalidError("This alert is already resolved");
  await db
    .updateTable("alerts")
    .set({ status: "resolved", resolved_by: "user", resolved_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("status", "=", "open")
    .execute();
  await markAlertsRead(userId, [id], db);
}

export const MuteInput = z
  .object({
    customerId: z
      .string()
      .regex(/^\d{10}$/, "customerId is 10 digits")
      .nullable()
      .describe("null: every account"),
    rule: z.enum(ALERT_RULES).nullable().describe("null: every rule"),
    muted: z.boolean(),
  })
  .strict()
  .refine((m) => m.customerId !== null || m.rule !== null, { message: "Name an account, a rule, or both", path: ["rule"] });

/** Mutes (or unmutes) a rule, an account, or a rule in one account, for this person only. */
export async function setMute(userId: string, input: z.output<typeof MuteInput>, db: DB = getDb()): Promise<void> {
  if (input.customerId) {
    const own = await db
      .selectFrom("ads_accounts")
      .select("customer_id")
      .where("user_id", "=", userId)
      .where("customer_id", "=", input.customerId)
      .where("manager", "=", 0)
      .executeTakeFirst();
    if (!own) throw new NotFoundError("No such client account", { customerId: "No such client account" });
  }
  const key = { user_id: userId, customer_id: input.customerId ?? "*", rule: input.rule ?? "*" };
  if (input.muted) {
    await db
      .insertInto("alert_mutes")
      .values({ ...key, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(["user_id", "customer_id", "rule"]).doNothing())
      .execute();
  } else {
    await db.deleteFrom("alert_mutes").where("user_id", "=", key.user_id).where("customer_id", "=", key.customer_id).where("rule", "=", key.rule).execute();
  }
}

export async function listMutes(userId: string, db: DB = getDb()) {
  const rows = await db
    .selectFrom("alert_mutes as mu")
    .leftJoin("ads_accounts as a", (j) => j.onRef("a.customer_id", "=", "mu.customer_id").on("a.user_id", "=", userId))
    .select(["mu.customer_id", "mu.rule", "a.name"])
    .where("mu.user_id", "=", userId)
    .orderBy("mu.created_at")
    .execute();
  return rows.map((r) => ({
    customerId: r.customer_id === "*" ? null : r.customer_id,
    accountName: r.customer_id === "*" ? null : (r.name ?? r.customer_id),
    rule: r.rule === "*" ? null : (r.rule as AlertRule),
  }));
}
