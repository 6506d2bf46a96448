import { LoginSchema, RegisterSchema, VerifyEmailSchema } from "~/lib/auth-schemas";
import { validationError, HttpError } from "../http/errors.server";
import { assertPairNotLocked, clearFailedAttempts, consumeAttempt, RateLimitError, recordFailedAttempt, slowDownIfGuessedAt } from "./rate-limit.server";
import { getDb } from "../db/db.server";
import { markEmailVerified, readVerificationToken, sendAlreadyRegistered, sendConfirmation } from "./email-verification.server";
import { createSession, type CreatedSession } from "./session.server";
import { AuthError, registerUser, verifyLogin } from "./users.server";
import type { User } from "../db/schema";

/**
 * Email/password sign-in and registration, shared by the /login form and the
 * JSON API so both enforce the same validation and limits.
 */

function rateLimited(error: RateLimitError) {
  return new HttpError(429, error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
}

/** Runs an account form's work, turning limit and credential refusals into the HTTP answers every form and API gives. */
export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof RateLimitError) throw rateLimited(error);
    if (error instanceof AuthError) throw new HttpError(error.status, error.message);
    throw error;
  }
}

/**
 * The body, or a function that reads it: the attempt is counted against the
 * client IP before the body is read or parsed, so malformed bodies count too.
 */
export type AuthInput = unknown | (() => Promise<unknown>);
export const readInput = (input: AuthInput) => (typeof input === "function" ? (input as () => Promise<unknown>)() : input);

export async function signIn(input: AuthInput, request: Request, clientIp: string): Promise<{ user: User; session: CreatedSession }> {
  return guard(async () => {
    await consumeAttempt("login", clientIp);
    const parsed = LoginSchema.safeParse(await readInput(input));
    if (!parsed.success) throw validationError(parsed.error);
    const { email, password } = parsed.data;
    await assertPairNotLocked(email, clientIp);
    await slowDownIfGuessedAt(email);
    let user: User;
    try {
      user = await verifyLogin(email, password);
    } catch (error) {
      if (error instanceof AuthError) await recordFailedAttempt(email, clientIp);
      throw error;
    }
    await clearFailedAttempts(email, clientIp);
    return { user, session: await createSession(user.id, request) };
  });
}

/**
 * Registration answers the same whether or not the address already has an
 * account (issue 9 point 9): `{ email }`. The difference only reaches the
 * address's mailbox: a confirmation link for a new account, a note (and, for
 * an account never confirmed, a fresh link) for an existing one.
 */
export async function register(input: AuthInput, clientIp: string): Promise<{ email: string }> {
  return guard(async () => {
    await consumeAttempt("register", clientIp);
    const parsed = RegisterSchema.safeParse(await readInput(input));
    if (!parsed.success) throw validationError(parsed.error);
    const { email, password } = parsed.data;
    try {
      const user = await registerUser(email, password);
      await sendConfirmation(user);
    } catch (error) {
      if (!(error instanceof AuthError) || error.status !== 409) throw error;
      const existing = await getDb()
        .selectFrom("users")
        .select(["id", "email", "password_hash", "email_verified_at"])
        .where("email", "=", email)
        .executeTakeFirst();
      // A fresh link only helps whoever knows that account's password: confirming asks for it.
      if (existing?.password_hash && !existing.email_verified_at) await sendConfirmation(existing);
      else await sendAlreadyRegistered(email);
    }
    return { email };
  });
}

export const CONFIRM_LINK_INVALID = "This confirmation link is invalid or has expired. Register again with the same address to get a new one.";

/**
 * The confirmation page's form: the link's token plus the account's password
 * (so only the person who registered can prove the address for it), under
 * the same limits as sign-in. A confirmed address signs its owner in.
 */
export async function confirmEmail(token: unknown, password: unknown, request: Request, clientIp: string): Promise<{ user: User; session: CreatedSession }> {
  return guard(async () => {
    await consumeAttempt("confirm", clientIp);
    const claim = readVerificationToken(token);
    if (!claim) throw new HttpError(400, CONFIRM_LINK_INVALID);
    const parsed = VerifyEmailSchema.shape.password.safeParse(password);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Password is required";
      throw new HttpError(400, message, { password: message });
    }
    await assertPairNotLocked(claim.email, clientIp);
    await slowDownIfGuessedAt(claim.email);
    let user: User;
    try {
      user = await verifyLogin(claim.email, parsed.data);
    } catch (error) {
      if (error instanceof AuthError) {
        await recordFailedAttempt(claim.email, clientIp);
        throw new HttpError(401, "That is not this account's password", { password: "That is not this account's password" });
      }
      throw error;
    }
    if (!(await markEmailVerified(claim.userId, claim.email))) throw new HttpError(400, CONFIRM_LINK_INVALID);
    await clearFailedAttempts(claim.email, clientIp);
    // The password was just typed: the person is signed in rather than asked for it a third time (issue 25 point 8).
    return { user, session: await createSession(user.id, request) };
  });
}
