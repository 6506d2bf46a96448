import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getDb, type DB } from "../db/db.server";
import { defineJob, enqueue } from "../jobs/jobs.server";
import { sendMail, type Mail } from "./smtp.server";

/**
 * The outbox (issue 27 point 1): a mail is a row in mail_outbox, written with
 * its "send-mail" job in one transaction, so a mail the product promised
 * survives a crash, a restart and an SMTP outage. The job sends it (retried
 * with backoff, on any instance) and records the outcome on the row.
 */
export async function queueMail(mail: Mail, db: DB = getDb()): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("mail_outbox")
      .values({
        id,
        to_address: mail.to,
        subject: mail.subject,
        body: mail.text,
        status: "pending",
        error: null,
        created_at: new Date().toISOString(),
        sent_at: null,
      })
      .execute();
    await enqueue("send-mail", { mailId: id }, { db: trx });
  });
  return id;
}

defineJob("send-mail", {
  schema: z.object({ mailId: z.string().min(1) }),
  singletonKey: (d) => d.mailId,
  handler: async ({ mailId }) => {
    const db = getDb();
    const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", mailId).executeTakeFirst();
    // Sent already (a retry after the send but before this was recorded would send it twice; that is the rarer harm).
    if (!row || row.status !== "pending") return;
    await sendMail({ to: row.to_address, subject: row.subject, text: row.body });
    await db.updateTable("mail_outbox").set({ status: "sent", body: "", error: null, sent_at: new Date().toISOString() }).where("id", "=", mailId).execute();
  },
  onFailed: async ({ mailId }, reason) => {
    await getDb()
      .updateTable("mail_outbox")
      .set({ status: "failed", body: "", error: reason })
      .where("id", "=", mailId)
      .where("status", "=", "pending")
      .execute();
  },
});
