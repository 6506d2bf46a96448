import type { JoinBuilder } from "kysely";
import { LRUCache } from "lru-cache";
import { getDb, type DB } from "../db/db.server";
import type { Database, User } from "../db/schema";
import { getConfig } from "../env.server";
import { noteRequestUser } from "../log.server";
import { randomToken, sha256 } from "./crypto-utils.server";
import { appCookie } from "../http/app-cookie.server";

/**
 * Sessions live in the database. The cookie holds only the signed session id,
 * the database only its SHA-256 (so a copy of the database signs nobody in);
 * the API access token (shown once, at creation) is stored as a hash too and
 * dies with its session.
 */

const sessionCookie = appCookie("__session", { maxAge: (config) => config.SESSION_TTL_DAYS * 24 * 3600 });

export interface CreatedSession {
  /** The stored id (a hash): what the app names the session by. */
  sessionId: string;
  /** What the cookie carries; never stored. */
  cookieValue: string;
  accessToken: string;
  expiresAt: string;
}

export async function createSession(userId: string, request: Request, db: DB = getDb()): Promise<CreatedSession> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + getConfig().SESSION_TTL_DAYS * 24 * 3600 * 1000).toISOString();
  const cookieValue = randomToken();
  const sessionId = sha256(cookieValue);
  const accessToken = randomToken();
  await db
    .insertInto("sessions")
    .values({
      id: sessionId,
      user_id: userId,
      token_hash: sha256(accessToken),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      user_agent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    })
    .execute();
  return { sessionId, cookieValue, accessToken, expiresAt };
}

export async function commitSessionCookie(session: Pick<CreatedSession, "cookieValue">) {
  return sessionCookie().serialize(session.cookieValue);
}

export async function clearSessionCookie() {
  return sessionCookie().serialize("", { maxAge: 0 });
}

// Checking the cookie's signature (HMAC through WebCrypto) was a visible share
// of every signed-in request's CPU in the profile, and a browser sends the same
// Cookie header request after request: the answer per header is kept (a
// small LRU; the result depends only on the header and the fixed secret).
const parsedCookies = new LRUCache<string, { sessionId: string | null }>({ max: 2_000 });

/** The stored id (the hash) of the session the request's cookie names, or null without one. */
export async function getSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const known = parsedCookies.get(header);
  if (known) return known.sessionId;
  const value = await sessionCookie().parse(header);
  const sessionId = typeof value === "string" && value.length > 0 ? sha256(value) : null;
  parsedCookies.set(header, { sessionId });
  return sessionId;
}

export interface SessionContext {
  user: User;
  sessionId: string;
  tokenHash: string;
  /** The user's Google connection, when there is an active one: when its accounts were last re-checked (null: due). */
  googleAccess: { checkedAt: string | null } | null;
}

/**
 * What a credential's lookup reads besides its own row (a session here, a
 * personal access token in access-tokens.server.ts): the whole user, and their
 * active Google connection's last access check (left-joined on `users`).
 */
export const CALLER_COLUMNS = [
  "google_connections.id as connection_id",
  "google_connections.access_checked_at",
  "users.id",
  "users.email",
  "users.password_hash",
  "users.email_verified_at",
  "users.google_sub",
  "users.active_customer_id",
  "users.created_at",
  "users.updated_at",
] as const;

/** The join CALLER_COLUMNS read the connection through. */
export const activeGoogleConnection = (join: JoinBuilder<Database, "users" | "google_connections">) =>
  join.onRef("google_connections.user_id", "=", "users.id").on("google_connections.status", "=", "active");

async function findSession(db: DB, column: "id" | "token_hash", value: string): Promise<SessionContext | null> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("google_connections", activeGoogleConnection)
    .select([...CALLER_COLUMNS, "sessions.id as session_id", "sessions.token_hash", "sessions.expires_at"])
    .where(`sessions.${column}`, "=", value)
    .executeTakeFirst();
  if (!row) return null;
  if (row.expires_at <= new Date().toISOString()) {
    await db.deleteFrom("sessions").where("id", "=", row.session_id).execute();
    return null;
  }
  const { session_id, token_hash, expires_at: _e, connection_id, access_checked_at, ...user } = row;
  noteRequestUser(user.id);
  return { user, sessionId: session_id, tokenHash: token_hash, googleAccess: connection_id ? { checkedAt: access_checked_at } : null };
}

/** The signed-in user of a browser request (cookie), or null. */
export async function getSession(request: Request, db: DB = getDb()): Promise<SessionContext | null> {
  const sessionId = await getSessionId(request);
  return sessionId ? findSession(db, "id", sessionId) : null;
}

/** The token of `Authorization: Bearer <token>` (a session's or a personal access token), or null. */
export function bearerToken(request: Request): string | null {
  return /^Bearer\s+([A-Za-z0-9_-]{20,100})\s*$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? null;
}

/** The user behind `Authorization: Bearer <access_token>` of a session (never a personal access token), or null. */
export async function getBearerSession(request: Request, db: DB = getDb()): Promise<SessionContext | null> {
  const token = bearerToken(request);
  return token ? findSession(db, "token_hash", sha256(token)) : null;
}

export async function destroySession(sessionId: string, db: DB = getDb()) {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/**
 * Ends every way into the account: its sessions (and with them their API
 * tokens) and its personal access tokens. "Sign out everywhere", a password
 * reset and a takeover of an unproved account all mean "whoever got in before
 * is out", an agent's token included.
 */
export async function endEverySignIn(userId: string, db: DB = getDb()) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("access_tokens").where("user_id", "=", userId).execute();
}

export interface ActiveSession {
  id: string;
  createdAt: string;
  expiresAt: string;
  userAgent: string | null;
  current: boolean;
}

/** The user's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(userId: string, currentId: string, db: DB = getDb()): Promise<ActiveSession[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "created_at", "expires_at", "user_agent"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, expiresAt: r.expires_at, userAgent: r.user_agent, current: r.id === currentId }));
}

/** Does this access token belong to this very session? (A token from a link must never sign anyone in.) */
export function tokenBelongsTo(session: SessionContext, token: string) {
  return sha256(token) === session.tokenHash;
}
