import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getDb, type DB } from "../db/db.server";
import type { User } from "../db/schema";
import { sendAccountMail } from "./account-mail.server";
import { getConfig } from "../env.server";

/**
 * Proving that a password account's owner controls its address (issue 9
 * point 1). Registration sends a link; the link opens a page that asks for the
 * account's password, so only the person who registered can confirm it: a
 * victim clicking an unsolicited link cannot confirm an attacker's account.
 *
 * The link carries a signed, expiring token (HMAC with SESSION_SECRET) naming
 * the user and the address: nothing to store, and it dies if the address
 * changes. Confirming twice is harmless.
 */
const TTL_MS = 3 * 24 * 3600 * 1000;
export const VERIFY_PATH = "/verify-email";

const Payload = z.object({ u: z.string(), e: z.string(), x: z.number() });

function sign(body: string) {
  return createHmac("sha256", `email-verification:${getConfig().SESSION_SECRET}`).update(body).digest("base64url");
}

export function verificationToken(user: Pick<User, "id" | "email">, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ u: user.id, e: user.email, x: now + TTL_MS })).toString("base64url");
  return `${body}.${sign(body)}`;
}

/** The user and address a token names, when its signature holds and it has not expired. */
export function readVerificationToken(token: unknown, now = Date.now()): { userId: string; email: string } | null {
  if (typeof token !== "string" || token.length > 1000) return null;
  const [body, mac, ...rest] = token.split(".");
  if (!body || !mac || rest.length > 0) return null;
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: z.infer<typeof Payload>;
  try {
    parsed = Payload.parse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
  } catch {
    return null;
  }
  return parsed.x > now ? { userId: parsed.u, email: parsed.e } : null;
}

export function verificationLink(user: Pick<User, "id" | "email">): string {
  return `${getConfig().APP_URL}${VERIFY_PATH}?token=${verificationToken(user)}`;
}

/** After a registration that created the account. */
export function sendConfirmation(user: Pick<User, "id" | "email">) {
  return sendAccountMail({
    to: user.email,
    subject: "Confirm your email address for Ads AI Manager",
    text: [
      "Someone (hopefully you) created an Ads AI Manager account with this email address.",
      "",
      "To confirm the address, open this link and enter the password you chose:",
      verificationLink(user),
      "",
      "The link works for 3 days. If you did not create this account, ignore this email:",
      "without your confirmation the address stays unproved, and signing in with Google",
      "under this address removes that password and its sessions.",
    ].join("\n"),
  });
}

/** After a registration for an address that already has an account: the same answer to the visitor, a note to the owner. */
export function sendAlreadyRegistered(email: string) {
  return sendAccountMail({
    to: email,
    subject: "Someone tried to create an Ads AI Manager account with your email",
    text: [
      "Someone tried to create an Ads AI Manager account with this email address, which already has one.",
      "Nothing was changed. If it was you, sign in with your password or with Google:",
      `${getConfig().APP_URL}/login`,
      "",
      "If it was not you, you can ignore this email.",
    ].join("\n"),
  });
}

/** Marks the address proved when the token still names this user's current address. */
export async function markEmailVerified(userId: string, email: string, db: DB = getDb()): Promise<boolean> {
  const now = new Date().toISOString();
  const user = await db.selectFrom("users").select(["email", "email_verified_at"]).where("id", "=", userId).executeTakeFirst();
  if (!user || user.email !== email) return false;
  if (!user.email_verified_at) await db.updateTable("users").set({ email_verified_at: now, updated_at: now }).where("id", "=", userId).execute();
  return true;
}
