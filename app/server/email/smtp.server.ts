import nodemailer from "nodemailer";
import { getConfig } from "../env.server";
import { log } from "../log.server";
import { OUTBOX_FIELD } from "../log-redact.server";

/**
 * Hands one mail to the SMTP server in SMTP_URL (nodemailer). A self-hoster
 * without one still gets every message: it is written to the server log
 * (LOG_LEVEL info, the default, or debug), links included, so they can be
 * followed by hand. Called by the outbox's send-mail job, never by a request.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

function mailFrom() {
  const config = getConfig();
  return config.MAIL_FROM ?? `Ads AI Manager <no-reply@${new URL(config.APP_URL).hostname}>`;
}

export async function sendMail(mail: Mail): Promise<void> {
  const config = getConfig();
  if (!config.SMTP_URL) {
    // The log is the mailbox here: this line is kept whole (its link must work), every other one is redacted.
    log.info({ [OUTBOX_FIELD]: true }, `Email to ${mail.to} (SMTP_URL is not set, so it is written here instead)\nSubject: ${mail.subject}\n\n${mail.text}\n`);
    return;
  }
  transport ??= nodemailer.createTransport(config.SMTP_URL);
  await transport.sendMail({ from: mailFrom(), to: mail.to, subject: mail.subject, text: mail.text });
}

export function resetMailerForTests() {
  transport?.close();
  transport = undefined;
}
