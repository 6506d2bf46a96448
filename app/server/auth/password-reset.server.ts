import { RESET_PATH } from "~/lib/auth-paths";
import { ForgotPasswordSchema, ResetPasswordSchema } from "~/lib/auth-schemas";
import { getDb } from "../db/db.server";
import type { User } from "../db/schema";
import { getConfig } from "../env.server";
import { HttpError, validationError } from "../http/errors.server";
import { sendAccountMail } from "./account-mail.server";
import { guard, readInput, type AuthInput } from "./credentials.server";
import { CODE_TTL_MS, issueCode, peekCode, takeCode } from "./one-time-codes.server";
import { hashPassword } from "./password.server";
import { consumeAttempt } from "./rate-limit.server";
import { createSession, type CreatedSession } from "./session.server";

/**
 * "Forgot password" (issue 25 point 9): a mailed link with a single-use code
 * that expires in an hour. Asking for it answers the same whether or not the
 * address has an account (only the mailbox learns the difference); choosing
 * the new password ends every session and API token the account had, proves
 * the address (the link reached its mailbox) and signs the person in.
 */

export const RESET_REQUESTED_MESSAGE = "If an account uses this address, we sent it a link to choose a new password. The link works for 1 hour.";
export const RESET_LINK_INVALID = "This link to reset your password is invalid, expired or already used. Ask for a new one.";

const TTL_MINUTES = CODE_TTL_MS["password-reset"] / 60_000;

export async function requestPasswordReset(input: AuthInput, clientIp: string): Promise<{ email: string }> {
  return guard(async () => {
    await consumeAttempt("reset", clientIp);
    const parsed = ForgotPasswordSchema.safeParse(await readInput(input));
    if (!parsed.success) throw validationError(parsed.error);
    const { email } = parsed.data;
    const user = await getDb().selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    if (user) {
      // A newer request voids the older links.
      const code = await issueCode("password-reset", user.id, { replace: true });
      void sendAccountMail({
        to: email,
        subject: "Reset your Ads AI Manager password",
        text: [
          "Someone (hopefully you) asked to reset the password of the Ads AI Manager account for this address.",
          "",
          "To choose a new password, open this link:",
          `${getConfig().APP_URL}${RESET_PATH}?token=${code}`,
          "",
          `The link works once, for ${TTL_MINUTES} minutes. Choosing a new password signs out every device and`,
          "ends every API token of the account. If you did not ask for this, ignore this email: nothing changes.",
        ].join("\n"),
      });
    }
    return { email };
  });
}

/** The address a live reset link is for (the page shows it), or null. */
export async function resetLinkEmail(token: unknown): Promise<string | null> {
  const userId = await peekCode("password-reset", token);
  if (!userId) return null;
  const user = await getDb().selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  return user?.email ?? null;
}

/**
 * Sets the new password for the link's account (the code is used up only by a
 * valid password), ends all its sessions and starts a new one for this browser.
 */
export async function resetPassword(token: unknown, password: unknown, request: Request, clientIp: string): Promise<{ user: User; session: CreatedSession }> {
  return guard(async () => {
    await consumeAttempt("reset", clientIp);
    const parsed = ResetPasswordSchema.safeParse({ password });
    if (!parsed.success) throw validationError(parsed.error);
    const passwordHash = await hashPassword(parsed.data.password);
    const userId = await takeCode("password-reset", token);
    if (!userId) throw new HttpError(400, RESET_LINK_INVALID);
    const now = new Date().toISOString();
    const db = getDb();
    const user = await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("users").select("email_verified_at").where("id", "=", userId).executeTakeFirstOrThrow();
      await trx
        .updateTable("users")
        .set({ password_hash: passwordHash, email_verified_at: before.email_verified_at ?? now, updated_at: now })
        .where("id", "=", userId)
        .execute();
      await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
      await trx.deleteFrom("auth_codes").where("user_id", "=", userId).execute();
      return trx.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    });
    return { user, session: await createSession(user.id, request) };
  });
}
