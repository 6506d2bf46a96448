import { LoginSchema, RegisterSchema } from "~/lib/auth-schemas";
import { validationError, HttpError } from "../http/errors.server";
import {
  assertPairNotLocked,
  clearFailedAttempts,
  consumeIpAttempt,
  RateLimitError,
  recordFailedAttempt,
  slowDownIfGuessedAt,
} from "./rate-limit.server";
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

async function guard<T>(fn: () => Promise<T>): Promise<T> {
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
const readInput = (input: AuthInput) => (typeof input === "function" ? (input as () => Promise<unknown>)() : input);

export async function signIn(
  input: AuthInput,
  request: Request,
  clientIp: string,
): Promise<{ user: User; session: CreatedSession }> {
  return guard(async () => {
    await consumeIpAttempt(clientIp);
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

export async function register(input: AuthInput, clientIp: string): Promise<User> {
  return guard(async () => {
    await consumeIpAttempt(clientIp);
    const parsed = RegisterSchema.safeParse(await readInput(input));
    if (!parsed.success) throw validationError(parsed.error);
    return registerUser(parsed.data.email, parsed.data.password);
  });
}
