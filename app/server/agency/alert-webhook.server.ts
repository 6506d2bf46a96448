import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { sql, type SqlBool } from "kysely";
import { z } from "zod";
import { RULE_LABEL } from "~/lib/alert-rules";
import { formatCustomerId } from "~/lib/format";
import { getDb, type DB } from "../db/db.server";
import type { AlertsTable } from "../db/schema";
import { InvalidError } from "../domain-errors.server";
import { getConfig } from "../env.server";
import { defineJob, enqueue, RetryLater } from "../jobs/jobs.server";
import { log } from "../log.server";

/**
 * Issue 31 point 4, by webhook: a person sets a URL per client account; each
 * new alert of that account (unless its rule or the account is muted) is POSTed
 * there as JSON with a Slack-compatible `text` field, signed with the webhook's
 * own secret:
 *
 *   X-Ads-Timestamp: <unix seconds>
 *   X-Ads-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 *
 * (the timestamp is signed so a captured request cannot be replayed later).
 * A "send-webhook" job sends one delivery; an answer other than 2xx, or none,
 * is retried with doubling delays (RetryLater, so the delay is ours, not the
 * queue's) up to MAX_ATTEMPTS, and every attempt is kept for the delivery log.
 */

export const MAX_ATTEMPTS = 6;
const TIMEOUT_MS = 10_000;
let retryBaseMs = 30_000;

/** Tests retry in milliseconds instead of half a minute. */
export function setWebhookRetryBaseMsForTests(ms: number | null) {
  retryBaseMs = ms ?? 30_000;
}

/** Delay before attempt `attempt + 1`: 30 s, 1 min, 2 min, … (doubling, capped at an hour). */
export function webhookRetryDelayMs(attempt: number): number {
  return Math.min(3_600_000, retryBaseMs * 2 ** (attempt - 1));
}

/** http only for this machine (a receiver beside the app); anything leaving it must be https. */
export const WebhookUrl = z
  .string()
  .trim()
  .min(1, "Enter the webhook's URL")
  .max(2000, "That URL is too long")
  .pipe(z.url({ error: "Enter a full URL, such as https://hooks.slack.com/services/…" }))
  .refine((u) => {
    // zod runs this even after z.url() refused the text: a bad URL is that issue's, not this one's.
    if (!URL.canParse(u)) return true;
    const url = new URL(u);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  }, "The URL must start with https:// (http:// only for localhost)");

export function signPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

function newSecret() {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

async function ownClientAccount(db: DB, userId: string, customerId: string) {
  return db
    .selectFrom("ads_accounts")
    .select("name")
    .where("user_id", "=", userId)
    .where("customer_id", "=", customerId)
    .where("manager", "=", 0)
    .executeTakeFirst();
}

/** Sets (or changes) the account's webhook URL; a new webhook gets a new signing secret, a changed URL keeps it. */
export async function setWebhook(userId: string, customerId: string, rawUrl: string, db: DB = getDb()): Promise<void> {
  const url = WebhookUrl.safeParse(rawUrl);
  if (!url.success) throw new InvalidError(url.error.issues[0].message);
  if (!(await ownClientAccount(db, userId, customerId))) throw new InvalidError("That account is not one of your client accounts");
  await db
    .insertInto("alert_webhooks")
    .values({ id: randomUUID(), user_id: userId, customer_id: customerId, url: url.data, secret: newSecret(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "customer_id"]).doUpdateSet({ url: url.data }))
    .execute();
}

export async function removeWebhook(userId: string, customerId: string, db: DB = getDb()): Promise<boolean> {
  const r = await db.deleteFrom("alert_webhooks").where("user_id", "=", userId).where("customer_id", "=", customerId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A fresh secret for the account's webhook (the old one stops verifying at once). */
export async function rotateWebhookSecret(userId: string, customerId: string, db: DB = getDb()): Promise<boolean> {
  const r = await db
    .updateTable("alert_webhooks")
    .set({ secret: newSecret() })
    .where("user_id", "=", userId)
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function listWebhooks(userId: string, db: DB = getDb()) {
  return db
    .selectFrom("alert_webhooks as w")
    .innerJoin("ads_accounts as a", (j) => j.onRef("a.user_id", "=", "w.user_id").onRef("a.customer_id", "=", "w.customer_id"))
    .select(["w.customer_id as customerId", "a.name", "w.url", "w.secret", "w.created_at as createdAt"])
    .where("w.user_id", "=", userId)
    .orderBy("a.name")
    .execute();
}

/** The delivery log: the person's last `limit` attempts, newest first. */
export async function webhookLog(userId: string, limit = 20, db: DB = getDb()) {
  const rows = await db
    .selectFrom("webhook_attempts as t")
    .innerJoin("webhook_deliveries as d", "d.id", "t.delivery_id")
    .innerJoin("alert_webhooks as w", "w.id", "d.webhook_id")
    .innerJoin("alerts as al", "al.id", "d.alert_id")
    .select(["t.id", "t.attempt", "t.http_status", "t.error", "t.at", "d.status", "w.customer_id", "w.url", "al.title"])
    .where("w.user_id", "=", userId)
    .orderBy("t.at", "desc")
    .orderBy("t.attempt", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    attempt: r.attempt,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    error: r.error,
    at: r.at,
    deliveryStatus: r.status,
    customerId: r.customer_id,
    url: r.url,
    alertTitle: r.title,
  }));
}

/** Queues one delivery per new alert and webhook of its account (after the alerts are stored). */
export async function queueWebhooksForAlerts(alerts: AlertsTable[], db: DB = getDb()): Promise<number> {
  let queued = 0;
  const appUrl = getConfig().APP_URL;
  for (const alert of alerts) {
    const hooks = await db
      .selectFrom("alert_webhooks as w")
      .innerJoin("ads_accounts as a", (j) => j.onRef("a.user_id", "=", "w.user_id").onRef("a.customer_id", "=", "w.customer_id"))
      .select(["w.id", "a.name"])
      .where("w.customer_id", "=", alert.customer_id)
      .where("a.manager", "=", 0)
      .where(
        sql<SqlBool>`NOT EXISTS (SELECT 1 FROM alert_mutes mu WHERE mu.user_id = w.user_id AND (mu.customer_id = ${alert.customer_id} OR mu.customer_id = '*') AND (mu.rule = ${alert.rule} OR mu.rule = '*'))`,
      )
      .execute();
    for (const hook of hooks) {
      const link = `${appUrl}/alerts`;
      const payload = JSON.stringify({
        text: `${RULE_LABEL[alert.rule]}: ${hook.name} (${formatCustomerId(alert.customer_id)}): ${alert.title}. Since ${alert.started_on}. ${link}`,
        alert: {
          id: alert.id,
          rule: alert.rule,
          title: alert.title,
          customerId: alert.customer_id,
          accountName: hook.name,
          campaignId: alert.campaign_id,
          startedOn: alert.started_on,
          figures: JSON.parse(alert.figures_json) as unknown,
          evidenceUrl: `${appUrl}${alert.evidence_path}`,
          url: link,
        },
      });
      const id = randomUUID();
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("webhook_deliveries")
          .values({ id, webhook_id: hook.id, alert_id: alert.id, payload, status: "pending", attempts: 0, created_at: now, updated_at: now })
          .onConflict((oc) => oc.columns(["webhook_id", "alert_id"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!inserted) return;
        await enqueue("send-webhook", { deliveryId: id }, { db: trx });
        queued += 1;
      });
    }
  }
  return queued;
}

/** One POST; the outcome of the attempt (never throws). */
async function post(url: string, secret: string, body: string): Promise<{ ok: boolean; status: number | null; error: string | null }> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "AdsAIManager-Webhook/1",
        "X-Ads-Timestamp": timestamp,
        "X-Ads-Signature": signPayload(secret, timestamp, body),
      },
      body,
      // A redirect would re-send the alert somewhere the person did not choose.
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message.slice(0, 300) : "No answer" };
  }
}

defineJob("send-webhook", {
  schema: z.object({ deliveryId: z.string().min(1) }),
  singletonKey: (d) => d.deliveryId,
  whileRunning: "queue",
  handler: async ({ deliveryId }) => {
    const db = getDb();
    const row = await db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("alert_webhooks as w", "w.id", "d.webhook_id")
      .select(["d.status", "d.attempts", "d.payload", "w.url", "w.secret"])
      .where("d.id", "=", deliveryId)
      .executeTakeFirst();
    // Removed webhook (cascade) or settled already.
    if (!row || row.status !== "pending") return;
    const attempt = Number(row.attempts) + 1;
    const outcome = await post(row.url, row.secret, row.payload);
    const at = new Date().toISOString();
    const status = outcome.ok ? "delivered" : attempt >= MAX_ATTEMPTS ? "failed" : "pending";
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("webhook_attempts")
        .values({ id: randomUUID(), delivery_id: deliveryId, attempt, http_status: outcome.status, error: outcome.error, at })
        .execute();
      await trx.updateTable("webhook_deliveries").set({ status, attempts: attempt, updated_at: at }).where("id", "=", deliveryId).execute();
    });
    if (status === "failed") log.warn({ deliveryId }, `An alert webhook failed after ${attempt} attempts: ${outcome.error}`);
    if (status === "pending") throw new RetryLater(`Webhook attempt ${attempt} failed: ${outcome.error}`, new Date(Date.now() + webhookRetryDelayMs(attempt)));
  },
  onFailed: async ({ deliveryId }) => {
    // A crash or timeout used up the job's own retries: the delivery is over, said in the log by its last attempt.
    await getDb()
      .updateTable("webhook_deliveries")
      .set({ status: "failed", updated_at: new Date().toISOString() })
      .where("id", "=", deliveryId)
      .where("status", "=", "pending")
      .execute();
  },
});
