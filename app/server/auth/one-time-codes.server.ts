import { getDb, type DB } from "../db/db.server";
import type { AuthCodesTable } from "../db/schema";
import { randomToken, sha256 } from "./crypto-utils.server";

/**
 * Codes that stand for a user once: the hop of a Google sign-in through
 * `/dashboard?token=` (2 minutes) and a password-reset link (1 hour). Only
 * the SHA-256 of a code is stored; taking a code deletes its row in the same
 * statement, so of two requests racing with one code exactly one gets the
 * user; an expired code is refused (and swept when the next one is issued).
 */
export type CodePurpose = AuthCodesTable["purpose"];

export const CODE_TTL_MS: Record<CodePurpose, number> = {
  "sign-in": 2 * 60_000,
  "password-reset": 60 * 60_000,
};

/** Matches what issueCode makes: checked before any lookup. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new code for this user; `replace` first voids the user's earlier codes of the same purpose. */
export async function issueCode(purpose: CodePurpose, userId: string, opts: { replace?: boolean } = {}, db: DB = getDb()): Promise<string> {
  const code = randomToken();
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("auth_codes").where("expires_at", "<=", now.toISOString()).execute();
    if (opts.replace) await trx.deleteFrom("auth_codes").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
    await trx
      .insertInto("auth_codes")
      .values({
        code_hash: sha256(code),
        purpose,
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + CODE_TTL_MS[purpose]).toISOString(),
      })
      .execute();
  });
  return code;
}

/** The user a live code stands for, without using it up (a page that shows a form for it). */
export async function peekCode(purpose: CodePurpose, code: unknown, db: DB = getDb()): Promise<string | null> {
  if (typeof code !== "string" || !CODE_PATTERN.test(code)) return null;
  const row = await db
    .selectFrom("auth_codes")
    .select("user_id")
    .where("code_hash", "=", sha256(code))
    .where("purpose", "=", purpose)
    .where("expires_at", ">", new Date().toISOString())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Uses the code up: the user it stood for, or null when it is unknown, used or expired. */
export async function takeCode(purpose: CodePurpose, code: unknown, db: DB = getDb()): Promise<string | null> {
  if (typeof code !== "string" || !CODE_PATTERN.test(code)) return null;
  const row = await db
    .deleteFrom("auth_codes")
    .where("code_hash", "=", sha256(code))
    .where("purpose", "=", purpose)
    .returning(["user_id", "expires_at"])
    .executeTakeFirst();
  return row && row.expires_at > new Date().toISOString() ? row.user_id : null;
}
