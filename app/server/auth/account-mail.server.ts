import { sendMailInBackground, type Mail } from "../email/mailer.server";
import { errorMessage, log } from "../log.server";
import { mayMail } from "./rate-limit.server";

/**
 * Mail about an account (confirmation and reset links, notes to an address's
 * owner), sent without making the request wait. At most AUTH_MAIL_DAILY_LIMIT
 * a day reach one address, however often the forms are filled in. Never
 * rejects: a refused or failed mail is logged and the request answers as
 * usual, so nothing a form says depends on the mailbox.
 */
export async function sendAccountMail(mail: Mail): Promise<void> {
  try {
    if (!(await mayMail(mail.to))) {
      log.warn(`Account mail "${mail.subject}" not sent: its recipient already had AUTH_MAIL_DAILY_LIMIT mails today`);
      return;
    }
    await sendMailInBackground(mail);
  } catch (error) {
    log.warn(`Account mail "${mail.subject}" not sent: ${errorMessage(error)}`);
  }
}
