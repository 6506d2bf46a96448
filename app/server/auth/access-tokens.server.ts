import { randomUUID } from "node:crypto";
import { TOKEN_SCOPES, type AccessTokenInput, type AccessTokenView, type TokenScope } from "~/lib/access-token-form";
import { getDb, type DB } from "../db/db.server";
import type { User } from "../db/schema";
import { ConflictError, InvalidError } from "../domain-errors.server";
import { noteRequestUser } from "../log.server";
import { randomToken, sha256 } from "./crypto-utils.server";
import { activeGoogleConnection, CALLER_COLUMNS } from "./session.server";

/**
 * Personal access tokens (issue 34, ADR 028): what a person gives their own
 * agent or script. Unlike a session's API token, one is made on purpose in
 * /settings with a name, scopes (`read`, `propose`) and an expiry, is shown
 * once, and lives until it expires or is revoked. Only its SHA-256 is stored.
 * The MCP server accepts nothing else; the JSON API accepts these and
 * session tokens, each endpoint saying which scope a token needs. No scope
 * lets a token apply, approve, revert or discard a change set: those stay
 * with the person signed in to the app.
 */
export type { AccessTokenView, TokenScope };

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs) and never taken for a session's. */
export const ACCESS_TOKEN_PREFIX = "aam_pat_";

/** At most this many tokens per person (expired ones included, until revoked). */
export const MAX_ACCESS_TOKENS = 20;

/** last_used_at is written at most this often per token: a busy agent is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AccessTokenCaller {
  user: User;
  token: { id: string; name: string; scopes: TokenScope[] };
  /** As in SessionContext: the user's Google connection, for the access re-check. */
  googleAccess: { checkedAt: string | null } | null;
}

export interface CreatedAccessToken {
  id: string;
  name: string;
  /** The token itself: shown to the person once, never stored. */
  token: string;
  scopes: TokenScope[];
  expiresAt: string;
}

const scopesOf = (stored: string): TokenScope[] => TOKEN_SCOPES.filter((s) => stored.split(" ").includes(s));

export const isAccessToken = (token: string) => token.startsWith(ACCESS_TOKEN_PREFIX);

export async function createAccessToken(userId: string, input: AccessTokenInput, now = new Date(), db: DB = getDb()): Promise<CreatedAccessToken> {
  const existing = await db.selectFrom("access_tokens").select(["name"]).where("user_id", "=", userId).execute();
  if (existing.length >= MAX_ACCESS_TOKENS) {
    throw new ConflictError(`You have ${MAX_ACCESS_TOKENS} access tokens, the most there can be; revoke one you no longer use first.`);
  }
  const taken = (name: string) => new InvalidError(`You already have a token named “${name}”`, { name: `You already have a token named “${name}”` });
  if (existing.some((t) => t.name.toLowerCase() === input.name.toLowerCase())) throw taken(input.name);
  const token = `${ACCESS_TOKEN_PREFIX}${randomToken()}`;
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + Number(input.expiresInDays) * 24 * 3600 * 1000).toISOString();
  try {
    await db
      .insertInto("access_tokens")
      .values({
        id,
        user_id: userId,
        name: input.name,
        scopes: input.scopes.join(" "),
        token_hash: sha256(token),
        created_at: now.toISOString(),
        expires_at: expiresAt,
        last_used_at: null,
      })
      .execute();
  } catch (error) {
    // Two creations with one name at once: the unique index decides, the loser is told as above.
    if (await db.selectFrom("access_tokens").select("id").where("user_id", "=", userId).where("name", "=", input.name).executeTakeFirst())
      throw taken(input.name);
    throw error;
  }
  return { id, name: input.name, token, scopes: input.scopes, expiresAt };
}

/** The person's tokens, newest first (never the tokens themselves). */
export async function listAccessTokens(userId: string, now = new Date(), db: DB = getDb()): Promise<AccessTokenView[]> {
  const rows = await db
    .selectFrom("access_tokens")
    .select(["id", "name", "scopes", "created_at", "expires_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("name")
    .execute();
  const at = now.toISOString();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    scopes: scopesOf(r.scopes),
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    expired: r.expires_at <= at,
  }));
}

/** Revokes one of the person's tokens; false when they have none with that id (another person's included). */
export async function revokeAccessToken(userId: string, tokenId: string, db: DB = getDb()): Promise<{ name: string } | null> {
  const row = await db.selectFrom("access_tokens").select("name").where("id", "=", tokenId).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  await db.deleteFrom("access_tokens").where("id", "=", tokenId).where("user_id", "=", userId).execute();
  return row;
}

/**
 * The person and token behind a personal access token, or null when it is
 * unknown, revoked or expired (indistinguishable to the caller). Notes the use
 * (last_used_at, to the minute).
 */
export async function authenticateAccessToken(token: string, now = new Date(), db: DB = getDb()): Promise<AccessTokenCaller | null> {
  if (!isAccessToken(token)) return null;
  const row = await db
    .selectFrom("access_tokens")
    .innerJoin("users", "users.id", "access_tokens.user_id")
    .leftJoin("google_connections", activeGoogleConnection)
    .select([
      ...CALLER_COLUMNS,
      "access_tokens.id as token_id",
      "access_tokens.name as token_name",
      "access_tokens.scopes",
      "access_tokens.expires_at",
      "access_tokens.last_used_at",
    ])
    .where("access_tokens.token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return null;
  const { token_id, token_name, scopes, expires_at: _e, last_used_at, connection_id, access_checked_at, ...user } = row;
  if (!last_used_at || now.getTime() - Date.parse(last_used_at) >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable("access_tokens").set({ last_used_at: now.toISOString() }).where("id", "=", token_id).execute();
  }
  noteRequestUser(user.id);
  return {
    user,
    token: { id: token_id, name: token_name, scopes: scopesOf(scopes) },
    googleAccess: connection_id ? { checkedAt: access_checked_at } : null,
  };
}
