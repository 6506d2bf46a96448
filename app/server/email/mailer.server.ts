import nodemailer from "nodemailer";
import { getConfig } from "../env.server";
import { errorMessage, log } from "../log.server";
import { OUTBOX_FIELD } from "../log-redact.server";

/**
 * Outgoing mail through the SMTP server in SMTP_URL (nodemailer). A
 * self-hoster without one still gets every message: it is written to the
 * server log (LOG_LEVEL info, the default, or debug), links included, so they
 * can be followed by hand.
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

/** Sends without making the caller wait or fail: a mail server outage is logged, the request answers as usual. */
export function sendMailInBackground(mail: Mail): Promise<void> {
  return sendMail(mail).catch((error: unknown) => {
    log.warn(`Could not send the email "${mail.subject}" to ${mail.to}: ${errorMessage(error)}`);
  });
}

export function resetMailerForTests() {
  transport?.close();
  transport = undefined;
}
