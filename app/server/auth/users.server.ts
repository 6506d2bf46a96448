import { randomUUID } from "node:crypto";
import { getDb, type DB } from "../db/db.server";
import type { User } from "../db/schema";
import { isUniqueViolation } from "../db/unique-violation.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password.server";

export class AuthError extends Error {
  constructor(
    message: string,
    public readonly status: 400 | 401 | 409,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

/**
 * Creates a password account (its address unproved until confirmed). The
 * email must already be normalised (see EmailSchema). The password is hashed
 * before the address is looked up, so an existing address answers no faster.
 */
export async function registerUser(email: string, password: string, db: DB = getDb()): Promise<User> {
  const passwordHash = await hashPassword(password);
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new AuthError("An account with this email already exists", 409);
  const now = new Date().toISOString();
  const user: User = {
    id: randomUUID(),
    email,
    password_hash: passwordHash,
    email_verified_at: null,
    google_sub: null,
    active_customer_id: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto("users").values(user).execute();
  } catch (error) {
    // Two registrations racing for one email: the unique index decides.
    if (isUniqueViolation(error)) throw new AuthError("An account with this email already exists", 409);
    throw error;
  }
  return user;
}

const INVALID_CREDENTIALS = "Invalid email or password";

export async function verifyLogin(email: string, password: string, db: DB = getDb()): Promise<User> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user?.password_hash) {
    await burnPasswordCheck(password);
    throw new AuthError(INVALID_CREDENTIALS, 401);
  }
  if (!(await verifyPassword(password, user.password_hash))) throw new AuthError(INVALID_CREDENTIALS, 401);
  return user;
}

export async function getUserById(id: string, db: DB = getDb()) {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}
