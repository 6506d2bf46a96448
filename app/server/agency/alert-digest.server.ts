import { sql, type SqlBool } from "kysely";
import { z } from "zod";
import { RULE_LABEL } from "~/lib/alert-rules";
import { formatCustomerId } from "~/lib/format";
import { getDb, type DB } from "../db/db.server";
import { queueMail } from "../email/outbox.server";
import { getConfig } from "../env.server";
import { defineJob } from "../jobs/jobs.server";
import { log } from "../log.server";
import { ALERT_EMAIL_PREFERENCE } from "./alert-mail.server";

/**
 * Issue 31 point 4, the daily digest: a person who chose "daily digest" gets
 * one mail a day (the "alert-digest" cron, 07:00 UTC) listing the alerts of
 * their client accounts that were raised since their last digest (the first
 * covers the last 24 hours), leaving out muted rules and accounts. No new
 * alerts, no mail. The time covered is kept per person, so a late or repeated
 * run neither skips nor repeats an alert.
 */
export const DIGEST_SENT_PREFERENCE = "alert-digest-sent-through";
const DAY_MS = 24 * 3600 * 1000;

export async function sendDailyDigests(now: Date = new Date(), db: DB = getDb()): Promise<number> {
  const through = now.toISOString();
  const people = await db
    .selectFrom("user_preferences as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .leftJoin("user_preferences as s", (j) => j.onRef("s.user_id", "=", "u.id").on("s.name", "=", DIGEST_SENT_PREFERENCE))
    .select(["u.id", "u.email", "s.value as sentThrough"])
    .where("p.name", "=", ALERT_EMAIL_PREFERENCE)
    .where("p.value", "=", JSON.stringify("digest"))
    .execute();
  let mailed = 0;
  for (const person of people) {
    const since = parseSince(person.sentThrough) ?? new Date(now.getTime() - DAY_MS).toISOString();
    const alerts = await db
      .selectFrom("alerts as al")
      .innerJoin("ads_accounts as a", (j) => j.onRef("a.customer_id", "=", "al.customer_id").on("a.user_id", "=", person.id))
      .select(["al.rule", "al.title", "al.started_on", "al.customer_id", "a.name"])
      .where("a.manager", "=", 0)
      .where("al.created_at", ">", since)
      .where("al.created_at", "<=", through)
      .where(
        sql<SqlBool>`NOT EXISTS (SELECT 1 FROM alert_mutes mu WHERE mu.user_id = ${person.id} AND (mu.customer_id = al.customer_id OR mu.customer_id = '*') AND (mu.rule = al.rule OR mu.rule = '*'))`,
      )
      .orderBy("a.name")
      .orderBy("al.created_at")
      .execute();
    if (alerts.length) {
      const lines: string[] = [];
      let account = "";
      for (const al of alerts) {
        if (al.customer_id !== account) {
          account = al.customer_id;
          lines.push("", `${al.name} (${formatCustomerId(al.customer_id)})`);
        }
        lines.push(`- ${RULE_LABEL[al.rule]}: ${al.title} (since ${al.started_on})`);
      }
      await queueMail(
        {
          to: person.email,
          subject: `${alerts.length} new alert${alerts.length === 1 ? "" : "s"} today`,
          text: [
            `New alerts since ${since.slice(0, 16).replace("T", " ")} UTC:`,
            ...lines,
            "",
            `See them: ${getConfig().APP_URL}/alerts`,
            "",
            "You get this mail because you chose a daily digest of alerts. Change it, or mute a rule, on the alerts page.",
          ].join("\n"),
        },
        db,
      );
      mailed += 1;
    }
    // Recorded after the mail is queued: a crash between the two repeats a digest rather than losing one.
    await db
      .insertInto("user_preferences")
      .values({ user_id: person.id, name: DIGEST_SENT_PREFERENCE, value: JSON.stringify(through), updated_at: through })
      .onConflict((oc) => oc.columns(["user_id", "name"]).doUpdateSet({ value: JSON.stringify(through), updated_at: through }))
      .execute();
  }
  return mailed;
}

function parseSince(value: string | null): string | null {
  if (!value) return null;
  try {
    const parsed = z.iso.datetime().safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

defineJob("alert-digest", {
  schema: z.object({}),
  handler: async () => {
    const mailed = await sendDailyDigests();
    if (mailed) log.info(`Daily alert digests: ${mailed} queued`);
  },
});
