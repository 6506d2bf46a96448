import { sql, type SqlBool } from "kysely";
import { z } from "zod";
import { RULE_LABEL } from "~/lib/alert-rules";
import { formatCustomerId } from "~/lib/format";
import { getDb, type DB } from "../db/db.server";
import type { AlertsTable } from "../db/schema";
import { queueMail } from "../email/outbox.server";
import { getConfig } from "../env.server";
import { getPreference, setPreference } from "../preferences.server";

// Issue 31 point 4, by email (the outbox of issue 27, SMTP_URL): a person who
// chose "at once" gets a mail for each new alert of their client accounts,
// unless they muted its rule or its account. The daily digest is
// alert-digest.server.ts, the webhook alert-webhook.server.ts.

export const ALERT_EMAIL_PREFERENCE = "alert-email";
/** "digest": one mail a day with the day's alerts (alert-digest.server.ts). */
export const AlertEmailMode = z.enum(["off", "immediate", "digest"]);
export type AlertEmailMode = z.output<typeof AlertEmailMode>;

export async function alertEmailMode(userId: string): Promise<AlertEmailMode> {
  return (await getPreference(userId, ALERT_EMAIL_PREFERENCE, AlertEmailMode)) ?? "off";
}

export async function setAlertEmailMode(userId: string, mode: AlertEmailMode): Promise<void> {
  await setPreference(userId, ALERT_EMAIL_PREFERENCE, AlertEmailMode.parse(mode));
}

/** Queues the mails of new alerts (after they are stored: the outbox writes in a transaction of its own). */
export async function mailNewAlerts(alerts: AlertsTable[], db: DB = getDb()): Promise<number> {
  let queued = 0;
  for (const alert of alerts) {
    const recipients = await db
      .selectFrom("ads_accounts as a")
      .innerJoin("users as u", "u.id", "a.user_id")
      .innerJoin("user_preferences as p", (j) => j.onRef("p.user_id", "=", "u.id").on("p.name", "=", ALERT_EMAIL_PREFERENCE))
      .select(["u.id", "u.email", "a.name", "p.value"])
      .where("a.customer_id", "=", alert.customer_id)
      .where("a.manager", "=", 0)
      .where(
        sql<SqlBool>`NOT EXISTS (SELECT 1 FROM alert_mutes mu WHERE mu.user_id = u.id AND (mu.customer_id = ${alert.customer_id} OR mu.customer_id = '*') AND (mu.rule = ${alert.rule} OR mu.rule = '*'))`,
      )
      .execute();
    for (const r of recipients) {
      const mode = AlertEmailMode.safeParse(safeJson(r.value));
      if (!mode.success || mode.data !== "immediate") continue;
      await queueMail(
        {
          to: r.email,
          subject: `${RULE_LABEL[alert.rule]}: ${r.name}`,
          text: [
            `${r.name} (${formatCustomerId(alert.customer_id)})`,
            "",
            alert.title,
            `Since ${alert.started_on}.`,
            "",
            `See it: ${getConfig().APP_URL}/alerts`,
            "",
            "You get these mails because you chose alerts by email at once. Change it, or mute this rule, on the alerts page.",
          ].join("\n"),
        },
        db,
      );
      queued += 1;
    }
  }
  return queued;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
