import { errorMessage, log } from "../log.server";
import { queueMail } from "./outbox.server";
import type { Mail } from "./smtp.server";

/**
 * The one way the product sends mail: the mail goes into the outbox
 * (outbox.server.ts) and a job sends it through SMTP_URL (or the server log),
 * retrying through an outage. Resolves once the mail is stored; an SMTP
 * failure never reaches the caller.
 */
export type { Mail } from "./smtp.server";
export { resetMailerForTests } from "./smtp.server";

export async function sendMailInBackground(mail: Mail): Promise<void> {
  try {
    await queueMail(mail);
  } catch (error) {
    // The database is not answering: the request that wanted this mail is failing too.
    log.error({ err: error }, `Could not queue the email "${mail.subject}" to ${mail.to}: ${errorMessage(error)}`);
  }
}
